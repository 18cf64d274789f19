"""Sliding windows over the spatial axes of channels-last arrays.

Shared by the convolution and pooling primitives: the padding XLA (and so
Keras) applies for `"valid"`/`"same"`, a strided view of every window (no
copy), and the adjoint of that view (col2im), which adds window gradients
back into the input one kernel offset at a time. That loop runs over the
`kh * kw` offsets, never over samples, and needs no `np.add.at`: for a fixed
offset the windows touch distinct input positions.

Arrays are `(batch, *spatial, channels)`; `pads` is one `(lo, hi)` pair per
spatial axis.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


def dilated(kernel, dilation):
    """Extent of each kernel axis once dilated: `(k - 1) * d + 1`."""
    return tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation))


def same_padding(size, window, stride):
    """XLA's `"SAME"` `(lo, hi)` padding: output `ceil(size / stride)`."""
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def spatial_padding(sizes, windows, strides, padding):
    """`(lo, hi)` per spatial axis for `padding` in `"valid"`, `"same"`."""
    if padding == "valid":
        return tuple((0, 0) for _ in sizes)
    return tuple(same_padding(n, w, s)
                 for n, w, s in zip(sizes, windows, strides))


def output_sizes(sizes, pads, windows, strides):
    """Number of window positions along each spatial axis."""
    return tuple((n + lo + hi - w) // s + 1
                 for n, (lo, hi), w, s in zip(sizes, pads, windows, strides))


def spatial_index(ranges):
    return (slice(None),) + tuple(ranges) + (slice(None),)


def padded_shape(shape, pads):
    """`shape` with `pads` added to its spatial axes."""
    return (shape[0],) + tuple(n + lo + hi for n, (lo, hi) in
                               zip(shape[1:-1], pads)) + (shape[-1],)


def pad_spatial(x, pads, value=0):
    """`x` with `pads` added around its spatial axes, filled with `value`."""
    if not any(lo or hi for lo, hi in pads):
        return x
    out = np.full(padded_shape(x.shape, pads), value, dtype=x.dtype)
    out[spatial_index(slice(lo, lo + n) for n, (lo, _) in
                       zip(x.shape[1:-1], pads))] = x
    return out


def crop_spatial(x, pads):
    """Inverse of `pad_spatial`: drop `pads` from the spatial axes."""
    if not any(lo or hi for lo, hi in pads):
        return x
    return x[spatial_index(slice(lo, n - hi) for n, (lo, hi) in
                            zip(x.shape[1:-1], pads))]


def window_view(xp, kernel, strides, dilation, out):
    """Read-only view `(batch, *out, *kernel, channels)` of every window."""
    s = xp.strides
    rank = len(kernel)
    shape = (xp.shape[0],) + tuple(out) + tuple(kernel) + (xp.shape[-1],)
    steps = ((s[0],) + tuple(s[1 + i] * strides[i] for i in range(rank)) +
             tuple(s[1 + i] * dilation[i] for i in range(rank)) + (s[-1],))
    return as_strided(xp, shape, steps, writeable=False)


def gather_windows(xp, kernel, strides, dilation, out, ones=False):
    """The im2col matrix: every window of `xp` as one contiguous row.

    Returns `(batch * prod(out), prod(kernel) * C)`, plus a last column of
    ones when `ones` (so that one GEMM also adds a bias row). With few
    channels numpy's generic strided copy moves one element at a time, so
    the copy goes offset by offset instead; with many it is one call.
    """
    rows = xp.shape[0] * math.prod(out)
    width = math.prod(kernel) * xp.shape[-1]
    view = window_view(xp, kernel, strides, dilation, out)
    if not ones and xp.shape[-1] >= 16:
        return np.ascontiguousarray(view).reshape(rows, width)
    cols = np.empty((rows, width + ones), dtype=xp.dtype)
    windows = cols[:, :width].reshape(view.shape)
    if xp.shape[-1] >= 16:
        np.copyto(windows, view)
    else:
        lead = (slice(None),) * (1 + len(out))
        for offset, where in offset_slices(kernel, strides, dilation, out):
            windows[lead + offset] = xp[where]
    if ones:
        cols[:, width] = 1
    return cols


def offset_slices(kernel, strides, dilation, out):
    """For each kernel offset: the slice of the padded input it reads.

    `xp[slices]` has shape `(batch, *out, channels)`: the input value each
    window sees at that offset.
    """
    for offset in np.ndindex(*kernel):
        yield offset, spatial_index(
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(offset, dilation, strides, out))


def col2im(dwin, shape, strides, dilation):
    """Adjoint of `window_view`: sum `(batch, *out, *kernel, C)` windows
    back into a zero array of the padded input's `shape`."""
    rank = len(shape) - 2
    out = dwin.shape[1:1 + rank]
    kernel = dwin.shape[1 + rank:1 + 2 * rank]
    dx = np.zeros(shape, dtype=dwin.dtype)
    lead = (slice(None),) * (1 + rank)
    for offset, where in offset_slices(kernel, strides, dilation, out):
        dx[where] += dwin[lead + offset]
    return dx
