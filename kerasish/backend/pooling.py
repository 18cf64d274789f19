"""Pooling primitives: a loop over the window offsets, never over samples.

Both pools read the padded input once per offset of the pooling window
(`pool_h * pool_w` strided slices, each covering the whole batch) and
reduce them in place.

* `max_pool` pads with `-inf` (XLA's `reduce_window` identity). Its VJP
  sends each window's gradient to the *first* position holding the maximum,
  in row-major window order, as XLA's `select_and_scatter` (and so Keras on
  JAX) does; ties are not split.
* `average_pool` pads with zeros and divides by the number of *real* input
  entries in each window, so `"same"` padding averages only valid values,
  as Keras does.
"""
import math

import numpy as np

from kerasish.backend import windows as W
from kerasish.backend.primitive import primitive


def _geometry(x, pool_size, strides, pads):
    out = W.output_sizes(x.shape[1:-1], pads, pool_size, strides)
    ones = (1,) * len(pool_size)
    return W.offset_slices(pool_size, strides, ones, out), out


@primitive
def max_pool(x, *, pool_size, strides, pads):
    """Max over each `pool_size` window of channels-last `x`."""
    xp = W.pad_spatial(x, pads, _lowest(x.dtype))
    offsets, _ = _geometry(x, pool_size, strides, pads)
    return _reduce_offsets(np.maximum, xp, offsets)


def _lowest(dtype):
    """Padding that never wins a max: -inf, or the integer minimum."""
    if dtype.kind == "f" or dtype.name == "bfloat16":
        return -np.inf
    return np.iinfo(dtype).min


def _reduce_offsets(ufunc, xp, offsets):
    """`ufunc` folded over the offset slices, into one fresh array."""
    slices = [xp[where] for _, where in offsets]
    if len(slices) == 1:
        return slices[0].copy()
    out = ufunc(slices[0], slices[1])
    for part in slices[2:]:
        ufunc(out, part, out=out)
    return out


@max_pool.defvjp
def _max_pool_vjp(g, out, x, *, pool_size, strides, pads):
    if tuple(strides) == tuple(pool_size) and \
            not any(lo or hi for lo, hi in pads):
        return (_tiled_max_grad(g, out, x, pool_size),)
    xp = W.pad_spatial(x, pads, _lowest(x.dtype))
    dxp = np.zeros(xp.shape, dtype=g.dtype)
    offsets, _ = _geometry(x, pool_size, strides, pads)
    hit = np.empty(out.shape, dtype=bool)
    taken = np.zeros(out.shape, dtype=bool)
    for _, where in offsets:
        np.equal(xp[where], out, out=hit)
        np.greater(hit, taken, out=hit)     # a max not claimed before
        taken |= hit
        dxp[where] += g * hit
    return (W.crop_spatial(dxp, pads),)


def _tiled_max_grad(g, out, x, pool_size):
    """Max-pool VJP when the windows tile the input (stride == pool).

    The input (cropped to the tiled part) is viewed as `(N, o1, p1, o2,
    p2, ..., C)`, compared with the pooled maxima in one pass, the ties
    resolved in place (first maximum wins), and the gradient written with
    one broadcast product: a few passes instead of several per offset.
    """
    out_sizes = out.shape[1:-1]
    tiled = tuple(o * p for o, p in zip(out_sizes, pool_size))
    xc = x[W.spatial_index(slice(0, t) for t in tiled)]
    split = (x.shape[0],) + sum(zip(out_sizes, pool_size), ()) + \
        (x.shape[-1],)
    spread = (x.shape[0],) + sum(((o, 1) for o in out_sizes), ()) + \
        (x.shape[-1],)
    hits = np.equal(xc.reshape(split), out.reshape(spread))
    taken = None
    for offset in np.ndindex(*pool_size):
        index = (slice(None),) + sum(((slice(None), i) for i in offset),
                                     ()) + (slice(None),)
        hit = hits[index]
        if taken is None:
            taken = hit.copy()
            continue
        np.greater(hit, taken, out=hit)
        taken |= hit
    grad = np.multiply(g.reshape(spread), hits).reshape(xc.shape)
    if tiled == x.shape[1:-1]:
        return grad
    dx = np.zeros(x.shape, dtype=grad.dtype)
    dx[W.spatial_index(slice(0, t) for t in tiled)] = grad
    return dx


def _window_counts(x, pool_size, strides, pads):
    """How many real (unpadded) entries each window covers."""
    if not any(lo or hi for lo, hi in pads):
        return math.prod(pool_size)
    ones = np.ones((1,) + x.shape[1:-1] + (1,), dtype=x.dtype)
    return _window_sum(W.pad_spatial(ones, pads), pool_size, strides, pads,
                       ones)


def _window_sum(xp, pool_size, strides, pads, x):
    offsets, _ = _geometry(x, pool_size, strides, pads)
    return _reduce_offsets(np.add, xp, offsets)


@primitive
def average_pool(x, *, pool_size, strides, pads):
    """Mean over each window of `x`, counting only unpadded entries."""
    total = _window_sum(W.pad_spatial(x, pads), pool_size, strides, pads, x)
    total /= _window_counts(x, pool_size, strides, pads)
    return total


@average_pool.defvjp
def _average_pool_vjp(g, out, x, *, pool_size, strides, pads):
    share = g / _window_counts(x, pool_size, strides, pads)
    dxp = np.zeros(W.padded_shape(x.shape, pads), dtype=g.dtype)
    offsets, _ = _geometry(x, pool_size, strides, pads)
    for _, where in offsets:
        dxp[where] += share
    return (W.crop_spatial(dxp, pads),)
