"""Normalization, erf-family and activation ops of `kerasish.ops`.

Reference values: Keras 3.15.1 on JAX, float32 (`keras.ops.<name>` on the
inputs below).
"""
import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, ops
from kerasish.utils import check_grads

X = (np.arange(12, dtype="float32").reshape(3, 4) - 5) / 3
GAMMA = np.array([1.0, 2.0, 0.5, -1.0], "float32")
BETA = np.array([0.1, 0.0, -0.2, 0.3], "float32")


def test_layer_normalization_matches_keras():
    np.testing.assert_allclose(ops.layer_normalization(X, GAMMA, BETA), [
        [-1.241640567779541, -0.8944272994995117, 0.02360665798187256,
         -1.041640281677246]] * 3, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        ops.layer_normalization(X, axis=0, epsilon=0.01),
        [[-1.2196104526519775] * 4, [0.0] * 4, [1.2196104526519775] * 4],
        rtol=1e-6, atol=1e-6)


def test_rms_and_batch_normalization_match_keras():
    np.testing.assert_allclose(ops.rms_normalization(X, GAMMA), [
        [-1.3608275651931763, -2.1773242950439453, -0.40824827551841736,
         0.5443310737609863],
        [-0.8164963126182556, 0.0, 0.4082481563091278, -1.6329926252365112],
        [0.6469966173171997, 1.7253243923187256, 0.5391638278961182,
         -1.2939932346343994]], rtol=1e-5, atol=1e-6)
    out = ops.batch_normalization(
        X, np.float32([0.1, 0.2, 0.3, 0.4]), np.float32([1, 2, 3, 4]),
        axis=-1, offset=BETA, scale=GAMMA)
    np.testing.assert_allclose(out, [
        [-1.6657838821411133, -2.1679189205169678, -0.5752151608467102,
         0.8332667350769043],
        [-0.3331168293952942, -0.282772034406662, -0.19037911295890808,
         0.16668331623077393],
        [0.9995502829551697, 1.602374792098999, 0.19445690512657166,
         -0.49990004301071167]], rtol=1e-5, atol=1e-6)


def test_psnr_and_erf_family_match_keras():
    assert float(ops.psnr(X, X * 0.9, 2.0)) == pytest.approx(
        24.711307525634766, rel=1e-6)
    # Keras 3.15 keeps the images' float dtype (it gave float64 here).
    x32 = np.asarray(X, "float32")
    assert ops.psnr(x32, x32 * 0.9, 2.0).dtype == "float32"
    assert ops.psnr(x32.astype("float16"), x32.astype("float16"),
                    1.0).dtype == "float16"
    np.testing.assert_allclose(
        ops.erf(np.float32([-2.0, -0.3, 0.7, 3.0])),
        [-0.9953222274780273, -0.328626811504364, 0.6778011322021484,
         0.9999779462814331], rtol=1e-6)
    np.testing.assert_allclose(
        ops.erfinv(np.float32([-0.9, -0.3, 0.7, 0.99])),
        [-1.163087010383606, -0.27246275544166565, 0.7328690886497498,
         1.821386694908142], rtol=1e-6)
    np.testing.assert_allclose(ops.erfc(np.float32([0.5, 5.0])),
                               [0.4795001221869535, 1.5374597944280349e-12],
                               rtol=1e-6)


def test_batch_normalization_gradients_in_every_argument():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3, 2))
    mean, scale, offset = (rng.standard_normal(3) for _ in range(3))
    var = rng.random(3) + 0.5
    check_grads(lambda *a: ops.batch_normalization(a[0], a[1], a[2], 1,
                                                   a[4], a[3]),
                [x, mean, var, scale, offset])


def test_layer_normalization_gradients():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4, 5))
    gamma, beta = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    check_grads(lambda *a: ops.layer_normalization(*a, axis=[1, 2]),
                [x, gamma, beta])
    check_grads(lambda v: ops.layer_normalization(v, axis=0), [x])
    check_grads(lambda v, g: ops.rms_normalization(v, g), [x, gamma[0]])


def test_normalization_ops_reject_bad_axes_and_shapes():
    with pytest.raises(ValueError, match="axis"):
        ops.layer_normalization(X, axis=2)
    with pytest.raises(ValueError, match="Input shapes must be the same"):
        ops.psnr(X, X[:2], 1.0)


def test_ops_work_symbolically():
    inp = kerasish.Input((4,))
    out = ops.layer_normalization(ops.gelu(inp))
    assert out.shape == (None, 4)
    model = kerasish.Model(inp, out)
    ref = ops.layer_normalization(ops.gelu(X))
    np.testing.assert_allclose(model.predict(X, verbose=0), ref, rtol=1e-6)


@pytest.mark.parametrize("name,kwargs", [
    ("celu", {"alpha": 0.7}), ("soft_shrink", {"threshold": 0.3}),
    ("hard_shrink", {"threshold": 0.3}), ("squareplus", {"b": 2}),
    ("gelu", {"approximate": False}), ("gelu", {"approximate": True})])
def test_activation_ops_with_arguments_have_gradients(name, kwargs):
    x = np.array([-2.1, -0.7, -0.1, 0.2, 0.9, 2.5])
    check_grads(lambda v: getattr(ops, name)(v, **kwargs), [x])


def test_gelu_op_defaults_to_the_tanh_approximation():
    x = np.float32([1.0])
    assert float(ops.gelu(x)[0]) == pytest.approx(0.8411920070648193,
                                                  rel=1e-6)
    assert float(ops.nn.gelu(x, approximate=False)[0]) == pytest.approx(
        0.8413447141647339, rel=1e-6)


def test_batch_normalization_broadcasts_one_value_as_keras():
    x = np.array([[300.0, 400.0]], "float32")
    out = ops.nn.batch_normalization(x, np.array([350.0]),
                                     np.array([2500.0]), axis=1,
                                     epsilon=0.0)
    np.testing.assert_allclose(ops.convert_to_numpy(out), [[-1.0, 1.0]],
                               rtol=1e-6)


@pytest.mark.parametrize("fn,x,expected,dtype", [
    # From Keras 3.15 (JAX backend).
    (lambda x: ops.hard_tanh(x), np.array([-3, 0, 2], "int32"), [-1, 0, 1],
     "int32"),
    (lambda x: ops.threshold(x, 1, 0), [1, 5, 3], [0, 5, 3], "int32"),
    (lambda x: ops.threshold(x, 1, -7.0), [1, 5, 3], [-7.0, 5.0, 3.0],
     "float32"),
    (lambda x: ops.threshold(x, 1, -7.0), np.array([-3, 0, 2], "float16"),
     [-7.0, -7.0, 2.0], "float16"),
    (lambda x: ops.hard_tanh(x), [1.0, 2.5], [1.0, 1.0], "float32"),
])
def test_hard_tanh_and_threshold_keep_keras_dtypes(fn, x, expected, dtype):
    out = fn(x)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), np.asarray(expected, dtype))


KINKS = np.array([-6, -3, -1, 0, 1, 3, 6, 7], "float32")


@pytest.mark.parametrize("name,points,expected", [
    # jax.grad of Keras 3.15 (JAX backend) ops at their kinks.
    ("relu6", KINKS, [0, 0, 0, 0, 1, 1, 0, 0]),
    ("hard_sigmoid", KINKS, [0, 0, 1 / 6, 1 / 6, 1 / 6, 0, 0, 0]),
    ("hard_silu", KINKS, [0, 0, 1 / 6, 0.5, 5 / 6, 1, 1, 1]),
    ("elu", KINKS, [0.00248, 0.04979, 0.36788, 1, 1, 1, 1, 1]),
    ("selu", KINKS, [0.00436, 0.08753, 0.64677, 1.7581, 1.0507, 1.0507,
                     1.0507, 1.0507]),
    ("celu", KINKS, [0.00248, 0.04979, 0.36788, 1, 1, 1, 1, 1]),
    ("sparse_sigmoid", KINKS / 3, [0, 0.25, 0.5, 0.5, 0.5, 0.25, 0, 0]),
])
def test_activation_gradients_at_kinks_match_keras(name, points, expected):
    x = kerasish.ops.convert_to_tensor(points)
    with GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(getattr(ops, name)(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected,
                               atol=1e-4)


def test_bfloat16_stays_bfloat16_in_attention_and_erf_family():
    # Keras 3.15 (JAX) returns bfloat16 for bfloat16 inputs.
    pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(0)
    q = ops.cast(rng.normal(size=(1, 3, 2, 4)), "bfloat16")
    kv = ops.cast(rng.normal(size=(1, 5, 2, 4)), "bfloat16")
    out = ops.dot_product_attention(q, kv, kv)
    assert out.dtype == "bfloat16"
    ref = ops.dot_product_attention(*(ops.cast(t, "float32")
                                      for t in (q, kv, kv)))
    np.testing.assert_allclose(ops.cast(out, "float32").numpy(), ref.numpy(),
                               atol=0.02)
    x = ops.cast(np.array([0.1, 0.5]), "bfloat16")
    for fn in (ops.erf, ops.erfc, ops.erfinv):
        assert fn(x).dtype == "bfloat16"


def test_multi_hot_reduces_axis_1_of_the_one_hot_as_keras():
    # Keras 3.15 (JAX and TensorFlow alike).
    lab2 = np.array([[0, 2, -1], [3, 1, 5]])
    out = ops.multi_hot(lab2, 6, axis=0)
    assert out.shape == (6, 3)
    np.testing.assert_array_equal(out.numpy()[:, 0], [1, 0, 0, 1, 0, 0])
    assert ops.multi_hot(lab2, 6, axis=1).shape == (2, 3)
    lab3 = np.array([[[0, 2], [1, 1], [3, 0]], [[2, 2], [0, 1], [1, 3]]])
    out = ops.multi_hot(lab3, 4)
    np.testing.assert_array_equal(out.numpy()[0], [[1, 1, 0, 1],
                                                   [1, 1, 1, 0]])
