"""Convolution primitives: im2col through a strided view, one GEMM per call.

`conv` is XLA's `conv_general_dilated` on channels-last arrays (strides,
explicit `(lo, hi)` padding, kernel dilation, feature groups);
`conv_transpose` is its adjoint with respect to the input, which is how XLA
and Keras define a transposed convolution. Both VJPs are hand-written:

* forward: every window as a `(groups, N*O, K*Cg)` matrix (one copy out of a
  strided view), times the kernel as `(groups, K*Cg, F/groups)`;
* kernel gradient: `cols^T @ g`, reusing the forward's `cols`;
* input gradient: `g @ kernel^T`, folded back into the input by `col2im`,
  and skipped when the input needs no gradient (a network's first layer).

`conv_bias` fuses the bias and an optional ReLU into the GEMM's output
buffer (the hot path of every CNN), as `linalg.affine` does for Dense; the
arithmetic is the same as the separate ops.
"""
import math

import numpy as np

from kerasish.backend import windows as W
from kerasish.backend.primitive import primitive


def _gemm(a, b):
    """Batched `a @ b` over groups; a plain 2-D GEMM for one group."""
    if a.shape[0] == 1:
        return (a[0] @ b[0])[None]
    return np.matmul(a, b)


def _group_kernel(kernel, groups):
    """`(*k, Cg, F)` -> `(groups, K*Cg, F / groups)`."""
    cg, f = kernel.shape[-2:]
    k = math.prod(kernel.shape[:-2])
    if groups == 1:
        return kernel.reshape(1, k * cg, f)
    grouped = kernel.reshape(k, cg, groups, f // groups)
    return grouped.transpose(2, 0, 1, 3).reshape(groups, k * cg, -1)


def _ungroup_kernel(wg, kernel_shape):
    """Inverse of `_group_kernel`."""
    groups = wg.shape[0]
    if groups == 1:
        return wg.reshape(kernel_shape)
    cg, f = kernel_shape[-2:]
    k = math.prod(kernel_shape[:-2])
    grouped = wg.reshape(groups, k, cg, f // groups)
    return grouped.transpose(1, 2, 0, 3).reshape(kernel_shape)


def im2col(x, kernel_size, strides, pads, dilation, groups=1, ones=False):
    """Every window of `x` as a `(groups, N*O, K*Cg)` matrix, and `O`.

    `ones` (one group only) appends a column of ones for a bias row.
    """
    xp = W.pad_spatial(x, pads)
    out = W.output_sizes(x.shape[1:-1], pads,
                         W.dilated(kernel_size, dilation), strides)
    rows = x.shape[0] * math.prod(out)
    if groups == 1:
        cols = W.gather_windows(xp, kernel_size, strides, dilation, out,
                                ones)
        return cols[None], out
    view = W.window_view(xp, kernel_size, strides, dilation, out)
    split = view.reshape(view.shape[:-1] + (groups, -1))
    return np.moveaxis(split, -2, 0).reshape(groups, rows, -1), out


def _rows(g, groups):
    """Output gradient `(N, *O, F)` as `(groups, N*O, F / groups)`."""
    rows = g.reshape(1, -1, g.shape[-1])
    if groups == 1:
        return rows
    return rows.reshape(rows.shape[1], groups, -1).transpose(1, 0, 2)


def _unrows(y, lead_shape):
    """Inverse of `_rows`: `(groups, N*O, Fg)` -> `(*lead_shape, F)`."""
    if y.shape[0] == 1:
        return y[0].reshape(lead_shape + (-1,))
    return y.transpose(1, 0, 2).reshape(lead_shape + (-1,))


def fold_windows(rows, wg, shape, kernel_size, strides, dilation):
    """`rows @ wg^T` summed back into a zero array of `shape` (col2im).

    With one group this runs offset by offset: a small GEMM per kernel
    offset added straight into its strided slice, which keeps the
    products in cache instead of materialising all `N*O x K*C` of them.
    """
    rank = len(kernel_size)
    out = W.output_sizes(shape[1:-1], ((0, 0),) * rank,
                         W.dilated(kernel_size, dilation), strides)
    if rows.shape[0] == 1:
        return _fold_by_offset(rows[0], wg[0], shape, kernel_size, strides,
                               dilation, out)
    dcols = _gemm(rows, wg.transpose(0, 2, 1))
    groups = dcols.shape[0]
    win_shape = (shape[0],) + out + tuple(kernel_size) + (-1,)
    dwin = np.moveaxis(dcols.reshape((groups,) + win_shape), 0, -2)
    dwin = dwin.reshape(win_shape[:-1] + (shape[-1],))
    return W.col2im(dwin, shape, strides, dilation)


def _fold_by_offset(rows, w, shape, kernel_size, strides, dilation, out):
    per_offset = w.reshape(math.prod(kernel_size), shape[-1], -1)
    dx = np.zeros(shape, dtype=np.result_type(rows, w))
    part = np.empty((rows.shape[0], shape[-1]), dtype=dx.dtype)
    part_shape = (shape[0],) + tuple(out) + (shape[-1],)
    offsets = W.offset_slices(kernel_size, strides, dilation, out)
    for k, (_, where) in enumerate(offsets):
        np.matmul(rows, per_offset[k].T, out=part)
        dx[where] += part.reshape(part_shape)
    return dx


def _forward(x, kernel, strides, pads, dilation, groups, bias=None):
    """The convolution, plus `bias` through a ones column of `cols` when
    there is one group (no separate pass over the output)."""
    folded = bias is not None and groups == 1
    cols, out = im2col(x, kernel.shape[:-2], strides, pads, dilation, groups,
                       ones=folded)
    wg = _group_kernel(kernel, groups)
    if folded:
        wg = np.concatenate([wg, bias.reshape(1, 1, -1).astype(wg.dtype)],
                            axis=1)
    y = _unrows(_gemm(cols, wg), (x.shape[0],) + out)
    if bias is not None and not folded:
        y += bias
    return y, cols


def _grads(g, x, kernel, cols, strides, pads, dilation, groups, needs):
    """`(dx, dkernel, dbias)`; `dbias` comes from the ones column of `cols`
    when the forward folded the bias in, else it is None."""
    rows = _rows(g, groups)
    dx = dk = db = None
    folded = cols.shape[2] > math.prod(kernel.shape[:-1])
    if needs[1] or folded:
        dw = _gemm(cols.transpose(0, 2, 1), rows)
        if folded:
            dw, db = dw[:, :-1], dw[0, -1]
        dk = _ungroup_kernel(dw, kernel.shape) if needs[1] else None
    if needs[0]:
        dxp = fold_windows(rows, _group_kernel(kernel, groups),
                           W.padded_shape(x.shape, pads),
                           kernel.shape[:-2], strides, dilation)
        dx = W.crop_spatial(dxp, pads)
    return dx, dk, db


@primitive(saves=True)
def conv(x, kernel, *, strides, pads, dilation, groups=1):
    """N-D cross-correlation of channels-last `x` with `(*k, C/groups, F)`.

    `pads` holds one `(lo, hi)` zero padding per spatial axis.
    """
    return _forward(x, kernel, strides, pads, dilation, groups)


@conv.defvjp
def _conv_vjp(g, out, x, kernel, *, strides, pads, dilation, groups=1,
              needs, saved):
    return _grads(g, x, kernel, saved, strides, pads, dilation, groups,
                  needs)[:2]


@primitive(saves=True)
def conv_bias(x, kernel, bias, *, strides, pads, dilation, groups=1,
              relu=False):
    """`conv(x, kernel) + bias`, then `relu` if asked: a whole Conv layer."""
    out, cols = _forward(x, kernel, strides, pads, dilation, groups, bias)
    if relu:
        np.maximum(out, 0, out=out)
    return out, cols


@conv_bias.defvjp
def _conv_bias_vjp(g, out, x, kernel, bias, *, strides, pads, dilation,
                   groups=1, relu=False, needs, saved):
    if relu:
        g = g * (out > 0)
    dx, dk, db = _grads(g, x, kernel, saved, strides, pads, dilation, groups,
                        needs)
    if not needs[2]:
        db = None
    elif db is None:
        db = _column_sums(g)
    return dx, dk, db


def _column_sums(g):
    """`g` summed over every axis but the last, as one GEMV: numpy's
    axis-0 sum of a tall array is several times slower."""
    rows = g.reshape(-1, g.shape[-1])
    return np.ones(rows.shape[0], dtype=rows.dtype) @ rows


# -- transposed convolution --------------------------------------------------
def _full_sizes(sizes, kernel_size, strides, dilation):
    """Length of the uncropped transposed output: `(i-1)*s + k_eff`."""
    return tuple((n - 1) * s + k for n, s, k in
                 zip(sizes, strides, W.dilated(kernel_size, dilation)))


def _fit(full, starts, sizes):
    """`full[start:start+size]` per spatial axis, zero beyond its end."""
    ends = [min(s + n, f) for s, n, f in zip(starts, sizes, full.shape[1:-1])]
    if all(s + n == e for s, n, e in zip(starts, sizes, ends)):
        return full[W.spatial_index(slice(s, s + n)
                                     for s, n in zip(starts, sizes))]
    out = np.zeros((full.shape[0],) + tuple(sizes) + (full.shape[-1],),
                   dtype=full.dtype)
    out[W.spatial_index(slice(0, e - s) for s, e in zip(starts, ends))] = \
        full[W.spatial_index(slice(s, e) for s, e in zip(starts, ends))]
    return out


def _unfit(g, starts, full_sizes):
    """Adjoint of `_fit`: place `g` back into a zero `full_sizes` array."""
    full = np.zeros((g.shape[0],) + tuple(full_sizes) + (g.shape[-1],),
                    dtype=g.dtype)
    ends = [min(s + n, f) for s, n, f in
            zip(starts, g.shape[1:-1], full_sizes)]
    full[W.spatial_index(slice(s, e) for s, e in zip(starts, ends))] = \
        g[W.spatial_index(slice(0, e - s) for s, e in zip(starts, ends))]
    return full


@primitive
def conv_transpose(x, kernel, *, strides, starts, sizes, dilation):
    """Adjoint of `conv` w.r.t. its input, cropped to `sizes` at `starts`.

    `kernel` is `(*k, F, C)` for `C` input and `F` output channels (Keras's
    layout). The uncropped result has `(i - 1) * stride + k_eff` positions
    per axis; `starts`/`sizes` select the part Keras's padding keeps
    (zeros past the end, for `output_padding`).
    """
    k = kernel.shape[:-2]
    full = (x.shape[0],) + _full_sizes(x.shape[1:-1], k, strides,
                                       dilation) + (kernel.shape[-2],)
    rows = x.reshape(1, -1, x.shape[-1])
    y = fold_windows(rows, kernel.reshape(1, -1, kernel.shape[-1]), full,
                     k, strides, dilation)
    return _fit(y, starts, sizes)


@conv_transpose.defvjp
def _conv_transpose_vjp(g, out, x, kernel, *, strides, starts, sizes,
                        dilation, needs):
    k = kernel.shape[:-2]
    g_full = _unfit(g, starts, _full_sizes(x.shape[1:-1], k, strides,
                                           dilation))
    pads = ((0, 0),) * len(k)
    cols, _ = im2col(g_full, k, strides, pads, dilation)
    wg = kernel.reshape(1, -1, kernel.shape[-1])
    rows = x.reshape(1, -1, x.shape[-1])
    dx = _gemm(cols, wg)[0].reshape(x.shape) if needs[0] else None
    dk = None
    if needs[1]:
        dk = _gemm(cols.transpose(0, 2, 1), rows)[0].reshape(kernel.shape)
    return dx, dk
