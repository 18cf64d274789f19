"""Fused normalization primitives (batch, layer and group norm).

Written as composites, a batch norm in training costs a dozen tape records
(mean, centre, square, mean, add, rsqrt, multiply, ...) and a backward pass
that keeps every intermediate alive. Fused, it is one record whose VJP is
the textbook formula

    dx = inv * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))

with `dxhat = g * scale`, and only `xhat` and `inv` are kept.

Statistics and parameters arrive already shaped to broadcast against `x`
(keepdims form), so one primitive serves batch norm (statistics over the
batch and spatial axes), layer norm (over the feature axes) and group norm
(over the axes of each group).
"""
import numpy as np

from kerasish.backend.primitive import nondiff, primitive, unbroadcast


def moments(x, axes):
    """Mean and (biased) variance of a numpy array over `axes`, keepdims.

    Not recorded on the tape: `standardize`'s VJP already differentiates
    through the statistics of its own input.
    """
    x = np.asarray(x)
    mean = np.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    variance = np.mean(np.square(centered), axis=axes, keepdims=True)
    return mean, variance


@nondiff
def stacked_moments(x, *, axes):
    """`moments(x, axes)` as one array, the mean first: an operation (so a
    compiled step takes the statistics of each batch), without gradient."""
    mean, variance = moments(x, axes)
    return np.stack([mean, variance])


@primitive(saves=True)
def standardize(x, mean, variance, scale, offset, *, axes, epsilon):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`.

    `mean` and `variance` must be `moments(x, axes)`: the VJP treats them as
    functions of `x` (training-mode batch norm, layer norm, group norm), so
    they get no gradient of their own. `scale`/`offset` broadcast against
    `x` (pass 1.0 / 0.0 when absent).
    """
    inv = 1.0 / np.sqrt(variance + epsilon)
    xhat = x - mean
    xhat *= inv
    out = xhat * scale
    out += offset
    return out, (xhat, inv)


@standardize.defvjp
def _standardize_vjp(g, out, x, mean, variance, scale, offset, *, axes,
                     epsilon, needs, saved):
    xhat, inv = saved
    d_scale = unbroadcast(g * xhat, scale) if needs[3] else None
    d_offset = unbroadcast(g, offset) if needs[4] else None
    dx = None
    if needs[0]:
        gx = g * scale if np.ndim(scale) or scale != 1.0 else g
        m1 = np.mean(gx, axis=axes, keepdims=True)
        m2 = np.mean(gx * xhat, axis=axes, keepdims=True)
        dx = gx - m1
        dx -= xhat * m2
        dx *= inv
    return dx, None, None, d_scale, d_offset


@primitive(saves=True)
def batch_norm(x, mean, variance, scale, offset, *, epsilon):
    """`x * inv + (offset - mean * inv)` with `inv = scale / sqrt(var + eps)`.

    Normalization by given statistics (inference, `ops.batch_normalization`);
    differentiable in every input. All inputs broadcast against `x`.
    """
    root = 1.0 / np.sqrt(variance + epsilon)
    inv = root * scale
    out = x * inv
    out += offset - mean * inv
    return out, (root, inv)


@batch_norm.defvjp
def _batch_norm_vjp(g, out, x, mean, variance, scale, offset, *, epsilon,
                    needs, saved):
    root, inv = saved
    dx = unbroadcast(g * inv, x) if needs[0] else None
    dmean = unbroadcast(-g * inv, mean) if needs[1] else None
    d_offset = unbroadcast(g, offset) if needs[4] else None
    dvar = d_scale = None
    if needs[2] or needs[3]:
        g_centered = g * (x - mean)
        if needs[2]:
            dvar = unbroadcast(g_centered * (-0.5 * inv * root * root),
                               variance)
        if needs[3]:
            d_scale = unbroadcast(g_centered * root, scale)
    return dx, dmean, dvar, d_scale, d_offset
