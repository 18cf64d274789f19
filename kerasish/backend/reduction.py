"""Reductions over axes, and their VJPs."""
import builtins

import numpy as np

from kerasish.backend.primitive import primitive, nondiff


def normalize_axis(axis, ndim):
    """`axis` (None, int or sequence) as a sorted tuple of positive ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = tuple(a % ndim if ndim else a for a in axis)
    else:
        axes = (axis % ndim if ndim else axis,)
    return tuple(sorted(axes))


def _expand(g, shape, axis, keepdims):
    """Reshape a reduced gradient so it broadcasts against `shape`."""
    if keepdims or axis is None:
        return g
    axes = normalize_axis(axis, len(shape))
    kept = [1 if i in axes else n for i, n in enumerate(shape)]
    return g.reshape(kept)


def _to_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@primitive
def sum(x, *, axis=None, keepdims=False):
    return np.asarray(x).sum(axis=_to_axis(axis), keepdims=keepdims)


def _spread(g, shape):
    """`g` broadcast to `shape`: a read-only view, or for small shapes a
    filled array (`np.broadcast_to` costs ~10 us of Python per call, more
    than filling a loss-sized array)."""
    if g.size == 1 and len(shape) == 1 and shape[0] <= 4096:
        out = np.empty(shape, g.dtype)
        out.fill(g.reshape(()))
        return out
    return np.broadcast_to(g, shape)


@sum.defvjp
def _sum_vjp(g, out, x, *, axis=None, keepdims=False):
    return (_spread(_expand(g, x.shape, axis, keepdims), x.shape),)


@primitive
def mean(x, *, axis=None, keepdims=False):
    return np.mean(x, axis=_to_axis(axis), keepdims=keepdims)


@mean.defvjp
def _mean_vjp(g, out, x, *, axis=None, keepdims=False):
    count = x.size // builtins.max(out.size, 1) if x.size else 1
    g = _expand(g, x.shape, axis, keepdims) / np.asarray(count, g.dtype)
    return (_spread(g, x.shape),)


def _chooser_vjp(g, out, x, axis, keepdims):
    # Gradient is shared equally among tied extrema (JAX's rule).
    hit = np.equal(x, _expand(out, x.shape, axis, keepdims))
    count = np.sum(hit, axis=_to_axis(axis), keepdims=True).astype(g.dtype)
    return (_expand(g, x.shape, axis, keepdims) * hit / count,)


@primitive
def max(x, *, axis=None, keepdims=False):
    return np.max(x, axis=_to_axis(axis), keepdims=keepdims)


@max.defvjp
def _max_vjp(g, out, x, *, axis=None, keepdims=False):
    return _chooser_vjp(g, out, x, axis, keepdims)


@primitive
def min(x, *, axis=None, keepdims=False):
    return np.min(x, axis=_to_axis(axis), keepdims=keepdims)


@min.defvjp
def _min_vjp(g, out, x, *, axis=None, keepdims=False):
    return _chooser_vjp(g, out, x, axis, keepdims)


@primitive
def prod(x, *, axis=None, keepdims=False):
    return np.prod(x, axis=_to_axis(axis), keepdims=keepdims)


@prod.defvjp
def _prod_vjp(g, out, x, *, axis=None, keepdims=False):
    # Product of all the other entries, exact also when some x are zero.
    axes = normalize_axis(axis, x.ndim)
    moved = np.moveaxis(x, axes, range(-len(axes), 0))
    flat = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
    ones = np.ones_like(flat[..., :1])
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    right = np.cumprod(np.concatenate(
        [ones, flat[..., :0:-1]], -1), -1)[..., ::-1]
    others = (left * right).reshape(moved.shape)
    others = np.moveaxis(others, range(-len(axes), 0), axes)
    return (_expand(g, x.shape, axis, keepdims) * others,)


@primitive
def logsumexp(x, *, axis=None, keepdims=False):
    # Fused for stability: shift by the max before exponentiating.
    axis = _to_axis(axis)
    # `initial`: a reduction over an empty axis gives log(0) = -inf.
    peak = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    peak = np.where(np.isfinite(peak), peak, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True))
    out = out + peak
    return out if keepdims else np.squeeze(out, axis=axis)


@logsumexp.defvjp
def _logsumexp_vjp(g, out, x, *, axis=None, keepdims=False):
    out_b = _expand(out, x.shape, axis, keepdims)
    return (_expand(g, x.shape, axis, keepdims) * np.exp(x - out_b),)


@primitive
def cumsum(x, *, axis=None):
    return np.cumsum(x, axis=axis)


@cumsum.defvjp
def _cumsum_vjp(g, out, x, *, axis=None):
    if axis is None:
        return (np.flip(np.cumsum(np.flip(g))).reshape(x.shape),)
    return (np.flip(np.cumsum(np.flip(g, axis), axis=axis), axis),)


argmax = nondiff(np.argmax)
argmin = nondiff(np.argmin)
any = nondiff(np.any)
all = nondiff(np.all)
