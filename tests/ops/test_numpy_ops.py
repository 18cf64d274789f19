"""keras.ops.numpy: float64 gradient checks, numpy parity of the remaining
cases, symbolic shapes and bad-input errors. Value/dtype parity with
Keras itself is in test_ops_parity.py."""
import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, Variable, ops
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _fresh_rng():
    """Each test draws the same numbers whichever tests ran before it."""
    global rng
    rng = np.random.default_rng(0)


def rand(*shape, low=None):
    x = rng.standard_normal(shape)
    if low is not None:
        x = np.where(np.abs(x) < low, np.sign(x + 1e-12) * low, x)
    return x


def unit(*shape):
    return rng.uniform(-0.8, 0.8, shape)


def pos(*shape):
    return rng.uniform(0.5, 2.0, shape)


DIFFERENTIABLE = [
    ("arcsin", ops.arcsin, [unit(3, 2)]),
    ("arccos", ops.arccos, [unit(3, 2)]),
    ("arctan", ops.arctan, [rand(3, 2)]),
    ("arcsinh", ops.arcsinh, [rand(3, 2)]),
    ("arccosh", ops.arccosh, [1.5 + pos(3, 2)]),
    ("arctanh", ops.arctanh, [unit(3, 2)]),
    ("arctan2", ops.arctan2, [rand(3, 2), rand(2, low=0.3)]),
    ("cbrt", ops.cbrt, [rand(4, low=0.3)]),
    ("deg2rad", ops.deg2rad, [rand(3)]),
    ("rad2deg", ops.rad2deg, [rand(3)]),
    ("fabs", ops.fabs, [rand(4, low=0.2)]),
    ("fmax", ops.fmax, [rand(3, 2), rand(3, 2)]),
    ("fmin", ops.fmin, [rand(3, 2), rand(3, 2)]),
    ("fmod", ops.fmod, [rand(4) * 3, pos(4)]),
    ("hypot", ops.hypot, [rand(3, low=0.2), rand(2, 1)]),
    ("ldexp", lambda x: ops.ldexp(x, np.array([1, -2, 3])), [rand(3)]),
    ("logaddexp", ops.logaddexp, [rand(3), rand(2, 1)]),
    ("logaddexp2", ops.logaddexp2, [rand(3), rand(3)]),
    ("sinc", ops.sinc, [np.array([0.0, 0.3, -1.7, 2.2])]),
    ("i0", ops.i0, [rand(4) * 3]),
    ("log2", ops.log2, [pos(3)]),
    ("log10", ops.log10, [pos(3)]),
    ("exp2", ops.exp2, [rand(3)]),
    ("tan", ops.tan, [unit(3)]),
    ("sinh", ops.sinh, [rand(3)]),
    ("cosh", ops.cosh, [rand(3)]),
    ("reciprocal", ops.reciprocal, [pos(3)]),
    ("cumprod", lambda x: ops.cumprod(x, axis=1), [rand(2, 4)]),
    ("cumprod_zero", lambda x: ops.cumprod(x),
     [np.array([1.5, 0.0, 2.0, 0.0, 3.0])]),
    ("cumsum", lambda x: ops.cumsum(x, axis=0), [rand(3, 2)]),
    ("median", lambda x: ops.median(x, axis=1), [rand(3, 4)]),
    ("quantile", lambda x: ops.quantile(x, [0.2, 0.7], axis=0), [rand(5, 2)]),
    ("percentile", lambda x: ops.percentile(x, 30, keepdims=True),
     [rand(2, 3)]),
    ("nanquantile", lambda x: ops.nanquantile(x, 0.4, axis=1),
     [np.array([[1.0, np.nan, 3.0, 0.5], [2.0, -1.0, 0.3, 4.0]])]),
    ("ptp", lambda x: ops.ptp(x, axis=0), [rand(3, 2)]),
    ("nansum", ops.nansum, [np.array([1.0, np.nan, 2.0])]),
    ("nanmean", lambda x: ops.nanmean(x, axis=1),
     [np.array([[1.0, np.nan, 2.0], [0.5, 0.2, -1.0]])]),
    ("nanvar", lambda x: ops.nanvar(x, axis=1),
     [np.array([[1.0, np.nan, 2.0], [0.5, 0.2, -1.0]])]),
    ("nanstd", ops.nanstd, [np.array([1.0, np.nan, 2.0, 4.0])]),
    ("nanprod", ops.nanprod, [np.array([1.5, np.nan, 2.0])]),
    ("nanmax", lambda x: ops.nanmax(x, axis=0),
     [np.array([[1.0, np.nan], [0.5, 2.0]])]),
    ("nanmin", ops.nanmin, [np.array([1.0, np.nan, 0.5])]),
    ("nancumsum", ops.nancumsum, [np.array([1.0, np.nan, 2.0])]),
    ("nancumprod", ops.nancumprod, [np.array([1.5, np.nan, 2.0])]),
    ("diff", lambda x: ops.diff(x, n=2, axis=0), [rand(4, 2)]),
    ("trapezoid", lambda y, x: ops.trapezoid(y, x=x), [rand(2, 4),
                                                      np.cumsum(pos(4))]),
    ("corrcoef", ops.corrcoef, [rand(3, 5)]),
    ("correlate", lambda a, v: ops.correlate(a, v, mode="same"),
     [rand(5), rand(3)]),
    ("average", lambda x, w: ops.average(x, axis=1, weights=w),
     [rand(2, 3), pos(3)]),
    ("append", lambda a, b: ops.append(a, b, axis=0),
     [rand(2, 2), rand(1, 2)]),
    ("array_split", lambda x: ops.array_split(x, 3), [rand(5, 2)]),
    ("hsplit", lambda x: ops.hsplit(x, [1]), [rand(2, 3)]),
    ("dstack", lambda a, b: ops.dstack([a, b]), [rand(2, 3), rand(2, 3)]),
    ("vstack", lambda a, b: ops.vstack([a, b]), [rand(3), rand(3)]),
    ("fliplr", ops.fliplr, [rand(2, 3)]),
    ("flipud", ops.flipud, [rand(2, 3)]),
    ("rot90", lambda x: ops.rot90(x, k=3, axes=(1, 0)), [rand(2, 3)]),
    ("kron", ops.kron, [rand(2, 2), rand(3)]),
    ("cross", ops.cross, [rand(4, 3), rand(4, 3)]),
    ("cross_2d", ops.cross, [rand(4, 2), rand(2)]),
    ("vander", lambda x: ops.vander(x, N=4), [np.array([0.0, 1.5, -0.7])]),
    ("meshgrid", lambda a, b: ops.meshgrid(a, b), [rand(3), rand(2)]),
    ("select", lambda a, b: ops.select([np.array([True, False, False]),
                                        np.array([False, True, False])],
                                       [a, b], default=0.5),
     [rand(3), rand(3)]),
    ("diagflat", lambda x: ops.diagflat(x, k=1), [rand(2, 2)]),
    ("sort", lambda x: ops.sort(x, axis=0), [rand(4, 3)]),
    ("take_along_axis", lambda x: ops.take_along_axis(
        x, np.array([[2], [0]]), axis=1), [rand(2, 3)]),
    ("get_item", lambda x: ops.get_item(x, (slice(None), [0, 2])),
     [rand(2, 3)]),
    ("real", ops.real, [rand(3)]),
    ("angle", ops.angle, [rand(3, low=0.2)]),
    ("vectorize", lambda a, b: ops.vectorize(
        lambda u, v: ops.sin(u) * v)(a, b), [rand(2, 1), rand(3)]),
    ("vectorize_signature", lambda a: ops.vectorize(
        lambda u: ops.sum(u * u), signature="(n)->()")(a), [rand(2, 3)]),
    ("max_initial", lambda x: ops.max(x, axis=0, initial=0.1), [rand(3, 2)]),
    ("nan_to_num", ops.nan_to_num, [np.array([1.0, np.nan, 2.0])]),
]


@pytest.mark.parametrize("name,fn,inputs", DIFFERENTIABLE,
                         ids=[c[0] for c in DIFFERENTIABLE])
def test_gradients(name, fn, inputs):
    check_grads(fn, inputs)


def _grad(fn, x):
    v = Variable(np.asarray(x, dtype="float64"), dtype="float64")
    with GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v).numpy()


def test_cumprod_gradient_with_several_zeros_matches_formula():
    x = np.array([2.0, 0.0, 3.0, 0.0, 5.0])
    g = _grad(lambda v: ops.sum(ops.cumprod(v)), x)
    # d/dx_0: 1; d/dx_1 (first zero): 2 + 2*3; later entries: 0.
    np.testing.assert_allclose(g, [1.0, 8.0, 0.0, 0.0, 0.0])


def test_complex_gradients_follow_jax_convention():
    from kerasish.backend import elementwise as E
    z = Variable(np.array([1 + 2j]), dtype="complex128")
    with GradientTape() as tape:
        y = ops.angle(z)
    # jax.vjp(jnp.angle, 1+2j)[1](1.0) == (-0.4-0.2j)
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), [-0.4 - 0.2j])
    re = Variable(np.array([1.0]), dtype="float64")
    with GradientTape() as tape:
        y = ops.imag(E.complex_from_parts(re * 2.0, re * 3.0))
    np.testing.assert_allclose(tape.gradient(y, re).numpy(), [3.0])


def test_sinc_gradient_at_zero_is_zero():
    np.testing.assert_allclose(_grad(ops.sinc, [0.0]), [0.0])


def test_i0_values_match_numpy_and_derivative_is_i1():
    x = np.linspace(-30, 30, 7)
    np.testing.assert_allclose(ops.i0(x).numpy(), np.i0(x), rtol=1e-12)
    from kerasish.backend.elementwise import bessel_i1
    # I1 from its power series: t_k = (x/2)^(2k+1) / (k! (k+1)!).
    term, series = x / 2, x / 2
    for k in range(1, 120):
        term = term * (x / 2) ** 2 / (k * (k + 1))
        series = series + term
    np.testing.assert_allclose(bessel_i1(x), series, rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("n,m", [(5, 3), (3, 5), (4, 4), (6, 3), (2, 7)])
@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_correlate_matches_numpy(n, m, mode):
    a, v = rand(n), rand(m)
    np.testing.assert_allclose(ops.correlate(a, v, mode=mode).numpy(),
                               np.correlate(a, v, mode), rtol=1e-12)


@pytest.mark.parametrize("fn,ref", [
    (lambda x: ops.quantile(x, [0.0, 0.33, 1.0], axis=(0, 2)),
     lambda x: np.quantile(x, [0.0, 0.33, 1.0], axis=(0, 2))),
    (lambda x: ops.median(x, axis=1, keepdims=True),
     lambda x: np.median(x, axis=1, keepdims=True)),
    (lambda x: ops.percentile(x, 90, axis=-1, method="higher"),
     lambda x: np.percentile(x, 90, axis=-1, method="higher")),
    (lambda x: ops.nanmedian(np.where(x > 1, np.nan, x), axis=0),
     lambda x: np.nanmedian(np.where(x > 1, np.nan, x), axis=0)),
    (lambda x: ops.kron(x[0], x[1, :2]), lambda x: np.kron(x[0], x[1, :2])),
    (lambda x: ops.cross(x[..., :3], x[..., 1:], axisc=0),
     lambda x: np.cross(x[..., :3], x[..., 1:], axisc=0)),
    (lambda x: ops.rot90(x, 3, axes=(2, 0)), lambda x: np.rot90(x, 3, (2, 0))),
    (lambda x: ops.meshgrid(x[0, 0], x[1, 1], x[0, 1], indexing="xy"),
     lambda x: np.meshgrid(x[0, 0], x[1, 1], x[0, 1], indexing="xy")),
    (lambda x: ops.trapezoid(x, dx=0.3, axis=1),
     lambda x: np.trapezoid(x, dx=0.3, axis=1)),
    (lambda x: ops.diff(x, n=2, axis=2), lambda x: np.diff(x, n=2, axis=2)),
], ids=["quantile", "median", "percentile", "nanmedian", "kron", "cross",
        "rot90", "meshgrid", "trapezoid", "diff"])
def test_matches_numpy(fn, ref):
    x = rand(2, 3, 4)
    out = fn(x)
    expected = ref(x)
    if isinstance(expected, (list, tuple)):
        for o, e in zip(out, expected):
            np.testing.assert_allclose(np.asarray(o), e, rtol=1e-12)
    else:
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12)


def test_argpartition_partitions():
    x = rng.integers(0, 5, (3, 7))
    idx = ops.argpartition(x, 3, axis=1).numpy()
    part = np.take_along_axis(x, idx, axis=1)
    kth = np.sort(x, axis=1)[:, 3:4]
    assert np.all(part[:, :3] <= kth) and np.all(part[:, 4:] >= kth)
    assert all(sorted(row) == list(range(7)) for row in idx)


def test_unique_axis_and_inverse_shape():
    x = np.array([[1, 2], [1, 2], [0, 5]])
    values, inverse = ops.unique(x, axis=0, return_inverse=True)
    np.testing.assert_array_equal(values.numpy(), [[0, 5], [1, 2]])
    np.testing.assert_array_equal(inverse.numpy(), [1, 1, 0])
    _, inverse = ops.unique(x, return_inverse=True)
    assert inverse.shape == x.shape


def test_vectorize_excluded_and_multiple_outputs():
    f = ops.vectorize(lambda a, scale: (a * scale, a + scale),
                      excluded={1})
    out = f(np.array([1.0, 2.0]), 3.0)
    np.testing.assert_allclose(out[0].numpy(), [3.0, 6.0])
    np.testing.assert_allclose(out[1].numpy(), [4.0, 5.0])
    mm = ops.vectorize(lambda a, b: ops.matmul(a, b),
                       signature="(m,n),(n,k)->(m,k)")
    a, b = rand(4, 2, 3), rand(3, 5)
    np.testing.assert_allclose(mm(a, b).numpy(), a @ b, rtol=1e-12)


def test_symbolic_shapes():
    x = kerasish.Input((4, 3))
    assert ops.median(x, axis=1).shape == (None, 3)
    assert ops.quantile(x, [0.1, 0.9], axis=-1).shape == (2, None, 4)
    assert ops.cumprod(x, axis=1).shape == (None, 4, 3)
    assert ops.diff(x, axis=1).shape == (None, 3, 3)
    assert ops.rot90(x, axes=(1, 2)).shape == (None, 3, 4)
    assert ops.kron(x, np.ones((1, 2, 2))).shape == (None, 8, 6)
    assert ops.nanmean(x, axis=-1).shape == (None, 4)
    assert [p.shape for p in ops.array_split(x, 2, axis=1)] == [
        (None, 2, 3), (None, 2, 3)]
    assert ops.arcsin(x).shape == (None, 4, 3)
    assert ops.cross(x, x).shape == (None, 4, 3)
    assert ops.trapezoid(x, axis=1).shape == (None, 3)


def test_functional_model_with_numpy_ops():
    inputs = kerasish.Input((5,))
    out = ops.cumprod(ops.sinc(inputs), axis=-1)
    model = kerasish.Model(inputs, ops.median(out, axis=-1))
    x = rng.standard_normal((2, 5)).astype("float32")
    expected = np.median(np.cumprod(np.sinc(x), axis=-1), axis=-1)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected,
                               rtol=1e-5)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.quantile([1.0, 2.0], 1.5), ValueError, "range"),
    (lambda: ops.quantile([1.0, 2.0], 0.5, method="cubic"), ValueError,
     "method"),
    (lambda: ops.array_split(np.ones(4), 0), ValueError, "positive"),
    (lambda: ops.array_split(np.ones(4), [1]), TypeError, "int"),
    (lambda: ops.split(np.ones(5), 2), ValueError, "equal sections"),
    (lambda: ops.vsplit(np.ones(4), 2), ValueError, "rank >= 2"),
    (lambda: ops.rot90(np.ones(3)), ValueError, "at least 2"),
    (lambda: ops.rot90(np.ones((2, 2)), axes=(0, 0)), ValueError, "axes"),
    (lambda: ops.cross(np.ones(4), np.ones(3)), ValueError, "2 or 3"),
    (lambda: ops.vander(np.ones((2, 2))), ValueError, "1-dimensional"),
    (lambda: ops.vander(np.ones(2), N=-1), ValueError, "nonnegative"),
    (lambda: ops.histogram(np.ones(3), bins=2.5), TypeError, "bins"),
    (lambda: ops.histogram(np.ones(3), range=(2, 1)), ValueError, "greater"),
    (lambda: ops.histogram(np.ones((2, 2))), ValueError, "1-dimensional"),
    (lambda: ops.searchsorted(np.ones((2, 2)), 1.0), ValueError, "1-D"),
    (lambda: ops.select(np.ones(2), [np.ones(2)]), ValueError, "lists"),
    (lambda: ops.ldexp(np.ones(2), np.ones(2)), TypeError, "integer"),
    (lambda: ops.gcd(np.ones(2), 2), TypeError, "integer"),
    (lambda: ops.correlate(np.ones((2, 2)), np.ones(2)), ValueError, "1-D"),
    (lambda: ops.diff(np.ones(3), n=-1), ValueError, "non-negative"),
    (lambda: ops.vectorize(3), ValueError, "callable"),
    (lambda: ops.vectorize(lambda a: a, signature="(n->)"), ValueError,
     "signature"),
    (lambda: ops.argpartition(np.ones(3), 5), ValueError, "out of bounds"),
    (lambda: ops.max(np.ones((0,))), ValueError, "initial"),
    (lambda: ops.where([True], [1.0]), ValueError, "together"),
    (lambda: ops.bincount(np.array([-1, 2])), ValueError, "non-negative"),
    (lambda: ops.kaiser(kerasish.Input(()), 1.0), TypeError, "symbolic"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_int8_products_accumulate_in_int32_as_keras():
    a = ops.convert_to_tensor([[100, 100]], "int8")
    b = ops.convert_to_tensor([[2], [1]], "int8")
    for result in (ops.matmul(a, b), ops.einsum("ij,jk->ik", a, b)):
        assert str(result.dtype) == "int32"
        assert ops.convert_to_numpy(result).tolist() == [[300]]
    # Keras's dot keeps int8 (and wraps around, as JAX does).
    assert str(ops.dot(a, b).dtype) == "int8"


def test_segment_ops_fill_and_dtype_as_keras():
    ids = ops.convert_to_tensor([0, 2])
    floats = ops.segment_max(ops.convert_to_tensor([1.0, 2.0]), ids,
                             num_segments=3)
    assert ops.convert_to_numpy(floats).tolist() == [1.0, -np.inf, 2.0]
    ints = ops.segment_max(ops.convert_to_tensor([1, 2]), ids,
                           num_segments=3)
    assert ops.convert_to_numpy(ints).tolist() == [1, -2**31, 2]
    sums = ops.segment_sum(ops.convert_to_tensor([1, 2], "int8"), ids,
                           num_segments=3)
    assert str(sums.dtype) == "int8"
    assert ops.convert_to_numpy(sums).tolist() == [1, 0, 2]


def test_float16_statistics_are_computed_in_float32_as_keras():
    x = ops.convert_to_tensor([0.0, 300.0, 600.0], "float16")
    variance = ops.var(x)
    assert str(variance.dtype) == "float16" and float(variance) == 60000.0
    normalized = ops.rms_normalization(
        ops.convert_to_tensor([[300.0, 400.0]], "float16"), epsilon=0.0)
    np.testing.assert_allclose(ops.convert_to_numpy(normalized),
                               [[0.8485, 1.1314]], atol=1e-3)
    _, var16 = ops.moments(
        ops.convert_to_tensor([1000.0, 2000.0, 4000.0], "float16"), axes=[0])
    # 1_555_555.6 does not fit float16: clipped to its largest value.
    assert float(var16) == float(np.finfo(np.float16).max)


def test_argmax_argmin_rank_negative_zero_below_zero_as_keras():
    assert int(ops.argmax(np.array([-0.0, 0.0], "float32"))) == 1
    assert int(ops.argmin(np.array([0.0, -0.0], "float32"))) == 1
    assert ops.convert_to_numpy(ops.argmax(
        np.array([[-0.0, 0.0], [1.0, 0.0]], "float32"), axis=1)).tolist() \
        == [1, 0]


def test_top_k_ranks_nan_first_as_keras():
    values, indices = ops.top_k(np.array([1.0, np.nan, 3.0], "float32"), 2)
    assert np.isnan(ops.convert_to_numpy(values)[0])
    assert ops.convert_to_numpy(indices).tolist() == [1, 2]


def test_bool_tensor_with_a_python_int_is_int32_as_keras():
    flags = ops.convert_to_tensor([True, False])
    for result in (ops.subtract(flags, 1), ops.add(flags, 2),
                   ops.multiply(3, flags), flags - 1):
        assert str(result.dtype) == "int32"
    assert ops.convert_to_numpy(flags - 1).tolist() == [0, -1]
    assert str(ops.add(flags, 1.5).dtype) == "float32"


def test_mixed_dtypes_promote_as_keras():
    # Results of the same calls under Keras 3.15 (TensorFlow backend).
    ops = kerasish.ops

    def t(values, dtype):
        return ops.cast(ops.convert_to_tensor(np.array(values)), dtype)

    cases = [
        (ops.add(t([1, 2], "float16"), t([1, 2], "bfloat16")), "float32"),
        (ops.concatenate([t([1], "float16"), t([1], "bfloat16")]),
         "float32"),
        (ops.where(t([True, False], "bool"), t([1, 2], "float16"),
                   t([1, 2], "bfloat16")), "float32"),
        (ops.add(t([1, 2], "int64"), t([1, 2], "uint64")), "float32"),
        (ops.add(t([1, 2], "bfloat16"), t([1, 2], "int32")), "bfloat16"),
        (ops.multiply(t([1, 2], "bfloat16"), 2.0), "bfloat16"),
        (ops.add(t([1, 2], "int8"), 1), "int8"),
        (ops.add(t([1, 2], "int32"), 1.5), "float32"),
        (ops.add(t([True], "bool"), 1), "int32"),
    ]
    for result, dtype in cases:
        assert result.dtype == dtype


def test_bfloat16_unary_math_stays_bfloat16():
    x = kerasish.ops.cast(np.array([1.0, 2.0]), "bfloat16")
    y = kerasish.ops.exp(x)
    assert y.dtype == "bfloat16"
    np.testing.assert_array_equal(y.numpy().astype("float32"),
                                  [2.71875, 7.375])     # Keras 3.15 (JAX)
    assert kerasish.ops.sqrt(x).numpy().astype("float32")[1] == 1.4140625


@pytest.mark.parametrize("dtype, expected", [
    ("int8", "int8"), ("uint8", "uint8"), ("int16", "int16"),
    ("bool", "int32"), ("float16", "float16")])
def test_cumulative_ops_keep_small_int_dtypes_as_keras(dtype, expected):
    x = kerasish.ops.cast(np.array([1, 1, 0]), dtype)
    assert kerasish.ops.cumsum(x).dtype == expected
    assert kerasish.ops.cumprod(x).dtype == expected
    assert kerasish.ops.cumsum(x).numpy().tolist() == [1, 2, 2]


def test_bfloat16_keeps_its_dtype_through_activations_and_reductions():
    ops = kerasish.ops
    x = ops.cast(np.array([[0.3, -1.2, 2.5], [1.0, 0.5, -0.7]]), "bfloat16")
    for fn in (ops.sigmoid, ops.relu, ops.softmax, ops.gelu, ops.silu,
               ops.erf, ops.log_softmax, ops.elu, ops.hard_sigmoid,
               lambda t: ops.clip(t, 0, 1), ops.sum, ops.mean, ops.prod):
        assert fn(x).dtype == "bfloat16"
    # Keras 3.15 (JAX) sums bfloat16 in float32: 2.40625, not numpy's
    # bfloat16 partial sums (2.390625).
    assert float(ops.sum(x).numpy()) == 2.40625
    assert float(ops.mean(x).numpy()) == 0.400390625


def test_int_inputs_of_float_functions_become_floatx():
    x = np.array([1, 2, 3], "int8")
    assert kerasish.ops.logsumexp(x).dtype == "float32"    # not float16
    assert kerasish.ops.rsqrt(x).dtype == "float32"


def test_relu_keeps_integer_inputs_integer_as_keras():
    out = kerasish.ops.relu(np.array([-1, 2], "int32"))
    assert out.dtype == "int32" and out.numpy().tolist() == [0, 2]
    assert kerasish.ops.relu(np.array([-1.5], "float16")).dtype == "float16"


def test_text_tensors_compare_without_numeric_promotion():
    words = kerasish.ops.convert_to_tensor(["a", "bb"])
    other = np.array(["a", "ccc"])     # a different numpy string width
    assert kerasish.ops.equal(words, other).numpy().tolist() == [True, False]
    assert kerasish.ops.not_equal(other, words).numpy().tolist() == [False,
                                                                     True]
    # A Python string compares with a text tensor (Keras on TensorFlow).
    assert kerasish.ops.equal(words, "a").numpy().tolist() == [True, False]
    picked = kerasish.ops.where(np.array([True, False]), words, "z")
    assert picked.numpy().tolist() == ["a", "z"]
