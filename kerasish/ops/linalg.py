"""Linear algebra ops (`keras.ops.linalg`), batched over leading axes.

inv, det, slogdet, solve, solve_triangular, cholesky, qr, svd, eigh, pinv
and the packed factors of lu_factor are differentiable (hand-written VJPs
in `backend/linalg_ops.py`, `backend/linalg_decomp.py` and
`ops/linalg_extra.py`); eig and matrix_rank are not, as their results are
complex or discrete. Integer inputs are computed in `floatx()`.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend import linalg_ops as LO
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.spec_ops import spec_op

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv",
           "jvp", "lstsq", "lu_factor", "matrix_rank", "norm", "pinv", "qr",
           "solve", "solve_triangular", "svd"]


# -- argument checks and output specs -----------------------------------------
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
    1-D) and a bool for `solve_triangular` (JAX's batched-vector rule)."""
    _assert_2d(a)
    _assert_square(a)
    if len(b.shape) < 1:
        raise ValueError(
            f"Expected input to have rank >= 1. Received scalar input {b}.")
    vector = len(b.shape) == 1 or (lower is not None
                                   and len(b.shape) == len(a.shape) - 1
                                   and b.shape[-1] == a.shape[-1])
    _assert_a_b(a, b, vector)
    if vector:
        shape = _broadcast(a.shape[:-2], b.shape[:-1]) + (a.shape[-1],)
    else:
        shape = _broadcast(a.shape[:-2], b.shape[:-2]) + tuple(b.shape[-2:])
    return KerasTensor(shape, _float_dtype(a))


# -- inverses and determinants ------------------------------------------------
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


# -- solves -------------------------------------------------------------------
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


from kerasish.ops.linalg_factor import (cholesky,  # noqa: E402,F401
                                        cholesky_inverse, eig, eigh, qr, svd)
from kerasish.ops.linalg_extra import (jvp, lu_factor, matrix_rank,  # noqa
                                       norm, pinv)
