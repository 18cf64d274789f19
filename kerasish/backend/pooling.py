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
    xp = W.pad_spatial(x, pads, -np.inf)
    offsets, _ = _geometry(x, pool_size, strides, pads)
    out = None
    for _, where in offsets:
        if out is None:
            out = xp[where].copy()
        else:
            np.maximum(out, xp[where], out=out)
    return out


@max_pool.defvjp
def _max_pool_vjp(g, out, x, *, pool_size, strides, pads):
    xp = W.pad_spatial(x, pads, -np.inf)
    dxp = np.zeros(xp.shape, dtype=g.dtype)
    offsets, _ = _geometry(x, pool_size, strides, pads)
    unclaimed = np.ones(out.shape, dtype=bool)
    hit = np.empty(out.shape, dtype=bool)
    for _, where in offsets:
        np.equal(xp[where], out, out=hit)
        hit &= unclaimed
        unclaimed &= ~hit
        dxp[where] += g * hit
    return (W.crop_spatial(dxp, pads),)


def _window_counts(x, pool_size, strides, pads):
    """How many real (unpadded) entries each window covers."""
    if not any(lo or hi for lo, hi in pads):
        return math.prod(pool_size)
    ones = np.ones((1,) + x.shape[1:-1] + (1,), dtype=x.dtype)
    return _window_sum(W.pad_spatial(ones, pads), pool_size, strides, pads,
                       ones)


def _window_sum(xp, pool_size, strides, pads, x):
    offsets, _ = _geometry(x, pool_size, strides, pads)
    total = None
    for _, where in offsets:
        if total is None:
            total = xp[where].copy()
        else:
            total += xp[where]
    return total


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
