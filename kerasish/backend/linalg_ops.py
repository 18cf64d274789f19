"""Differentiable linear algebra: inverse, determinants, solves, Cholesky.

Every primitive works on stacks of matrices (`(..., M, N)`), like
`numpy.linalg`, and its VJP is written with the same batched numpy calls.
The decompositions with several outputs (QR, SVD, eigh) are in
`linalg_decomp.py`.

Inputs are symmetrised where JAX symmetrises them (Cholesky, eigh), so the
gradients are symmetric matrices, as Keras's JAX backend returns.
"""
import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast


def T(x):
    """Transpose the last two axes."""
    return np.swapaxes(x, -1, -2)


def _fail(what, err):
    raise ValueError(f"{what} failed: {err}. The input matrix might be "
                     "singular (or not positive definite).") from None


def _solve(a, b):
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError as err:
        _fail("Linear solve", err)


# -- inverse -------------------------------------------------------------
@primitive
def inv(a):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError as err:
        _fail("Matrix inversion", err)


@inv.defvjp
def _inv_vjp(g, out, a):
    return (-T(out) @ g @ T(out),)


# -- determinants -----------------------------------------------------------
@primitive
def det(a):
    return np.linalg.det(a)


def _others_product(s):
    """`prod_{j != i} s_j` along the last axis, exact when some s are 0."""
    ones = np.ones_like(s[..., :1])
    left = np.cumprod(np.concatenate([ones, s[..., :-1]], -1), -1)
    right = np.cumprod(np.concatenate([ones, s[..., :0:-1]], -1), -1)
    return left * right[..., ::-1]


def cofactor(a):
    """The cofactor matrix `det(a) * inv(a).T`, also for singular `a`.

    From the SVD `a = U S V^T`: `cof(a) = det(U) det(V) U adj(S) V^T`, where
    `adj(S)` holds the products of the other singular values, so a matrix of
    rank n-1 still gets its (nonzero) cofactors.
    """
    u, s, vt = np.linalg.svd(a)
    sign = np.linalg.det(u) * np.linalg.det(vt)
    return sign[..., None, None] * (u * _others_product(s)[..., None, :]) @ vt


@det.defvjp
def _det_vjp(g, out, a):
    return (g[..., None, None] * cofactor(a),)


@primitive
def slogdet_sign(a):
    return np.linalg.slogdet(a)[0]


@slogdet_sign.defvjp
def _slogdet_sign_vjp(g, out, a):
    # The sign is piecewise constant.
    return (np.zeros_like(a),)


@primitive
def logabsdet(a):
    return np.linalg.slogdet(a)[1]


@logabsdet.defvjp
def _logabsdet_vjp(g, out, a):
    try:
        inverse = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        inverse = np.linalg.pinv(a)
    return (g[..., None, None] * T(inverse),)


# -- linear solves ----------------------------------------------------------
@primitive
def solve(a, b):
    """`x` with `a @ x = b`; `b` is a vector only when it is 1-D (numpy 2)."""
    return _solve(a, b)


@solve.defvjp
def _solve_vjp(g, out, a, b, *, needs):
    vector = b.ndim == 1
    g2, x2 = (g[..., None], out[..., None]) if vector else (g, out)
    gb = _solve(T(a), g2)
    ga = unbroadcast(-gb @ T(x2), a) if needs[0] else None
    if vector:
        gb = gb[..., 0]
    return ga, unbroadcast(gb, b) if needs[1] else None


def _triangle(a, lower):
    return np.tril(a) if lower else np.triu(a)


def _tri_vector(a, b):
    """JAX's rule: `b` is a vector when 1-D, or a batch of vectors when it
    has one axis less than `a` and ends with `a`'s size; otherwise a (batch
    of) matrices."""
    return b.ndim == 1 or (b.ndim == a.ndim - 1
                           and b.shape[-1] == a.shape[-1])


@primitive
def solve_triangular(a, b, *, lower=False):
    """Solve with the `lower` (or upper) triangle of `a` (the rest unread)."""
    tri = _triangle(a, lower)
    if _tri_vector(a, b):
        return _solve(tri, b[..., None])[..., 0]
    return _solve(tri, b)


@solve_triangular.defvjp
def _solve_triangular_vjp(g, out, a, b, *, lower=False):
    tri = _triangle(a, lower)
    vector = _tri_vector(a, b)
    g2, x2 = (g[..., None], out[..., None]) if vector else (g, out)
    gb = _solve(T(tri), g2)
    ga = _triangle(-gb @ T(x2), lower)
    if vector:
        gb = gb[..., 0]
    return unbroadcast(ga, a), unbroadcast(gb, b)


# -- Cholesky -----------------------------------------------------------------
def symmetrize(a):
    return (a + T(a)) / 2


@primitive
def cholesky(a):
    """Lower Cholesky factor of `(a + a^T) / 2`."""
    try:
        return np.linalg.cholesky(symmetrize(a))
    except np.linalg.LinAlgError as err:
        raise ValueError(
            "Cholesky decomposition failed. The input might not be a valid "
            f"positive definite matrix ({err}).") from None


def _phi(x):
    """Lower triangle with the diagonal halved."""
    return np.tril(x) - 0.5 * np.eye(x.shape[-1], dtype=x.dtype) * x


@cholesky.defvjp
def _cholesky_vjp(g, out, a):
    # dL = L phi(L^-1 dA L^-T); the VJP applies the adjoint of each step.
    p = _phi(T(out) @ g)
    s = _solve(T(out), T(_solve(T(out), T(p))))
    return (symmetrize(s),)


# -- pseudo-inverse -----------------------------------------------------------
def default_pinv_rcond(a):
    """JAX's default cut-off: `10 * max(M, N) * eps`."""
    return 10.0 * max(a.shape[-2:]) * np.finfo(a.dtype).eps


@primitive
def pinv(a, *, rcond=None):
    if rcond is None:
        rcond = default_pinv_rcond(a)
    return np.linalg.pinv(a, rcond=rcond)


@pinv.defvjp
def _pinv_vjp(g, out, a, *, rcond=None):
    # Golub & Pereyra's derivative, valid where the rank is locally constant.
    p, gt = out, T(g)
    left = np.eye(a.shape[-2], dtype=a.dtype) - a @ p
    right = np.eye(a.shape[-1], dtype=a.dtype) - p @ a
    ga = -T(p) @ g @ T(p) + left @ gt @ p @ T(p) + T(p) @ p @ gt @ right
    return (ga,)
