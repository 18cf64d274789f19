"""keras.ops core: control flow, scatters, slices, custom gradients and
rearrange — gradients, structures, symbolic use and bad inputs. Value and
dtype parity with Keras is in test_ops_parity.py."""
import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, Variable, ops
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


@pytest.mark.parametrize("name,fn,inputs", [
    ("scan", lambda c, xs: ops.scan(lambda a, x: (a * 0.5 + ops.sin(x),
                                                   a * x), c, xs),
     [rng.standard_normal(3), rng.standard_normal((4, 3))]),
    ("scan_reverse", lambda xs: ops.scan(lambda a, x: (a + x * a, a),
                                         ops.ones(2, "float64"), xs,
                                         reverse=True)[1],
     [rng.standard_normal((3, 2))]),
    ("map", lambda xs: ops.map(lambda x: ops.tanh(x) * x[0], xs),
     [rng.standard_normal((3, 2))]),
    ("vectorized_map", lambda xs: ops.vectorized_map(
        lambda t: ops.sum(t[0] * t[1]), (xs, xs * 2.0)),
     [rng.standard_normal((4, 3))]),
    ("associative_scan", lambda xs: ops.associative_scan(
        lambda a, b: a * b, xs, axis=1), [rng.standard_normal((2, 7))]),
    ("associative_scan_affine", lambda a, b: ops.associative_scan(
        lambda x, y: (x[0] * y[0], x[1] * y[0] + y[1]), (a, b)),
     [rng.uniform(0.5, 1.0, 6), rng.standard_normal(6)]),
    ("while_loop", lambda x: ops.while_loop(
        lambda i, v: i < 3, lambda i, v: (i + 1, ops.sin(v) * 2.0),
        (0, x))[1], [rng.standard_normal(3)]),
    ("fori_loop", lambda x: ops.fori_loop(0, 3, lambda i, v: v * v + i, x),
     [rng.uniform(-0.5, 0.5, 3)]),
    ("switch", lambda x: ops.switch(1, [ops.exp, ops.sin], x),
     [rng.standard_normal(3)]),
    ("scatter", lambda v: ops.scatter(np.array([[0], [2], [0]]), v, (4, 2)),
     [rng.standard_normal((3, 2))]),
    ("scatter_update", lambda x, u: ops.scatter_update(
        x, np.array([[1, 0], [0, 2]]), u), [rng.standard_normal((2, 3)),
                                            rng.standard_normal(2)]),
    ("scatter_update_add", lambda x, u: ops.scatter_update(
        x, np.array([[1], [1]]), u, reduction="add"),
     [rng.standard_normal((2, 3)), rng.standard_normal((2, 3))]),
    ("slice", lambda x: ops.slice(x, (1, 1), (2, -1)),
     [rng.standard_normal((3, 4))]),
    ("slice_update", lambda x, u: ops.slice_update(x, (0, 2), u),
     [rng.standard_normal((3, 4)), rng.standard_normal((2, 2))]),
    ("unstack", lambda x: ops.unstack(x, axis=1),
     [rng.standard_normal((2, 3))]),
    ("rearrange", lambda x: ops.rearrange(x, "b (h h2) w -> (b w) h h2",
                                          h2=2),
     [rng.standard_normal((2, 4, 3))]),
    ("saturate_cast", lambda x: ops.saturate_cast(x, "float64"),
     [rng.standard_normal(3)]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_gradients(name, fn, inputs):
    check_grads(fn, inputs)


def test_scan_structures_and_none_outputs():
    def step(carry, x):
        return {"sum": carry["sum"] + x["a"]}, None
    carry, ys = ops.scan(step, {"sum": np.zeros(2)},
                         {"a": np.ones((3, 2)), "b": np.zeros((3, 1))})
    np.testing.assert_allclose(carry["sum"].numpy(), [3.0, 3.0])
    assert ys is None
    with pytest.raises(ValueError, match="xs` or `length"):
        ops.scan(step, {"sum": 0.0})
    with pytest.raises(ValueError, match="leading axis"):
        ops.scan(step, 0.0, (np.ones(2), np.ones(3)))
    with pytest.raises(ValueError, match="unroll"):
        ops.scan(step, 0.0, np.ones(2), unroll=0)


def test_scan_rejects_a_carry_that_changes_shape():
    # Keras 3.15 refuses it (TypeError on JAX, ValueError on TensorFlow).
    with pytest.raises(ValueError, match=r"shapes of `init`.*\(3,\).*\(2,\)"):
        ops.scan(lambda c, x: (c[:2], x), np.zeros(3), np.ones((4, 3)))
    with pytest.raises(ValueError, match="structure"):
        ops.scan(lambda c, x: ((c, c), x), np.zeros(3), np.ones((4, 3)),
                 reverse=True)


def test_associative_scan_matches_sequential_scan():
    for n in range(1, 12):
        x = rng.standard_normal((n, 2))
        out = ops.associative_scan(lambda a, b: a + b, x).numpy()
        np.testing.assert_allclose(out, np.cumsum(x, axis=0))
    x = rng.standard_normal((2, 9))
    out = ops.associative_scan(ops.maximum, x, reverse=True, axis=-1)
    np.testing.assert_allclose(
        out.numpy(), np.maximum.accumulate(x[:, ::-1], axis=1)[:, ::-1])


def test_while_loop_structures_and_maximum_iterations():
    out = ops.while_loop(lambda v: v[0] < 100,
                         lambda v: ([v[0] * 2, v[1] + 1],), ([1, 0],))
    assert [int(t) for t in out[0]] == [128, 7]
    i, = ops.while_loop(lambda i: True, lambda i: (i + 1,), [0],
                        maximum_iterations=5)
    assert i == 5


def test_custom_gradient_replaces_the_gradient():
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad
    v = Variable(np.array([100.0, 0.0]), dtype="float64")
    with GradientTape() as tape:
        y = ops.sum(log1pexp(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1.0, 0.5])


def test_custom_gradient_several_inputs_and_kwargs():
    @ops.custom_gradient
    def scaled(x, y, factor=2.0):
        return x * y * factor, lambda g: (g * 10.0, None)
    a = Variable(np.array([1.0, 2.0]), dtype="float64")
    b = Variable(np.array([3.0, 4.0]), dtype="float64")
    with GradientTape() as tape:
        out = ops.sum(scaled(a, b, factor=3.0))
    assert float(out) == 33.0
    ga, gb = tape.gradient(out, [a, b])
    np.testing.assert_allclose(ga.numpy(), [10.0, 10.0])
    assert gb is None

    @ops.custom_gradient
    def wrong(x, y):
        return x + y, lambda g: g
    with GradientTape() as tape:
        out = ops.sum(wrong(a, b))
    with pytest.raises(ValueError, match="1 gradient"):
        tape.gradient(out, a)


def test_stop_gradient_blocks_gradients():
    v = Variable(np.array([2.0]), dtype="float64")
    with GradientTape() as tape:
        y = ops.sum(v * ops.stop_gradient(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [2.0])


def test_scatter_update_with_reductions_and_duplicates():
    x = np.zeros((3, 2))
    out = ops.scatter_update(x, [[0], [0]], [[1.0, 2.0], [3.0, 4.0]],
                             reduction="add")
    np.testing.assert_allclose(out.numpy()[0], [4.0, 6.0])
    out = ops.scatter_update(np.ones(3), [[2], [2]], [5.0, 2.0],
                             reduction="min")
    np.testing.assert_allclose(out.numpy(), [1.0, 1.0, 1.0])
    out = ops.scatter_update(np.ones(3), [[2], [2]], [5.0, 2.0],
                             reduction="mul")
    np.testing.assert_allclose(out.numpy(), [1.0, 1.0, 10.0])


def test_rearrange_patterns():
    x = np.arange(2 * 6 * 4 * 3).reshape(2, 6, 4, 3)
    out = ops.rearrange(x, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2,
                        w1=2)
    expected = x.reshape(2, 3, 2, 2, 2, 3).transpose(0, 1, 3, 5, 2, 4)
    np.testing.assert_array_equal(out.numpy(), expected.reshape(2, 3, 2, 12))
    assert ops.rearrange(x, "b h w c -> b (h w) 1 c").shape == (2, 24, 1, 3)
    assert ops.rearrange(x, "b ... c -> c (b ...)").shape == (3, 48)
    assert ops.rearrange(x[:, :, :, :1], "b h w 1 -> b w h").shape == (2, 4,
                                                                       6)


@pytest.mark.parametrize("pattern,lengths,match", [
    ("b h w c", {}, "input -> output"),
    ("b h w -> b h w", {}, "3 input axes"),
    ("b h w c -> b h w", {}, "same axes"),
    ("b h w c -> b h w c d", {}, "same axes"),
    ("b h h c -> b h c", {}, "twice"),
    ("b (h h1 h2) w c -> b h w c", {}, "infer"),
    ("b (h h1) w c -> b h h1 w c", {"h1": 4}, "cannot be split"),
    ("b h w c -> b (h w) c ...", {}, "needs `...`"),
    ("b ((h) w) c -> b h w c", {}, "Nested"),
    ("b h w c -> b h w c + 1", {}, "Invalid token"),
])
def test_rearrange_errors(pattern, lengths, match):
    with pytest.raises(ValueError, match=match):
        ops.rearrange(np.zeros((2, 6, 4, 3)), pattern, **lengths)


def test_symbolic_shapes():
    x = kerasish.Input((4, 3))
    assert ops.rearrange(x, "b h w -> b (w h)").shape == (None, 12)
    assert ops.map(lambda t: t * 2, x).shape == (None, 4, 3)
    assert ops.associative_scan(lambda a, b: a + b, x, axis=1).shape == (
        None, 4, 3)
    carry, ys = ops.scan(lambda c, t: (c + t, t * 2), np.zeros((4, 3),
                                                              "float32"), x)
    assert carry.shape == (4, 3) and ys.shape == (None, 4, 3)
    assert ops.while_loop(lambda t: False, lambda t: t, x).shape == (None, 4,
                                                                    3)
    assert ops.slice(x, (0, 1, 0), (1, 2, 3)).shape == (1, 2, 3)
    assert [t.shape for t in ops.unstack(x, axis=2)] == [(None, 4)] * 3
    assert ops.saturate_cast(x, "int8").dtype == "int8"


def test_functional_model_with_rearrange_and_scan():
    inputs = kerasish.Input((2, 6))
    flat = ops.rearrange(inputs, "b t (f g) -> b (t g) f", g=2)
    model = kerasish.Model(inputs, ops.cumsum(flat, axis=1))
    x = rng.standard_normal((3, 2, 6)).astype("float32")
    expected = np.cumsum(x.reshape(3, 2, 3, 2).transpose(0, 1, 3, 2)
                         .reshape(3, 4, 3), axis=1)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected,
                               rtol=1e-6)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.convert_to_tensor([1.0], sparse=True), ValueError, "sparse"),
    # Keras 3.15 raises ValueError for None on JAX and TensorFlow.
    (lambda: ops.convert_to_tensor(None), ValueError, "Received: None"),
    (lambda: ops.add(None, 1.0), ValueError, "Received: None"),
    (lambda: ops.scatter_update(np.zeros(3), [[0]], [1.0], reduction="avg"),
     ValueError, "reduction"),
    (lambda: ops.scatter(np.zeros((2, 3), "int32"), np.ones(2), (4, 4)),
     ValueError, "address 3 axes"),
    (lambda: ops.unstack(np.zeros((2, 3)), num=3), ValueError, "num"),
    (lambda: ops.switch(0, [], 1.0), ValueError, "empty"),
    (lambda: ops.map(lambda v: v, (np.ones(2), np.ones(3))), ValueError,
     "leading axis"),
    (lambda: ops.associative_scan(lambda a, b: a, (np.ones(2), np.ones(3))),
     ValueError, "same size"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_bfloat16_floatx_works_in_a_fresh_process():
    # Before anything imported ml_dtypes, floatx "bfloat16" must still
    # make bfloat16 tensors (it raised "data type not understood").
    import subprocess
    import sys
    code = ("import kerasish as k; k.config.set_floatx('bfloat16'); "
            "print(k.ops.ones((2,)).dtype, k.ops.convert_to_tensor(1.5).dtype,"
            " k.random.normal((2,)).dtype)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["bfloat16"] * 3


def test_python_ints_beyond_int32_are_refused_not_wrapped():
    with pytest.raises(OverflowError, match="too large to convert"):
        ops.convert_to_tensor([2**40])
    assert ops.convert_to_numpy(
        ops.convert_to_tensor([2**40], dtype="int64")).tolist() == [2**40]


@pytest.mark.parametrize("src,dst,expected", [
    # From Keras 3.15 (JAX backend) on
    # [-1e10, -300, -128.6, 1.7, 255.5, 70000, inf] cast to `src` first.
    ("float32", "bfloat16", [-9999220736.0, -300.0, -129.0, 1.703125, 256.0,
                             70144.0, 3.3895313892515355e38]),
    ("bfloat16", "int16", [-32768, -300, -129, 1, 256, 32767, 32767]),
    ("bfloat16", "uint16", [0, 0, 0, 1, 256, 65535, 65535]),
    ("bfloat16", "int32", [-2147483648, -300, -129, 1, 256, 70144,
                           2147483647]),
    ("float16", "int16", [-32768, -300, -128, 1, 255, 32767, 32767]),
    ("bfloat16", "float16", [-65280.0, -300.0, -129.0, 1.703125, 256.0,
                             65280.0, 65280.0]),
])
def test_saturate_cast_with_16_bit_floats(src, dst, expected):
    pytest.importorskip("ml_dtypes")
    values = np.array([-1e10, -300, -128.6, 1.7, 255.5, 7e4, np.inf],
                      "float32")
    with np.errstate(over="ignore"):
        x = ops.cast(ops.clip(values, -6e4, np.inf) if src == "float16"
                     else values, src)
    out = ops.saturate_cast(x, dst)
    assert out.dtype == dst
    np.testing.assert_array_equal(ops.cast(out, "float64").numpy(),
                                  np.asarray(expected, "float64"))


def test_slice_counts_negative_starts_from_the_end():
    # Keras 3.15 (JAX backend): dynamic_slice wraps a negative start, then
    # moves the window inside the array.
    x = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(ops.slice(x, (-1, 0), (2, 1)).numpy(),
                                  [[6.0], [9.0]])
    np.testing.assert_array_equal(ops.slice(x, (-9, -1), (2, 1)).numpy(),
                                  [[2.0], [5.0]])
    out = ops.slice_update(x, (-1, -2), np.ones((1, 2)))
    np.testing.assert_array_equal(out.numpy()[3], [9.0, 1.0, 1.0])


def test_slice_update_keeps_the_dtype_of_inputs():
    # Keras 3.15 on TensorFlow casts the updates to the input dtype.
    x = np.arange(6, dtype="int32").reshape(2, 3)
    out = ops.slice_update(x, (0, 0), np.full((1, 2), 2.7, "float32"))
    assert out.dtype == "int32"
    np.testing.assert_array_equal(out.numpy(), [[2, 2, 2], [3, 4, 5]])
    y = ops.slice_update(np.zeros((2, 2), "float32"), (1, 0),
                         np.ones((1, 2), "int32"))
    assert y.dtype == "float32"


@pytest.mark.parametrize("call,error,match", [
    # Keras 3.15 raises for each (ValueError, IndexError for unstack).
    (lambda: ops.slice(np.ones((3, 3)), (1,), (2, 2)), ValueError,
     "one entry per axis"),
    (lambda: ops.slice_update(np.ones((3, 3)), (1,), np.ones((2, 2))),
     ValueError, "one entry per axis"),
    (lambda: ops.unstack(np.ones((3, 3)), axis=2), IndexError,
     "out of bounds"),
    (lambda: ops.associative_scan(lambda a, b: a + b, np.ones((3, 2)),
                                  axis=2), ValueError, "out of bounds"),
])
def test_bad_axes_and_starts_raise(call, error, match):
    with pytest.raises(error, match=match):
        call()
