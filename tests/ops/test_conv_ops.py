"""`ops.conv`, `conv_transpose`, `depthwise_conv`, `separable_conv`,
`max_pool`, `average_pool`: Keras parity, gradients, symbolic use, errors.

Reference values: `tests/fixtures/conv/reference.npz`, computed with Keras
3.15 on JAX by `tests/fixtures/conv/make_reference.py` (outputs and the
gradients of `sum(output * u)` for the cases in `cases.py`).
"""
import os

import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads
from tests.fixtures.conv.cases import OP_CASES, inputs_for

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = np.load(os.path.join(HERE, "..", "fixtures", "conv",
                                 "reference.npz"))


@pytest.mark.parametrize("i", range(len(OP_CASES)),
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(OP_CASES)])
def test_op_matches_keras(i):
    name, kwargs, shapes = OP_CASES[i]
    args = [kerasish.Variable(a) for a in inputs_for(i, shapes)]
    with kerasish.GradientTape() as tape:
        y = getattr(ops, name)(*args, **kwargs)
        expected = REFERENCE[f"op{i}_y"]
        u = np.random.default_rng(1).standard_normal(
            expected.shape).astype("float32")
        target = ops.sum(y * u)
    np.testing.assert_allclose(np.asarray(y), expected, rtol=1e-5,
                               atol=2e-5)
    for j, g in enumerate(tape.gradient(target, args)):
        np.testing.assert_allclose(np.asarray(g), REFERENCE[f"op{i}_g{j}"],
                                   rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("i", [0, 3, 5, 9, 12, 14, 16, 19, 23])
def test_op_gradients_float64(i):
    name, kwargs, shapes = OP_CASES[i]
    # Fresh values without ties: max-pool is not differentiable at a tie.
    rng = np.random.default_rng(i)
    arrays = [rng.standard_normal(s) for s in shapes]
    fn = getattr(ops, name)
    check_grads(lambda *a: fn(*a, **kwargs), arrays)


def test_conv_hand_computed():
    x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    kernel = np.array([1.0, 0.0, -1.0], "float32").reshape(3, 1, 1)
    np.testing.assert_array_equal(ops.conv(x, kernel).numpy().ravel(),
                                  [-2, -2, -2])
    # "same" pads one zero each side: [0 0 1 2 3 4 0].
    np.testing.assert_array_equal(
        ops.conv(x, kernel, padding="same").numpy().ravel(),
        [-1, -2, -2, -2, 3])


def test_conv_transpose_hand_computed():
    x = np.array([1.0, 2.0], "float32").reshape(1, 2, 1)
    kernel = np.array([1.0, 10.0, 100.0], "float32").reshape(3, 1, 1)
    # Stride 2 scatters each input times the kernel, two positions apart.
    np.testing.assert_array_equal(
        ops.conv_transpose(x, kernel, strides=2).numpy().ravel(),
        [1, 10, 102, 20, 200])


def test_ops_accept_symbolic_inputs():
    inputs = kerasish.Input((8, 8, 3))
    y = ops.max_pool(ops.conv(inputs, np.ones((3, 3, 3, 4), "float32")), 2)
    model = kerasish.Model(inputs, y)
    assert model.output_shape == (None, 3, 3, 4)
    assert model.predict(np.ones((2, 8, 8, 3), "float32"),
                         verbose=0).shape == (2, 3, 3, 4)


def test_int_inputs_are_promoted_to_the_kernel_dtype():
    y = ops.conv(np.ones((1, 4, 1), "int32"), np.ones((2, 1, 1), "float32"))
    assert y.dtype == "float32"


BAD = [
    (lambda: ops.conv(np.ones((1, 5, 5), "float32"),
                      np.ones((3, 3, 5, 2), "float32")),
     "Kernel shape must have the same length as input"),
    (lambda: ops.conv(np.ones((1, 5, 5, 3), "float32"),
                      np.ones((3, 3, 2, 2), "float32")),
     "input channels 3 and kernel in_channels 2"),
    (lambda: ops.conv(np.ones((1, 5, 5, 4), "float32"),
                      np.ones((3, 3, 2, 3), "float32")),
     r"output channels \(3\) must be divisible .* feature groups \(2"),
    (lambda: ops.conv(np.ones((1, 2, 2, 1), "float32"),
                      np.ones((3, 3, 1, 1), "float32")),
     r"output size would be zero or negative.*shape=\(1, 2, 2, 1\)"),
    (lambda: ops.conv(np.ones((1, 5, 5, 1), "float32"),
                      np.ones((3, 3, 1, 1), "float32"), padding="full"),
     "padding"),
    (lambda: ops.conv(np.ones((1, 5, 5, 1), "float32"),
                      np.ones((3, 3, 1, 1), "float32"), strides=0),
     "strides"),
    (lambda: ops.conv(np.ones((5, 1), "float32"),
                      np.ones((3, 1), "float32")),
     "rank 3, 4 or 5"),
    (lambda: ops.conv_transpose(np.ones((1, 4, 2), "float32"),
                                np.ones((3, 2, 3), "float32")),
     "in_channels equal to the input's channels"),
    (lambda: ops.depthwise_conv(np.ones((1, 5, 3), "float32"),
                                np.ones((3, 2, 1), "float32")),
     "input channels 3 and kernel of shape"),
    (lambda: ops.max_pool(np.ones((1, 2, 2, 1), "float32"), 3),
     r"pool_size=\(3, 3\)"),
    (lambda: ops.average_pool(np.ones((1, 4, 4, 1), "float32"), (2, 2, 2)),
     "pool_size"),
]


@pytest.mark.parametrize("call, message", BAD)
def test_bad_arguments_raise_clear_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_integer_pooling_matches_keras():
    # Keras 3.15/JAX: max_pool keeps int32 (padding never wins), while
    # average_pool returns float32 means.
    x = np.arange(16, dtype="int32").reshape(1, 4, 4, 1)
    y = ops.max_pool(x, 3, 1, padding="same")
    assert y.dtype == "int32"
    np.testing.assert_array_equal(y.numpy().ravel()[:4], [5, 6, 7, 7])
    y = ops.average_pool(x, 3, 1, padding="same")
    assert y.dtype == "float32"
    np.testing.assert_array_equal(y.numpy().ravel()[:4], [2.5, 3, 4, 4.5])
