"""Every primitive: forward parity with numpy and a float64 VJP check."""
import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.backend import linalg as L
from kerasish.backend import math as M
from kerasish.backend import nn as N
from kerasish.backend import reduction as R
from kerasish.backend import shape as S
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


def rand(*shape, low=None):
    x = rng.standard_normal(shape)
    if low is not None:
        # Keep away from kinks and singularities (|x| > low).
        x = np.where(np.abs(x) < low, np.sign(x + 1e-12) * low, x)
    return x


def pos(*shape):
    return rng.uniform(0.5, 2.0, shape)


BINARY = [M.add, M.subtract, M.multiply, M.divide]
SHAPE_PAIRS = [((), ()), ((3,), (3,)), ((3, 1), (1, 4)), ((2, 3), (3,)),
               ((2, 3, 4), (4,)), ((1,), (2, 3))]


@pytest.mark.parametrize("prim", BINARY, ids=lambda p: p.name)
@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
def test_binary_broadcasting_grads(prim, shapes):
    a = rand(*shapes[0], low=0.3)
    b = pos(*shapes[1]) if prim is M.divide else rand(*shapes[1])
    check_grads(prim, [a, b])
    np.testing.assert_allclose(prim(a, b).numpy(), prim.fwd(a, b))


@pytest.mark.parametrize("prim,domain", [
    (M.negative, rand), (M.square, rand), (M.exp, rand), (M.expm1, rand),
    (M.log, pos), (M.log1p, pos), (M.sqrt, pos), (M.rsqrt, pos),
    (M.tanh, rand), (M.sin, rand), (M.cos, rand),
    (M.absolute, lambda *s: rand(*s, low=0.1)),
    (N.relu, lambda *s: rand(*s, low=0.1)), (N.sigmoid, rand),
    (N.softplus, rand)], ids=lambda p: getattr(p, "name", ""))
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)], ids=str)
def test_unary_grads(prim, domain, shape):
    check_grads(prim, [domain(*shape)])


def test_relu_gradient_is_zero_at_zero():
    from kerasish import GradientTape, Variable
    x = Variable(np.array([0.0, 1.0, -1.0]), dtype="float64")
    with GradientTape() as tape:
        y = ops.sum(N.relu(x))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0, 1, 0])


def test_power_grads_both_arguments():
    check_grads(M.power, [pos(3, 2), rand(3, 2)])
    check_grads(M.power, [pos(3), 2.5 * np.ones(())])


@pytest.mark.parametrize("prim", [M.maximum, M.minimum], ids=lambda p: p.name)
def test_max_min_split_ties_equally(prim):
    a = rand(3, 4)
    b = a + np.where(rng.random((3, 4)) > 0.5, 1.0, -1.0) * 0.5
    check_grads(prim, [a, b])
    from kerasish import GradientTape, Variable
    x, y = Variable(np.ones(2), dtype="float64"), \
        Variable(np.ones(2), dtype="float64")
    with GradientTape() as tape:
        out = ops.sum(prim(x, y))
    gx, gy = tape.gradient(out, [x, y])
    np.testing.assert_allclose(gx.numpy(), [0.5, 0.5])
    np.testing.assert_allclose(gy.numpy(), [0.5, 0.5])


def test_where_and_clip():
    cond = rng.random((3, 4)) > 0.5
    check_grads(lambda x, y: M.where(cond, x, y), [rand(3, 4), rand(1, 4)])
    x = rand(4, 5)
    x = np.where(np.abs(np.abs(x) - 0.5) < 0.05, 0.3, x)
    check_grads(lambda v: M.clip(v, x_min=-0.5, x_max=0.5), [x])


@pytest.mark.parametrize("prim", [R.sum, R.mean, R.max, R.min, R.prod,
                                  R.logsumexp], ids=lambda p: p.name)
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False),
                                           (1, True), ((0, 2), False),
                                           (-1, False)])
def test_reduction_grads(prim, axis, keepdims):
    x = rand(2, 3, 4)
    check_grads(lambda v: prim(v, axis=axis, keepdims=keepdims), [x])
    np.testing.assert_allclose(
        prim(x, axis=axis, keepdims=keepdims).numpy(),
        prim.fwd(x, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("prim", [R.sum, R.mean], ids=lambda p: p.name)
@pytest.mark.parametrize("n", [5, 5000])
def test_vector_reduction_grads_fill_or_broadcast(prim, n):
    # A loss vector's gradient is filled (small) or a broadcast view
    # (large); both are the reduction's gradient.
    if n == 5:
        check_grads(lambda v: prim(v), [rand(n)])
    x = kerasish.Variable(rand(n).astype(np.float32))
    with kerasish.GradientTape() as tape:
        y = prim(x) * 3.0
    expected = 3.0 if prim is R.sum else np.float32(3.0) / np.float32(n)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(),
                                  np.full(n, expected, np.float32))


def test_prod_grad_with_zero_entry():
    x = rand(2, 3)
    x[0, 1] = 0.0
    check_grads(lambda v: R.prod(v, axis=1), [x])


def test_max_ties_share_gradient():
    from kerasish import GradientTape, Variable
    x = Variable(np.array([1.0, 3.0, 3.0]), dtype="float64")
    with GradientTape() as tape:
        y = R.max(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0, 0.5, 0.5])


def test_cumsum_grads():
    check_grads(lambda v: R.cumsum(v, axis=1), [rand(3, 4)])
    check_grads(lambda v: R.cumsum(v, axis=None), [rand(3, 4)])


@pytest.mark.parametrize("fn", [
    lambda x: S.reshape(x, shape=(6, 4)),
    lambda x: S.transpose(x, axes=(2, 0, 1)),
    lambda x: S.transpose(x),
    lambda x: S.broadcast_to(S.getitem(x, key=(slice(None), slice(0, 1))),
                              shape=(5, 2, 3, 4)),
    lambda x: S.getitem(x, key=(slice(None), 1)),
    lambda x: S.getitem(x, key=(Ellipsis, slice(1, 3))),
    lambda x: S.getitem(x, key=(np.array([0, 0, 1]),)),
    lambda x: S.getitem(x, key=x > 0.3),
    lambda x: S.flip(x, axis=1),
    lambda x: S.roll(x, shift=2, axis=2),
    lambda x: S.tile(x, repeats=(1, 2, 1)),
    lambda x: S.repeat(x, repeats=2, axis=1),
    lambda x: S.repeat(x, repeats=2),
    lambda x: S.pad(x, pad_width=((0, 1), (2, 0), (1, 1))),
    lambda x: S.pad(x, pad_width=((1, 1), (1, 1), (1, 1)), mode="reflect"),
    lambda x: S.moveaxis(x, source=0, destination=2),
    lambda x: S.cast(x, dtype="float64"),
    lambda x: S.identity(x),
], ids=["reshape", "transpose", "transpose_default", "broadcast", "getitem",
        "ellipsis", "fancy_dupes", "bool_mask", "flip", "roll", "tile",
        "repeat_axis", "repeat_flat", "pad", "pad_reflect", "moveaxis",
        "cast", "identity"])
def test_shape_op_grads(fn):
    check_grads(fn, [rand(2, 3, 4)])


def test_concatenate_and_stack_grads():
    check_grads(lambda a, b: S.concatenate(a, b, axis=1),
                [rand(2, 3), rand(2, 5)])
    check_grads(lambda a, b: S.stack(a, b, axis=1), [rand(2, 3), rand(2, 3)])


def test_take_grads_including_repeated_indices():
    idx = np.array([[0, 2], [2, 2]])
    check_grads(lambda x: S.take(x, idx, axis=0), [rand(4, 3)])
    check_grads(lambda x: S.take(x, idx, axis=1), [rand(3, 4)])
    check_grads(lambda x: S.take(x, idx), [rand(3, 4)])
    check_grads(lambda x: S.take_along_axis(x, np.array([[0, 0], [1, 2]]),
                                            axis=1), [rand(2, 3)])


def test_take_axis0_gradient_is_indexed_slices():
    from kerasish import GradientTape, Variable
    from kerasish.backend.indexed_slices import IndexedSlices
    table = Variable(np.zeros((5, 2)), dtype="float32")
    with GradientTape() as tape:
        y = ops.sum(S.take(table, np.array([1, 1, 3]), axis=0))
    g = tape.gradient(y, table)
    assert isinstance(g, IndexedSlices)
    np.testing.assert_array_equal(np.asarray(g), [[0, 0], [2, 2], [0, 0],
                                                  [1, 1], [0, 0]])


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)),
                                    ((2, 3, 4), (2, 4, 5)), ((4,), (4, 5)),
                                    ((3, 4), (4,)), ((4,), (4,)),
                                    ((2, 3, 4), (1, 4, 2))], ids=str)
def test_matmul_grads(shapes):
    a, b = rand(*shapes[0]), rand(*shapes[1])
    check_grads(L.matmul, [a, b])
    np.testing.assert_allclose(L.matmul(a, b).numpy(), a @ b, rtol=1e-12)


@pytest.mark.parametrize("relu", [False, True])
def test_affine_grads(relu):
    x = rand(4, 3, low=0.2)
    check_grads(lambda a, w, b: L.affine(a, w, b, relu=relu),
                [x, rand(3, 5), rand(5) + 0.3])
    check_grads(lambda a, w, b: L.affine(a, w, b, relu=relu),
                [rand(2, 4, 3), rand(3, 5), rand(5) + 0.3])


@pytest.mark.parametrize("prim", [N.softmax, N.log_softmax],
                         ids=lambda p: p.name)
@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_grads(prim, axis):
    check_grads(lambda x: prim(x, axis=axis), [rand(3, 5)])


def test_softmax_matches_reference_and_is_stable():
    x = np.array([[1000.0, 1000.0], [-1000.0, 0.0]], dtype=np.float32)
    out = N.softmax(x).numpy()
    np.testing.assert_allclose(out, [[0.5, 0.5], [0.0, 1.0]])
    assert np.isfinite(N.log_softmax(x).numpy()).all()


def test_fused_cross_entropies_grads():
    target = np.abs(rand(4, 3))
    target /= target.sum(-1, keepdims=True)
    check_grads(lambda t, z: N.softmax_cross_entropy(t, z),
                [target, rand(4, 3)])
    labels = np.array([0, 2, 1, 2])
    check_grads(lambda z: N.sparse_softmax_cross_entropy(labels, z),
                [rand(4, 3)])
    probs = pos(4, 3)
    check_grads(lambda p: N.sparse_probs_cross_entropy(labels, p),
                [probs])


def test_sparse_probs_cross_entropy_matches_keras_formula():
    probs = rng.uniform(0.01, 1, (6, 4)).astype(np.float32)
    labels = np.array([0, 1, 2, 3, 0, 1])
    p = probs / probs.sum(-1, keepdims=True)
    expected = -np.log(np.clip(p, 1e-7, 1 - 1e-7))[np.arange(6), labels]
    np.testing.assert_allclose(
        N.sparse_probs_cross_entropy(labels, probs).numpy(), expected,
        rtol=1e-6)


@pytest.mark.parametrize("shape,axis", [((2, 3, 4), -1), ((4, 3), 0),
                                        ((3, 4, 2), 1)], ids=str)
def test_sparse_probs_cross_entropy_other_axes(shape, axis):
    # Classes on another axis than the last of a matrix: the general path.
    probs = pos(*shape)
    reduced = shape[:axis % len(shape)] + shape[axis % len(shape) + 1:]
    labels = rng.integers(0, shape[axis], reduced)
    check_grads(lambda p: N.sparse_probs_cross_entropy(labels, p,
                                                        axis=axis),
                [probs])
    p = probs / probs.sum(axis, keepdims=True)
    picked = np.take_along_axis(p, np.expand_dims(labels, axis), axis)
    expected = -np.log(np.clip(np.squeeze(picked, axis), 1e-7, 1 - 1e-7))
    np.testing.assert_allclose(
        N.sparse_probs_cross_entropy(labels, probs, axis=axis).numpy(),
        expected, rtol=1e-12)


def test_softmax_of_integers_is_float():
    out = N.softmax(np.array([[0, 1], [2, 2]])).numpy()
    assert out.dtype.kind == "f"
    np.testing.assert_allclose(out, [[1 / (1 + np.e), np.e / (1 + np.e)],
                                     [0.5, 0.5]])


def test_sparse_probs_cross_entropy_clipped_rows_get_zero_gradient():
    # A probability of exactly 0 (or 1) for the label sits in the clip:
    # Keras's gradient there is 0, not 0 / 0.
    probs = kerasish.Variable(np.array([[0.0, 1.0], [0.25, 0.75]],
                                       np.float32))
    with kerasish.GradientTape() as tape:
        loss = kerasish.ops.sum(
            N.sparse_probs_cross_entropy(np.array([0, 1]), probs))
    grad = tape.gradient(loss, probs).numpy()
    np.testing.assert_array_equal(grad[0], [0.0, 0.0])
    np.testing.assert_allclose(grad[1], [1.0, 1.0 - 1.0 / 0.75], rtol=1e-6)
    assert np.isfinite(float(loss))
