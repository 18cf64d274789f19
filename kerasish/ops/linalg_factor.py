"""Matrix factorizations of `keras.ops.linalg`: Cholesky, QR, SVD and
the eigendecompositions (differentiable except `eig`)."""

import numpy as np

from kerasish.backend import linalg_decomp as LD
from kerasish.backend import linalg_ops as LO
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops import numpy as knp
from kerasish.ops.linalg import (_assert_2d, _assert_square, _float,
                                 _float_dtype, _square_spec,
                                 solve_triangular)
from kerasish.ops.spec_ops import spec_op

__all__ = ["cholesky", "cholesky_inverse", "qr", "svd", "eigh", "eig"]


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
    # A batch of factors needs a batch of identities: a lone `(M, M)` right
    # side next to a rank-3 factor would read as a batch of vectors.
    eye = knp.broadcast_to(knp.eye(x.shape[-1], dtype=x.dtype), x.shape)
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
