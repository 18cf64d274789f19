"""Convolution and pooling primitives: parity with direct loops, VJPs.

The references here are written the slow, obvious way (a Python loop over
output positions and kernel offsets), independent of the strided-view and
col2im machinery under test.
"""
import itertools

import numpy as np
import pytest

import kerasish
from kerasish.backend import conv as C
from kerasish.backend import pooling as P
from kerasish.backend import windows as W
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


def direct_conv(x, kernel, strides, pads, dilation, groups):
    """Cross-correlation by explicit loops (float64)."""
    xp = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])
    k, (cg, f) = kernel.shape[:-2], kernel.shape[-2:]
    out = [(n - (kk - 1) * d - 1) // s + 1
           for n, kk, d, s in zip(xp.shape[1:-1], k, dilation, strides)]
    y = np.zeros((x.shape[0],) + tuple(out) + (f,))
    fg = f // groups
    for o in itertools.product(*[range(n) for n in out]):
        for off in itertools.product(*[range(kk) for kk in k]):
            pos = tuple(oi * s + ki * d for oi, s, ki, d in
                        zip(o, strides, off, dilation))
            v = xp[(slice(None),) + pos]
            for g in range(groups):
                y[(slice(None),) + o + (slice(g * fg, (g + 1) * fg),)] += \
                    v[:, g * cg:(g + 1) * cg] @ kernel[off][:, g * fg:
                                                           (g + 1) * fg]
    return y


CONV_CASES = [
    # (input shape, kernel shape, strides, pads, dilation)
    ((2, 7, 3), (3, 3, 4), (1,), ((0, 0),), (1,)),
    ((2, 8, 4), (2, 2, 6), (3,), ((1, 2),), (1,)),
    ((2, 6, 5, 4), (3, 2, 4, 6), (2, 1), ((1, 1), (0, 1)), (1, 1)),
    ((2, 6, 5, 4), (2, 2, 1, 8), (1, 1), ((2, 1), (1, 0)), (2, 2)),
    ((2, 6, 5, 4), (3, 3, 2, 6), (1, 2), ((1, 1), (1, 1)), (1, 1)),
    ((1, 4, 5, 3, 2), (2, 3, 2, 2, 3), (1, 2, 1), ((0, 1), (1, 1), (0, 0)),
     (1, 1, 1)),
]


@pytest.mark.parametrize("xs, ks, strides, pads, dilation", CONV_CASES)
def test_conv_matches_direct_loops_and_grads(xs, ks, strides, pads,
                                             dilation):
    x, kernel = rng.standard_normal(xs), rng.standard_normal(ks)
    groups = xs[-1] // ks[-2]
    params = dict(strides=strides, pads=pads, dilation=dilation,
                  groups=groups)
    np.testing.assert_allclose(C.conv(x, kernel, **params).numpy(),
                               direct_conv(x, kernel, strides, pads,
                                           dilation, groups), atol=1e-12)
    check_grads(lambda a, b: C.conv(a, b, **params), [x, kernel])


@pytest.mark.parametrize("relu", [False, True])
def test_conv_bias_is_conv_plus_bias(relu):
    x, kernel = rng.standard_normal((2, 6, 5, 4)), rng.standard_normal(
        (3, 3, 2, 6))
    bias = rng.standard_normal(6)
    params = dict(strides=(1, 2), pads=((1, 1), (0, 1)), dilation=(1, 1),
                  groups=2)
    y = C.conv_bias(x, kernel, bias, relu=relu, **params).numpy()
    expected = C.conv(x, kernel, **params).numpy() + bias
    np.testing.assert_allclose(y, np.maximum(expected, 0) if relu else
                               expected, atol=1e-12)
    check_grads(lambda a, b, c: C.conv_bias(a, b, c, relu=relu, **params),
                [x, kernel, bias])


def test_input_gradient_skipped_when_not_needed():
    x = rng.standard_normal((2, 5, 5, 1))
    kernel = kerasish.Variable(rng.standard_normal((3, 3, 1, 2)),
                               dtype="float64")
    params = dict(strides=(1, 1), pads=((0, 0), (0, 0)), dilation=(1, 1))
    with kerasish.GradientTape() as tape:
        tape.watch(kernel)
        y = C.conv(x, kernel, **params)
        total = kerasish.ops.sum(y)
    (record,) = [r for r in tape._records if r.prim is C.conv]
    assert record.needs == (False, True)
    dk = tape.gradient(total, kernel)
    cols = W.window_view(x, (3, 3), (1, 1), (1, 1), (3, 3))
    np.testing.assert_allclose(np.asarray(dk)[..., 0, 0],
                               cols.sum(axis=(0, 1, 2))[..., 0])


def direct_conv_transpose(x, kernel, strides, dilation):
    """Scatter each input entry times the kernel (uncropped output)."""
    k = kernel.shape[:-2]
    full = [(n - 1) * s + (kk - 1) * d + 1 for n, s, kk, d in
            zip(x.shape[1:-1], strides, k, dilation)]
    y = np.zeros((x.shape[0],) + tuple(full) + (kernel.shape[-2],))
    for i in itertools.product(*[range(n) for n in x.shape[1:-1]]):
        for off in itertools.product(*[range(kk) for kk in k]):
            pos = tuple(ii * s + o * d for ii, s, o, d in
                        zip(i, strides, off, dilation))
            y[(slice(None),) + pos] += x[(slice(None),) + i] @ \
                kernel[off].T
    return y


@pytest.mark.parametrize("starts, sizes", [((0, 0), (9, 5)),
                                           ((1, 0), (7, 5)),
                                           ((1, 1), (9, 6))])
def test_conv_transpose_is_cropped_scatter(starts, sizes):
    x, kernel = rng.standard_normal((2, 4, 3, 3)), rng.standard_normal(
        (3, 2, 5, 3))
    params = dict(strides=(2, 1), starts=starts, sizes=sizes,
                  dilation=(1, 2))
    full = direct_conv_transpose(x, kernel, (2, 1), (1, 2))
    expected = np.zeros((2,) + sizes + (5,))
    crop = full[:, starts[0]:starts[0] + sizes[0],
                starts[1]:starts[1] + sizes[1]]
    expected[:, :crop.shape[1], :crop.shape[2]] = crop
    np.testing.assert_allclose(C.conv_transpose(x, kernel, **params).numpy(),
                               expected, atol=1e-12)
    check_grads(lambda a, b: C.conv_transpose(a, b, **params), [x, kernel])


def direct_pool(x, reduce, pool, strides, pads, fill):
    xp = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)], constant_values=fill)
    out = [(n - p) // s + 1 for n, p, s in zip(xp.shape[1:-1], pool,
                                               strides)]
    y = np.zeros((x.shape[0],) + tuple(out) + (x.shape[-1],))
    for o in itertools.product(*[range(n) for n in out]):
        window = tuple(slice(oi * s, oi * s + p) for oi, s, p in
                       zip(o, strides, pool))
        y[(slice(None),) + o] = reduce(xp[(slice(None),) + window])
    return y


POOL_CASES = [((2, 7, 3), (3,), (2,)), ((2, 6, 5, 2), (2, 2), (2, 2)),
              ((2, 6, 5, 2), (3, 2), (1, 2)), ((1, 4, 5, 3, 2), (2, 3, 2),
                                               (2, 1, 1))]


@pytest.mark.parametrize("shape, pool, strides", POOL_CASES)
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_max_pool_parity_and_grads(shape, pool, strides, padding):
    x = rng.standard_normal(shape)
    pads = W.spatial_padding(shape[1:-1], pool, strides, padding)
    params = dict(pool_size=pool, strides=strides, pads=pads)
    axes = tuple(range(1, 1 + len(pool)))
    expected = direct_pool(x, lambda w: w.max(axis=axes), pool, strides,
                           pads, -np.inf)
    np.testing.assert_array_equal(P.max_pool(x, **params).numpy(), expected)
    check_grads(lambda a: P.max_pool(a, **params), [x])


@pytest.mark.parametrize("shape, pool, strides", POOL_CASES)
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_average_pool_counts_only_real_entries(shape, pool, strides,
                                               padding):
    x = rng.standard_normal(shape)
    pads = W.spatial_padding(shape[1:-1], pool, strides, padding)
    params = dict(pool_size=pool, strides=strides, pads=pads)
    axes = tuple(range(1, 1 + len(pool)))
    nan_mean = lambda w: np.nanmean(w, axis=axes)  # noqa: E731
    expected = direct_pool(x, nan_mean, pool, strides, pads, np.nan)
    np.testing.assert_allclose(P.average_pool(x, **params).numpy(),
                               expected, atol=1e-12)
    check_grads(lambda a: P.average_pool(a, **params), [x])


def test_max_pool_gradient_goes_to_first_maximum():
    # Ties: XLA's select_and_scatter (Keras on JAX) picks the first maximum
    # in row-major window order; values checked against Keras 3.15/JAX.
    x = np.array([[1, 3, 3, 0], [3, 2, 0, 0], [5, 5, 1, 2], [5, 5, 2, 1]],
                 "float32").reshape(1, 4, 4, 1)
    xv = kerasish.Variable(x)
    with kerasish.GradientTape() as tape:
        tape.watch(xv)
        y = P.max_pool(xv, pool_size=(2, 2), strides=(2, 2),
                       pads=((0, 0), (0, 0)))
        total = kerasish.ops.sum(y)
    g = np.asarray(tape.gradient(total, xv))[0, :, :, 0]
    np.testing.assert_array_equal(g, [[0, 1, 1, 0], [0, 0, 0, 0],
                                      [1, 0, 0, 1], [0, 0, 0, 0]])


def test_overlapping_max_pool_windows_accumulate():
    # Stride 1, window 2 over equal values: each window credits its first
    # entry, so positions 0..2 get one share each (Keras/JAX: [1, 1, 1, 0]).
    xv = kerasish.Variable(np.ones((1, 4, 1), "float32"))
    with kerasish.GradientTape() as tape:
        tape.watch(xv)
        y = P.max_pool(xv, pool_size=(2,), strides=(1,), pads=((0, 0),))
        total = kerasish.ops.sum(y)
    g = tape.gradient(total, xv)
    np.testing.assert_array_equal(np.asarray(g).ravel(), [1, 1, 1, 0])


@pytest.mark.parametrize("size, window, stride, expected", [
    (5, 3, 1, (1, 1)), (5, 3, 2, (1, 1)), (6, 3, 2, (0, 1)),
    (7, 2, 3, (0, 1)), (4, 1, 1, (0, 0)), (5, 4, 1, (1, 2))])
def test_same_padding_puts_the_extra_after(size, window, stride, expected):
    assert W.same_padding(size, window, stride) == expected
    lo, hi = expected
    assert (size + lo + hi - window) // stride + 1 == -(-size // stride)


def test_col2im_is_the_adjoint_of_the_window_view():
    x = rng.standard_normal((2, 7, 6, 3))
    out = W.output_sizes((7, 6), ((0, 0), (0, 0)), (3, 3), (2, 1))
    view = W.window_view(x, (2, 2), (2, 1), (2, 1), out)
    dwin = rng.standard_normal(view.shape)
    back = W.col2im(dwin, x.shape, (2, 1), (2, 1))
    np.testing.assert_allclose(np.vdot(view, dwin), np.vdot(x, back))
