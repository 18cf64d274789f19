"""`keras.ops.linalg`: norms, pseudo-inverse, rank, LU and `jvp`."""
import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from kerasish import tree
from kerasish.backend import linalg_decomp as LD
from kerasish.backend import linalg_ops as LO
from kerasish.backend.primitive import primitive
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.linalg import _assert_2d, _float, _float_dtype
from kerasish.ops.symbolic import keras_op
from kerasish.ops.spec_ops import spec_op
from kerasish.backend.tape import GradientTape

_MATRIX_ORDS = (None, "fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


# -- norm ---------------------------------------------------------------------
def _norm_axes(x, ord, axis):
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise ValueError("Invalid `ord` argument. Expected one of "
                         f"{{'fro', 'nuc'}} when using string. Received: "
                         f"ord={ord}")
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    axes = tuple(normalize_axis_index(a, x.ndim) for a in axes)
    if len(axes) == 1 and isinstance(ord, str):
        raise ValueError(
            f"Invalid `ord` argument for vector norm. Received: ord={ord}")
    if len(axes) == 2 and ord not in _MATRIX_ORDS:
        raise ValueError(
            f"Invalid `ord` argument for matrix norm. Received: ord={ord}")
    if len(axes) > 2 and not (ord is None and axis is None):
        raise ValueError("Improper number of axes for norm: expected 1 "
                         f"(vector) or 2 (matrix). Received: axis={axis}")
    return axes


def _vector_norm(x, ord, axes, keepdims):
    kw = dict(axis=axes, keepdims=keepdims)
    if ord is None or ord == 2:
        return knp.sqrt(knp.sum(knp.square(x), **kw))
    if ord == math.inf:
        return knp.max(knp.abs(x), **kw)
    if ord == -math.inf:
        return knp.min(knp.abs(x), **kw)
    if ord == 0:
        return knp.sum(cast(knp.not_equal(x, 0), x.dtype), **kw)
    if ord == 1:
        return knp.sum(knp.abs(x), **kw)
    summed = knp.sum(knp.power(knp.abs(x), float(ord)), **kw)
    return knp.power(summed, 1.0 / ord)


def _matrix_norm(x, ord, axes, keepdims):
    rows, cols = axes
    if ord in (None, "fro"):
        return knp.sqrt(knp.sum(knp.square(x), axis=axes, keepdims=keepdims))
    if ord in (1, -1, math.inf, -math.inf):
        summed_axis, pick_axis = (rows, cols) if ord in (1, -1) \
            else (cols, rows)
        sums = knp.sum(knp.abs(x), axis=summed_axis, keepdims=True)
        pick = knp.max if ord > 0 else knp.min
        out = pick(sums, axis=pick_axis, keepdims=True)
    else:
        s = LD.singular_values(knp.moveaxis(x, axes, (-2, -1)))
        pick = {2: knp.max, -2: knp.min, "nuc": knp.sum}[ord]
        out = knp.expand_dims(pick(s, axis=-1), [rows, cols])
    return out if keepdims else knp.squeeze(out, axis=axes)


@keras_op
def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (numpy's `linalg.norm` orders).

    Args:
        x: Input tensor.
        ord: Order of the norm. Vectors: `None`/2 (Euclidean), `inf`,
            `-inf`, 0 (count of nonzeros), 1, or any other number `p`
            (`sum(abs(x)**p)**(1/p)`). Matrices: `None`/`"fro"`, `"nuc"`,
            `inf`, `-inf`, 1, -1, 2, -2. Defaults to `None`.
        axis: `None` (all of `x`: a vector norm of the flattened input when
            `ord` is `None`), an int (vector norm) or a pair of ints
            (matrix norm). Defaults to `None`.
        keepdims: Keep the reduced axes with size 1. Defaults to `False`.

    Returns:
        The norm.

    Example:

    >>> float(norm([3.0, 4.0]))
    5.0
    >>> float(norm([[1.0, -2.0], [3.0, 4.0]], ord=1))
    6.0
    """
    x = _float(x)
    if axis is None and ord is None:
        out = knp.sqrt(knp.sum(knp.square(x)))
        return knp.reshape(out, (1,) * x.ndim) if keepdims else out
    if axis is None and x.ndim not in (1, 2):
        raise ValueError("Improper number of dimensions to norm: `ord` "
                         f"needs a 1-D or 2-D input. Received: x.shape="
                         f"{x.shape}, ord={ord}")
    axes = _norm_axes(x, ord, axis)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    return _matrix_norm(x, ord, axes, keepdims)


# -- pinv, rank, LU -----------------------------------------------------------
def _pinv_spec(x, rcond=None):
    _assert_2d(x)
    return KerasTensor(tuple(x.shape[:-2]) + (x.shape[-1], x.shape[-2]),
                       _float_dtype(x))


@spec_op(_pinv_spec)
def pinv(x, rcond=None):
    """Moore-Penrose pseudo-inverse, via the SVD, differentiable.

    Args:
        x: Tensor of shape `(..., M, N)`.
        rcond: Singular values at most `rcond * largest` count as zero.
            Defaults to `None`: `10 * max(M, N) * eps`, as JAX.

    Returns:
        Tensor of shape `(..., N, M)`.

    Example:

    >>> pinv([[1.0, 0.0], [0.0, 0.0]]).numpy()
    array([[1., 0.],
           [0., 0.]], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    return LO.pinv(x, rcond=None if rcond is None else float(rcond))


def _rank_spec(x, tol=None):
    _assert_2d(x)
    return KerasTensor(x.shape[:-2], "int32")


@spec_op(_rank_spec)
def matrix_rank(x, tol=None):
    """Number of singular values above a threshold.

    Args:
        x: Tensor of shape `(..., M, N)`.
        tol: Absolute threshold. Defaults to `None`: the largest singular
            value times `max(M, N) * eps`.

    Returns:
        An int32 tensor of shape `(...)`.

    Example:

    >>> int(matrix_rank([[1.0, 2.0], [2.0, 4.0]]))
    1
    """
    x = _float(x)
    _assert_2d(x)
    s = np.linalg.svd(x.numpy(), compute_uv=False)
    if tol is None:
        eps = np.finfo(s.dtype).eps
        tol = s.max(axis=-1, keepdims=True) * (max(x.shape[-2:]) * eps)
    return Tensor(np.asarray(np.sum(s > tol, axis=-1), dtype="int32"))


def _lu(a):
    """Batched LU with partial pivoting: (packed LU, LAPACK pivots, row
    permutation `perm` with `a[..., perm, :] = L U`)."""
    a = np.array(a, copy=True)
    *batch, m, n = a.shape
    pivots = np.zeros(tuple(batch) + (min(m, n),), dtype="int32")
    perm = np.broadcast_to(np.arange(m), a.shape[:-1]).copy()
    for j in range(min(m, n)):
        p = j + np.argmax(np.abs(a[..., j:, j]), axis=-1)
        pivots[..., j] = p
        order = np.broadcast_to(np.arange(m), a.shape[:-1]).copy()
        np.put_along_axis(order, p[..., None], j, axis=-1)
        order[..., j] = p
        a = np.take_along_axis(a, order[..., None], axis=-2)
        perm = np.take_along_axis(perm, order, axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            a[..., j + 1:, j] /= a[..., j:j + 1, j]
        a[..., j + 1:, j + 1:] -= a[..., j + 1:, j:j + 1] * a[..., j:j + 1,
                                                               j + 1:]
    return a, pivots, perm


@primitive
def _lu_output(a, lu, perm):
    """`lu` (already factored from `a`), differentiable in `a`."""
    return np.array(lu, copy=True)


def _lu_square_factors(lu):
    """`L` (m x m, unit diagonal) and `U` (n x n, identity-padded) of a
    packed `(..., m, n)` factorization, as JAX's LU JVP pads them."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    lower = np.zeros(lu.shape[:-2] + (m, m), lu.dtype)
    lower[..., :, :k] = np.tril(lu[..., :, :k], -1)
    lower += np.eye(m, dtype=lu.dtype)
    upper = np.zeros(lu.shape[:-2] + (n, n), lu.dtype)
    upper[..., :k, :] = np.triu(lu[..., :k, :])
    upper[..., k:, k:] += np.eye(n - k, dtype=lu.dtype)
    return lower, upper


@_lu_output.defvjp
def _lu_output_vjp(g, out, a, lu, perm):
    # Transpose of JAX's JVP: with Phi = L^-1 P^T dA U^-1 it is
    # dLU = L tril(Phi, -1) + triu(Phi) U.
    lower, upper = _lu_square_factors(out)
    inner = (np.tril(LO.T(lower) @ g, -1)
             + np.triu(g @ LO.T(upper)))
    g_rows = LO._solve(LO.T(lower), LO.T(LO._solve(upper, LO.T(inner))))
    restore = np.argsort(perm, axis=-1)
    return (np.take_along_axis(g_rows, restore[..., None], axis=-2),
            None, None)


def _lu_spec(x):
    _assert_2d(x)
    k = None if None in x.shape[-2:] else min(x.shape[-2:])
    return (KerasTensor(x.shape, _float_dtype(x)),
            KerasTensor(tuple(x.shape[:-2]) + (k,), "int32"))


@spec_op(_lu_spec)
def lu_factor(x):
    """LU decomposition with partial pivoting (scipy's `lu_factor`).

    Args:
        x: Tensor of shape `(..., M, N)`.

    Returns:
        A tuple `(lu, pivots)`: `lu` holds `U` in its upper triangle and
        the unit-diagonal `L` below it; row `i` was swapped with row
        `pivots[i]` (int32, shape `(..., min(M, N))`). `lu` is
        differentiable in `x` (JAX's LU derivative).

    Example:

    >>> lu, piv = lu_factor([[1.0, 2.0], [3.0, 4.0]])
    >>> piv.numpy()
    array([1, 1], dtype=int32)
    """
    x = _float(x)
    _assert_2d(x)
    lu, pivots, perm = _lu(x.numpy())
    return _lu_output(x, lu, perm), Tensor(pivots)


# -- jvp ----------------------------------------------------------------------
@keras_op
def jvp(fun, primals, tangents, has_aux=False):
    """Jacobian-vector product of `fun` at `primals` along `tangents`.

    kerasish differentiates in reverse mode, so the product is exact but
    costs one backward pass per element of the output (`J v` is assembled
    row by row from `v . (J^T e_i)`): cheap for small outputs.

    Args:
        fun: Function of `len(primals)` tensors (or nested structures)
            returning a tensor or a nested structure of tensors; with
            `has_aux=True`, a pair `(output, aux)`.
        primals: Tuple or list of the arguments of `fun`.
        tangents: Same structure and shapes as `primals`.
        has_aux: Whether `fun` also returns auxiliary data. Defaults to
            `False`.

    Returns:
        `(primals_out, tangents_out)`, or `(primals_out, tangents_out, aux)`
        with `has_aux=True`.

    Example:

    >>> out, tangent = jvp(lambda x: x * x, (np.float32(3.0),),
    ...                    (np.float32(1.0),))
    >>> float(out), float(tangent)
    (9.0, 6.0)
    """
    if not isinstance(primals, (list, tuple)):
        raise ValueError("`primals` must be a tuple or list of the arguments "
                         f"of `fun`. Received: primals={primals!r:.80}")
    tree.assert_same_structure(primals, tangents)
    xs = tree.map_structure(lambda p: Tensor(np.array(
        convert_to_tensor(p).numpy())), primals)
    flat_x = tree.flatten(xs)
    flat_t = [np.asarray(convert_to_tensor(t).numpy())
              for t in tree.flatten(tangents)]
    for x, t in zip(flat_x, flat_t):
        if x.shape != t.shape:
            raise ValueError(
                "Each tangent must have the shape of its primal. Received: "
                f"primal shape {x.shape}, tangent shape {t.shape}")
    out, aux = _run(fun, xs, flat_x, has_aux)
    tangents_out = tree.map_structure(
        lambda o: _directional(out[1], o, flat_x, flat_t), out[0])
    if has_aux:
        return out[0], tangents_out, aux
    return out[0], tangents_out


def _run(fun, xs, flat_x, has_aux):
    with GradientTape(persistent=True) as tape:
        tape.watch([x for x in flat_x if x.dtype.kind in "fc"])
        result = fun(*xs)
    if has_aux:
        if not (isinstance(result, (list, tuple)) and len(result) == 2):
            raise ValueError("With `has_aux=True`, `fun` must return a pair "
                             "`(output, aux)`.")
        return (tree.map_structure(convert_to_tensor, result[0]), tape), \
            result[1]
    return (tree.map_structure(convert_to_tensor, result), tape), None


def _directional(tape, out, flat_x, flat_t):
    """`J v` for one output, one backward pass per output element."""
    if out.dtype.kind not in "fc":
        return Tensor(np.zeros(out.shape, out.dtype))
    rows = np.zeros(out.size, out.dtype)
    seed = np.zeros(out.size, out.dtype)
    for i in range(out.size):
        seed[i] = 1
        grads = tape.gradient(out, flat_x,
                              output_gradients=seed.reshape(out.shape))
        seed[i] = 0
        rows[i] = sum(float(np.vdot(_dense(g), t))
                      for g, t in zip(grads, flat_t) if g is not None)
    return Tensor(rows.reshape(out.shape))


def _dense(g):
    return np.asarray(g.to_dense() if hasattr(g, "to_dense") else g)
