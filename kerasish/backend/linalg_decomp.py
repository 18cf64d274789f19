"""Decompositions with several outputs: QR, SVD, symmetric eigen.

A primitive returns one array, so these pack their outputs along one last
axis (`pack`); the public ops cut the pieces out again with differentiable
slices (`unpack_tensor`), and each VJP unpacks the packed gradient.
Gradients follow the JVP rules of JAX (Keras's reference backend),
transposed by hand, and exist where the decomposition is locally unique:

* QR: `R` must have a nonzero diagonal (full rank leading block);
* SVD: distinct, nonzero singular values; with `full_matrices=True` and a
  non-square input only gradients through the first `min(M, N)` columns
  of `U`/rows of `Vh` are defined (the rest is an arbitrary basis);
* eigh: distinct eigenvalues.
"""
import math

import numpy as np

from kerasish.backend.linalg_ops import T, symmetrize, _solve
from kerasish.backend.primitive import primitive
from kerasish.backend import shape as S


# -- packing several outputs in one array -------------------------------------
def pack(parts, shapes):
    """Flatten each part's trailing `shape` and join along the last axis."""
    flat = [p.reshape(p.shape[:p.ndim - len(s)] + (-1,))
            for p, s in zip(parts, shapes)]
    dtype = np.result_type(*flat)
    return np.concatenate([f.astype(dtype, copy=False) for f in flat], -1)


def unpack(packed, shapes):
    """Inverse of `pack` on numpy arrays."""
    parts, start = [], 0
    for s in shapes:
        size = math.prod(s)
        piece = packed[..., start:start + size]
        parts.append(piece.reshape(packed.shape[:-1] + tuple(s)))
        start += size
    return parts


def unpack_tensor(packed, shapes):
    """Inverse of `pack` on a `Tensor`, differentiable."""
    parts, start = [], 0
    lead = packed.shape[:-1]
    for s in shapes:
        size = math.prod(s)
        piece = S.getitem(packed, key=(Ellipsis, slice(start, start + size)))
        parts.append(S.reshape(piece, shape=lead + tuple(s)))
        start += size
    return parts


# -- QR -----------------------------------------------------------------------
def qr_shapes(m, n, mode):
    k = min(m, n)
    if mode == "complete":
        return [(m, m), (m, n)]
    return [(m, k), (k, n)]


@primitive
def qr(a, *, mode="reduced"):
    q, r = np.linalg.qr(a, mode=mode)
    m, n = a.shape[-2:]
    return pack([q, r], qr_shapes(m, n, mode))


def _thin_qr_vjp(q, r, gq, gr):
    """VJP of `a = q r` for `m >= n`, `r` square (JAX's rule, transposed)."""
    inner = T(q) @ gq - gr @ T(r)
    cbar = np.tril(inner - T(inner), -1) - inner
    dbar = gq + q @ cbar
    return T(_solve(r, T(dbar)))


def _complete_cotangent(q, gq, n):
    """Fold the cotangent of the completing columns `q[:, n:]` into the
    cotangent of `q[:, :n]` (transpose of JAX's full-matrices JVP)."""
    q_mn, q_mp, g_mn, g_mp = q[..., :n], q[..., n:], gq[..., :n], gq[..., n:]
    eye = np.eye(n, dtype=q.dtype)
    z_h = _solve(T(q_mn[..., :n, :] - eye), T(q_mn[..., n:, :]))
    z = T(z_h)
    w = q_mn + q_mp @ z
    e = T(g_mp) @ w
    total = g_mn + g_mp @ z
    total[..., :n, :] += T(z) @ e
    total[..., n:, :] -= e
    return total


@qr.defvjp
def _qr_vjp(g, out, a, *, mode="reduced"):
    m, n = a.shape[-2:]
    shapes = qr_shapes(m, n, mode)
    q, r = unpack(out, shapes)
    gq, gr = unpack(g, shapes)
    if m < n:
        # a = q [r1 r2] with r2 = q^T a2: the square block drives q.
        a2, gr1, gr2 = a[..., m:], gr[..., :m], gr[..., m:]
        ga1 = _thin_qr_vjp(q, r[..., :m], gq + a2 @ T(gr2), gr1)
        return (np.concatenate([ga1, q @ gr2], -1),)
    if mode == "complete" and m > n:
        gq = _complete_cotangent(q, gq, n)
        q, r, gr = q[..., :n], r[..., :n, :], gr[..., :n, :]
    return (_thin_qr_vjp(q, r, gq, gr),)


# -- SVD ----------------------------------------------------------------------
def svd_shapes(m, n, full_matrices):
    k = min(m, n)
    if full_matrices:
        return [(m, m), (k,), (n, n)]
    return [(m, k), (k,), (k, n)]


@primitive
def svd(a, *, full_matrices=True):
    u, s, vt = np.linalg.svd(a, full_matrices=full_matrices)
    m, n = a.shape[-2:]
    return pack([u, s, vt], svd_shapes(m, n, full_matrices))


def _gap_times(w, x, squared):
    """`F * x` with `F[i, j] = 1 / (w_j - w_i)` (of squares if `squared`)
    and 0 on the diagonal. Where two values coincide the result is inf/nan
    (the gradient is undefined) unless `x` is 0 there: a loss that does not
    read the vectors still gets finite eigen/singular-value gradients."""
    v = w * w if squared else w
    diff = v[..., None, :] - v[..., :, None]
    eye = np.eye(w.shape[-1], dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(eye, 0, 1 / np.where(eye, 1, diff))
        return np.where(x == 0, 0, f * x)


def _svd_core_vjp(a, u, s, vt, gu, gs, gv):
    """Thin-SVD VJP (transposed JAX JVP); any of gu/gs/gv may be zeros."""
    m, n = a.shape[-2:]
    v = T(vt)
    pu = _gap_times(s, T(u) @ gu, squared=True)
    pv = _gap_times(s, T(v) @ gv, squared=True)
    sbar = (pu + T(pu)) * s[..., None, :] + s[..., :, None] * (pv + T(pv))
    sbar = sbar + gs[..., None] * np.eye(s.shape[-1], dtype=a.dtype)
    ga = u @ sbar @ vt
    if m > n and np.any(gu):
        proj = _over(gu, s)
        ga = ga + (proj - u @ (T(u) @ proj)) @ vt
    if n > m and np.any(gv):
        proj = _over(gv, s)
        ga = ga + u @ T(proj - v @ (vt @ proj))
    return ga


def _over(g, s):
    with np.errstate(divide="ignore", invalid="ignore"):
        return g / s[..., None, :]


def _thin_cotangents(gu, gvt, k, full_matrices):
    if not full_matrices:
        return gu, gvt
    if np.any(gu[..., k:]) or np.any(gvt[..., k:, :]):
        raise ValueError(
            "The gradient of `svd` with `full_matrices=True` is only defined "
            "through the first min(M, N) columns of `u` and rows of `vh` "
            "(the others are an arbitrary orthonormal completion). Use "
            "`full_matrices=False`.")
    return gu[..., :k], gvt[..., :k, :]


@svd.defvjp
def _svd_vjp(g, out, a, *, full_matrices=True):
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vt = unpack(out, svd_shapes(m, n, full_matrices))
    gu, gs, gvt = unpack(g, svd_shapes(m, n, full_matrices))
    gu, gvt = _thin_cotangents(gu, gvt, k, full_matrices)
    u, vt = u[..., :k], vt[..., :k, :]
    return (_svd_core_vjp(a, u, s, vt, gu, gs, T(gvt)),)


@primitive(saves=True)
def singular_values(a):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return s, (u, vt)


@singular_values.defvjp
def _singular_values_vjp(g, out, a, *, saved):
    u, vt = saved
    return ((u * g[..., None, :]) @ vt,)


# -- symmetric eigendecomposition ---------------------------------------------
def eigh_shapes(n):
    return [(n,), (n, n)]


@primitive
def eigh(a):
    """Eigenvalues (ascending) and eigenvectors of `(a + a^T) / 2`."""
    w, v = np.linalg.eigh(symmetrize(a))
    return pack([w, v], eigh_shapes(a.shape[-1]))


@eigh.defvjp
def _eigh_vjp(g, out, a):
    w, v = unpack(out, eigh_shapes(a.shape[-1]))
    gw, gv = unpack(g, eigh_shapes(a.shape[-1]))
    inner = _gap_times(w, T(v) @ gv, squared=False)
    inner = inner + gw[..., None] * np.eye(w.shape[-1], dtype=a.dtype)
    return (symmetrize(v @ inner @ T(v)),)
