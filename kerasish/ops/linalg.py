"""Linear algebra ops (`keras.ops.linalg`), batched over leading axes.

inv, det, slogdet, solve, solve_triangular, cholesky, qr, svd, eigh and
pinv are differentiable (hand-written VJPs in `backend/linalg_ops.py` and
`backend/linalg_decomp.py`); eig, lu_factor and matrix_rank are not, as
their results are complex or discrete. Integer inputs are computed in
`floatx()`.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend import linalg_decomp as LD
from kerasish.backend import linalg_ops as LO
from kerasish.backend.tensor import Tensor
from kerasish.engine.keras_tensor import KerasTensor
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.symbolic import keras_op
from kerasish.ops.traced import spec_op

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv",
           "jvp", "lstsq", "lu_factor", "matrix_rank", "norm", "pinv", "qr",
           "solve", "solve_triangular", "svd"]


# -- argument checks and output specs ------------------------------------------
def _float_dtype(x):
    dtype = str(x.dtype)
    return dtype if dtype.startswith(("float", "complex")) \
        else config.floatx()


def _float(x):
    x = convert_to_tensor(x)
    return x if x.dtype.kind in "fc" else cast(x, config.floatx())


def _assert_2d(*arrays):
    for a in arrays:
        if len(a.shape) < 2:
            raise ValueError("Expected input to have rank >= 2. Received "
                             f"input with shape {tuple(a.shape)}.")


def _assert_square(*arrays):
    for a in arrays:
        m, n = a.shape[-2:]
        if m is not None and n is not None and m != n:
            raise ValueError("Expected a square matrix. Received non-square "
                             f"input with shape {tuple(a.shape)}")


def _assert_a_b(a, b, vector):
    row = b.shape[-1] if vector else b.shape[-2]
    if None not in (row, a.shape[-1]) and row != a.shape[-1]:
        raise ValueError(
            "Incompatible shapes between `a` and `b`. Expected "
            "`a.shape[-1]` to match the rows of `b`. "
            f"Received: a.shape={tuple(a.shape)}, b.shape={tuple(b.shape)}")


def _square_spec(x, *args, **kwargs):
    _assert_2d(x)
    _assert_square(x)
    return KerasTensor(x.shape, _float_dtype(x))


def _batch_spec(x):
    _assert_2d(x)
    _assert_square(x)
    return KerasTensor(x.shape[:-2], _float_dtype(x))


def _broadcast(s1, s2):
    """Broadcast two batch shapes; `None` (unknown) dims stay unknown."""
    s1, s2 = tuple(s1), tuple(s2)
    n = max(len(s1), len(s2))
    s1, s2 = (1,) * (n - len(s1)) + s1, (1,) * (n - len(s2)) + s2
    out = []
    for d1, d2 in zip(s1, s2):
        if d1 == 1 or d2 == 1:
            out.append(d2 if d1 == 1 else d1)
        elif None in (d1, d2) or d1 == d2:
            out.append(d1 if d2 is None else d2)
        else:
            raise ValueError(f"Incompatible batch shapes {s1} and {s2}.")
    return tuple(out)


def _solve_spec(a, b, lower=None):
    """`lower` is None for `solve` (numpy's rule: `b` is a vector only when
    1-D) and a bool for `solve_triangular` (scipy's batched-vector rule)."""
    _assert_2d(a)
    _assert_square(a)
    if len(b.shape) < 1:
        raise ValueError(
            f"Expected input to have rank >= 1. Received scalar input {b}.")
    vector = len(b.shape) == 1 or (lower is not None
                                   and len(b.shape) == len(a.shape) - 1)
    _assert_a_b(a, b, vector)
    if vector:
        shape = _broadcast(a.shape[:-2], b.shape[:-1]) + (a.shape[-1],)
    else:
        shape = _broadcast(a.shape[:-2], b.shape[:-2]) + tuple(b.shape[-2:])
    return KerasTensor(shape, _float_dtype(a))


# -- inverses and determinants ---------------------------------------------------
@spec_op(_square_spec)
def inv(x):
    """Inverse of a square matrix (or of each matrix of a stack).

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        The inverse, of shape `(..., M, M)`.

    Example:

    >>> inv([[2.0, 0.0], [0.0, 4.0]]).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    return LO.inv(x)


@spec_op(_batch_spec)
def det(x):
    """Determinant of a square matrix (differentiable, also when singular).

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        Tensor of shape `(...)`.

    Example:

    >>> float(det([[1.0, 2.0], [3.0, 4.0]]))
    -2.0
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    return LO.det(x)


def _slogdet_spec(x):
    spec = _batch_spec(x)
    return spec, KerasTensor(spec.shape, spec.dtype)


@spec_op(_slogdet_spec)
def slogdet(x):
    """Sign and natural log of the absolute determinant.

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        A tuple `(sign, logabsdet)`, each of shape `(...)`.

    Example:

    >>> sign, logdet = slogdet([[2.0, 0.0], [0.0, -3.0]])
    >>> float(sign), round(float(logdet), 5)
    (-1.0, 1.79176)
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    return LO.slogdet_sign(x), LO.logabsdet(x)


# -- solves ------------------------------------------------------------------------
@spec_op(_solve_spec)
def solve(a, b):
    """Solve `a @ x = b` for `x`.

    Args:
        a: Tensor of shape `(..., M, M)`.
        b: Tensor of shape `(M,)` or `(..., M, K)` (a vector only when 1-D).

    Returns:
        `x`, shaped like `b` (with the batch axes broadcast).

    Example:

    >>> solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0]).numpy()
    array([1. , 0.5], dtype=float32)
    """
    a, b = knp._promote(_float(a), convert_to_tensor(b))
    _solve_spec(a, b)
    return LO.solve(a, _float(b))


@spec_op(lambda a, b, lower=False: _solve_spec(a, b, bool(lower)))
def solve_triangular(a, b, lower=False):
    """Solve `a @ x = b` where `a` is triangular.

    Only the lower (`lower=True`) or upper (default) triangle of `a` is
    read; the other entries are ignored.

    Args:
        a: Tensor of shape `(..., M, M)`.
        b: Tensor of shape `(..., M)` or `(..., M, K)`.
        lower: Whether `a` is lower triangular. Defaults to `False`.

    Returns:
        `x`, shaped like `b`.

    Example:

    >>> solve_triangular([[1.0, 0.0], [1.0, 2.0]], [1.0, 3.0],
    ...                  lower=True).numpy()
    array([1., 1.], dtype=float32)
    """
    a, b = knp._promote(_float(a), convert_to_tensor(b))
    _solve_spec(a, b, bool(lower))
    return LO.solve_triangular(a, _float(b), lower=bool(lower))


def _lstsq_spec(a, b, rcond=None):
    if len(a.shape) != 2:
        raise ValueError(
            f"Expected a to have rank 2. Received: a.shape={tuple(a.shape)}")
    if len(b.shape) not in (1, 2):
        raise ValueError("Expected b to have rank 1 or 2. "
                         f"Received: b.shape={tuple(b.shape)}")
    m, n = a.shape
    if None not in (m, b.shape[0]) and b.shape[0] != m:
        raise ValueError(
            "Expected b.shape[0] to be equal to a.shape[0]. Received: "
            f"a.shape={tuple(a.shape)}, b.shape={tuple(b.shape)}")
    return KerasTensor((n,) + tuple(b.shape[1:]), _float_dtype(a))


@spec_op(_lstsq_spec)
def lstsq(a, b, rcond=None):
    """Least-squares solution of `a @ x = b` (minimum norm if not unique).

    Args:
        a: Matrix of shape `(M, N)`.
        b: Tensor of shape `(M,)` or `(M, K)`.
        rcond: Cut-off ratio for small singular values of `a` (treated as
            zero below `rcond * largest`). Defaults to `None`: machine
            epsilon times `max(M, N)`, as JAX.

    Returns:
        `x` of shape `(N,)` or `(N, K)`.

    Example:

    >>> np.round(lstsq([[1.0], [1.0]], [1.0, 3.0]).numpy(), 5)
    array([2.], dtype=float32)
    """
    a, b = knp._promote(_float(a), convert_to_tensor(b))
    _lstsq_spec(a, b)
    if rcond is None:
        rcond = np.finfo(a.dtype).eps * max(a.shape)
    return knp.matmul(LO.pinv(a, rcond=float(rcond)), _float(b))


# -- decompositions -------------------------------------------------------------------
@spec_op(_square_spec)
def cholesky(x, upper=False):
    """Cholesky factor of a symmetric positive-definite matrix.

    As in Keras's JAX backend the input is symmetrised (`(x + x^T) / 2`),
    so its gradient is symmetric.

    Args:
        x: Tensor of shape `(..., M, M)`.
        upper: Return the upper factor `U` (`x = U^T U`) instead of the
            lower one `L` (`x = L L^T`). Defaults to `False`.

    Returns:
        The triangular factor, shape `(..., M, M)`.

    Example:

    >>> cholesky([[4.0, 2.0], [2.0, 5.0]]).numpy()
    array([[2., 0.],
           [1., 2.]], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    factor = LO.cholesky(x)
    return knp.swapaxes(factor, -1, -2) if upper else factor


@spec_op(_square_spec)
def cholesky_inverse(x, upper=False):
    """Inverse of `A` from its Cholesky factor `x`.

    Args:
        x: Triangular factor of shape `(..., M, M)`: `A = x x^T` when lower
            (default), `A = x^T x` when `upper=True`.
        upper: Whether `x` is the upper factor. Defaults to `False`.

    Returns:
        `inv(A)`, of shape `(..., M, M)`.

    Example:

    >>> cholesky_inverse([[2.0, 0.0], [1.0, 2.0]]).numpy()
    array([[ 0.3125, -0.125 ],
           [-0.125 ,  0.25  ]], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    eye = knp.eye(x.shape[-1], dtype=x.dtype)
    factor_inv = solve_triangular(x, eye, lower=not upper)
    flipped = knp.swapaxes(factor_inv, -1, -2)
    if upper:
        return knp.matmul(factor_inv, flipped)
    return knp.matmul(flipped, factor_inv)


def _qr_spec(x, mode="reduced"):
    _check_mode(mode)
    if len(x.shape) < 2:
        raise ValueError("Input should have rank >= 2. Received: "
                         f"input.shape = {tuple(x.shape)}")
    m, n = x.shape[-2:]
    if m is None or n is None:
        raise ValueError("Input should have its last 2 dimensions "
                         f"fully-defined. Received: input.shape = "
                         f"{tuple(x.shape)}")
    dtype = _float_dtype(x)
    return tuple(KerasTensor(tuple(x.shape[:-2]) + s, dtype)
                 for s in LD.qr_shapes(m, n, mode))


def _check_mode(mode):
    if mode not in ("reduced", "complete"):
        raise ValueError("`mode` argument value not supported. Expected one "
                         "of {'reduced', 'complete'}. "
                         f"Received: mode={mode}")


@spec_op(_qr_spec)
def qr(x, mode="reduced"):
    """QR decomposition `x = q @ r`, differentiable.

    Args:
        x: Tensor of shape `(..., M, N)`.
        mode: `"reduced"` (default): `q` is `(..., M, K)` and `r` is
            `(..., K, N)` with `K = min(M, N)`; `"complete"`: `q` is
            `(..., M, M)` and `r` is `(..., M, N)`.

    Returns:
        A tuple `(q, r)`.

    Example:

    >>> q, r = qr([[3.0, 0.0], [4.0, 5.0]])
    >>> np.round(np.abs(r.numpy()), 4)
    array([[5., 4.],
           [0., 3.]], dtype=float32)
    """
    x = _float(x)
    specs = _qr_spec(x, mode)
    packed = LD.qr(x, mode=mode)
    return tuple(LD.unpack_tensor(packed, [s.shape[-2:] for s in specs]))


def _svd_spec(x, full_matrices=True, compute_uv=True):
    _assert_2d(x)
    m, n = x.shape[-2:]
    batch, dtype = tuple(x.shape[:-2]), _float_dtype(x)
    k = None if None in (m, n) else min(m, n)
    if not compute_uv:
        return KerasTensor(batch + (k,), dtype)
    u = (m, m) if full_matrices else (m, k)
    vh = (n, n) if full_matrices else (k, n)
    return (KerasTensor(batch + u, dtype), KerasTensor(batch + (k,), dtype),
            KerasTensor(batch + vh, dtype))


@spec_op(_svd_spec)
def svd(x, full_matrices=True, compute_uv=True):
    """Singular value decomposition `x = u @ diag(s) @ vh`, differentiable.

    Gradients need distinct nonzero singular values; with
    `full_matrices=True` and a non-square `x` they flow only through the
    first `min(M, N)` columns of `u` and rows of `vh`, as in JAX.

    Args:
        x: Tensor of shape `(..., M, N)`.
        full_matrices: Return square `u` and `vh` (default `True`) or the
            thin `(..., M, K)` and `(..., K, N)` factors.
        compute_uv: Return `(u, s, vh)` (default) or only `s`.

    Returns:
        `(u, s, vh)`, or `s` (descending) when `compute_uv=False`.

    Example:

    >>> svd([[3.0, 0.0], [0.0, -4.0]], compute_uv=False).numpy()
    array([4., 3.], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    if not compute_uv:
        return LD.singular_values(x)
    m, n = x.shape[-2:]
    packed = LD.svd(x, full_matrices=bool(full_matrices))
    return tuple(LD.unpack_tensor(packed, LD.svd_shapes(m, n,
                                                        full_matrices)))


def _eigh_spec(x):
    spec = _square_spec(x)
    return KerasTensor(spec.shape[:-1], spec.dtype), spec


@spec_op(_eigh_spec)
def eigh(x):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix.

    The input is symmetrised (`(x + x^T) / 2`) as in Keras's JAX backend.
    Gradients need distinct eigenvalues (for the eigenvectors).

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        A tuple `(w, v)`: `w` of shape `(..., M)`, and `v` of shape
        `(..., M, M)` whose columns are the eigenvectors.

    Example:

    >>> w, v = eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> w.numpy()
    array([1., 3.], dtype=float32)
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    packed = LD.eigh(x)
    return tuple(LD.unpack_tensor(packed, LD.eigh_shapes(x.shape[-1])))


def _eig_spec(x):
    spec = _square_spec(x)
    dtype = "complex128" if spec.dtype == "float64" else "complex64"
    return KerasTensor(spec.shape[:-1], dtype), KerasTensor(spec.shape, dtype)


@spec_op(_eig_spec)
def eig(x):
    """Eigenvalues and right eigenvectors of a general square matrix.

    Results are always complex (`complex64` for float32 input), as in
    Keras's JAX backend; not differentiable.

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        A tuple `(w, v)` of shapes `(..., M)` and `(..., M, M)`.

    Example:

    >>> w, v = eig([[0.0, 1.0], [-1.0, 0.0]])
    >>> sorted(w.numpy().imag.tolist())
    [-1.0, 1.0]
    """
    x = _float(x)
    w_spec, _ = _eig_spec(x)
    w, v = np.linalg.eig(x.numpy())
    return Tensor(w.astype(w_spec.dtype)), Tensor(v.astype(w_spec.dtype))


from kerasish.ops.linalg_extra import (jvp, lu_factor, matrix_rank,  # noqa
                                       norm, pinv)
