"""Matrix products.

`x @ W` with a 2-D `W` (every Dense layer) is folded into one 2-D GEMM over
all leading axes, forward and backward, instead of a loop of small GEMMs.
"""
import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast


def _fold(a):
    return a.reshape(-1, a.shape[-1])


@primitive
def matmul(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if b.ndim == 2 and a.ndim > 2:
        out = (_fold(a) @ b).reshape(a.shape[:-1] + (b.shape[1],))
    else:
        out = np.matmul(a, b)
    if out.dtype != a.dtype and a.dtype == b.dtype:
        # ml_dtypes' bfloat16 products come back float32; XLA accumulates
        # in float32 too but returns bfloat16.
        out = out.astype(a.dtype)
    return out


def _as_matrices(g, a, b):
    """Promote 1-D operands to matrices (and g to match), as matmul does."""
    if a.ndim == 1 and b.ndim == 1:
        return np.reshape(g, (1, 1)), a[None, :], b[:, None]
    if a.ndim == 1:
        a, g = a[None, :], np.expand_dims(g, -2)
    if b.ndim == 1:
        b, g = b[:, None], np.expand_dims(g, -1)
    return g, a, b


def _matmul_vjp_a(g, out, a, b):
    g2, a2, b2 = _as_matrices(g, a, b)
    if b2.ndim == 2 and g2.ndim > 2:
        ga = (_fold(g2) @ b2.T).reshape(g2.shape[:-1] + (b2.shape[0],))
    else:
        ga = np.matmul(g2, np.swapaxes(b2, -1, -2))
    if a.ndim == 1:
        ga = ga[..., 0, :]
    return unbroadcast(ga, a)


def _matmul_vjp_b(g, out, a, b):
    g2, a2, b2 = _as_matrices(g, a, b)
    if b2.ndim == 2 and a2.ndim > 2:
        gb = _fold(a2).T @ _fold(g2)
    else:
        gb = np.matmul(np.swapaxes(a2, -1, -2), g2)
    if b.ndim == 1:
        gb = gb[..., 0]
    return unbroadcast(gb, b)


matmul.defvjps(_matmul_vjp_a, _matmul_vjp_b)


@primitive(saves=True)
def affine(x, kernel, bias, *, relu=False):
    """`x @ kernel + bias`, then `relu` if asked: a whole Dense layer.

    Fused because it is the hot path of every dense network: one output
    buffer updated in place instead of three tensors, and one tape record.
    The arithmetic is the same as the separate ops.
    """
    out = matmul.fwd(x, kernel)
    out += bias
    if relu:
        np.maximum(out, 0, out=out)
    return out, None


@affine.defvjp
def _affine_vjp(g, out, x, kernel, bias, *, relu=False, needs, saved):
    if relu:
        g = g * (out > 0)
    if x.ndim == 2 and kernel.ndim == 2:
        # The products `_matmul_vjp_*` make for matrices, without their
        # shape handling (this runs for every Dense layer at every step).
        dx = g @ kernel.T if needs[0] else None
        dw = x.T @ g if needs[1] else None
        db = g.sum(axis=0) if needs[2] else None
        return dx, dw, db
    dx = _matmul_vjp_a(g, out, x, kernel) if needs[0] else None
    dw = _matmul_vjp_b(g, out, x, kernel) if needs[1] else None
    db = g.reshape(-1, g.shape[-1]).sum(axis=0) if needs[2] else None
    return dx, dw, db
