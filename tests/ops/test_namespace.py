"""The `kerasish.ops` namespaces export exactly Keras's names.

The expected lists are `sorted(n for n in dir(keras.ops.nn) if not
n.startswith("_"))` (and the same for the `keras.src.ops.math` functions
exported at `keras.ops`'s top level) with Keras 3.15.1 on JAX.
"""
import types

import pytest

import kerasish
from kerasish import ops

KERAS_NN = [
    "adaptive_average_pool", "adaptive_max_pool", "average_pool",
    "batch_normalization", "binary_crossentropy",
    "categorical_crossentropy", "celu", "conv", "conv_transpose",
    "ctc_decode", "ctc_loss", "depth_to_space", "depthwise_conv",
    "dot_product_attention", "elu", "fold", "gelu", "glu", "hard_shrink",
    "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
    "layer_normalization", "leaky_relu", "log_sigmoid", "log_softmax",
    "max_pool", "moments", "multi_hot", "normalize", "one_hot", "polar",
    "psnr", "relu", "relu6", "rms_normalization", "selu", "separable_conv",
    "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign",
    "space_to_depth", "sparse_categorical_crossentropy", "sparse_plus",
    "sparse_sigmoid", "sparsemax", "squareplus", "swish", "tanh_shrink",
    "threshold", "unfold"]

KERAS_MATH = [
    "cdist", "erf", "erfc", "erfinv", "extract_sequences", "fft", "fft2",
    "ifft2", "in_top_k", "irfft", "istft", "logdet", "logsumexp", "rfft",
    "rsqrt", "segment_max", "segment_min", "segment_prod", "segment_sum",
    "stft", "top_k", "view_as_complex", "view_as_real"]

HELPERS = ["np", "warnings", "M", "N", "S", "R", "SP", "BN", "knp", "Tensor",
           "primitive", "to_array", "keras_op", "config", "special",
           "convert_to_tensor_", "standardize"]


def test_nn_all_is_keras_ops_nn():
    assert sorted(ops.nn.__all__) == KERAS_NN
    for name in KERAS_NN:
        assert callable(getattr(ops.nn, name)), name


def test_math_all_is_keras_ops_math():
    assert sorted(ops.math.__all__) == KERAS_MATH
    for name in KERAS_MATH:
        assert getattr(ops, name) is getattr(ops.math, name)


@pytest.mark.parametrize("module", [ops, ops.nn, ops.math])
def test_star_imports_leak_no_helpers(module):
    exported = set(dir(ops)) if module is ops else set(module.__all__)
    assert not exported & set(HELPERS)


def test_no_helper_objects_at_top_level():
    # Every public attribute is an op or a submodule, never an imported
    # class or a backend module under a short alias.
    for name in dir(ops):
        if name.startswith("_"):
            continue
        value = getattr(ops, name)
        if isinstance(value, types.ModuleType):
            assert value.__name__.startswith("kerasish.ops."), name
        else:
            assert callable(value) and not isinstance(value, type), name


@pytest.mark.parametrize("name", ["einsum", "ndim", "size", "slogdet"])
def test_numpy_namespace_has_the_keras_extras(name):
    assert name in dir(ops.numpy) and name in ops.numpy.__all__
    assert getattr(ops.numpy, name) is getattr(ops, name)


def test_private_helpers_stay_importable():
    from kerasish.ops.nn_activations import _float, log_sigmoid  # noqa
    from kerasish.ops.nn_normalization import standardize
    assert callable(standardize)
    assert kerasish.ops.nn.log_sigmoid is log_sigmoid
