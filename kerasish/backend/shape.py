"""Shape and indexing primitives: reshape, transpose, concat, gather, ...

Scatter-style gradients (gather, advanced indexing) use `np.bincount` over
flat positions or `IndexedSlices` rows, never `np.add.at`.
"""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.primitive import primitive
from kerasish.backend.primitive import unbroadcast


@primitive
def reshape(x, *, shape):
    return np.reshape(x, shape)


@reshape.defvjp
def _reshape_vjp(g, out, x, *, shape):
    return (g.reshape(x.shape),)


@primitive
def transpose(x, *, axes=None):
    return np.transpose(x, axes)


@transpose.defvjp
def _transpose_vjp(g, out, x, *, axes=None):
    if axes is None:
        return (np.transpose(g),)
    return (np.transpose(g, np.argsort([a % x.ndim for a in axes])),)


@primitive
def broadcast_to(x, *, shape):
    return np.broadcast_to(x, shape)


@broadcast_to.defvjp
def _broadcast_to_vjp(g, out, x, *, shape):
    return (unbroadcast(g, x),)


@primitive
def concatenate(*xs, axis=0):
    return np.concatenate(xs, axis=axis)


@concatenate.defvjp
def _concatenate_vjp(g, out, *xs, axis=0):
    ends = np.cumsum([x.shape[axis] for x in xs])[:-1]
    return tuple(np.split(g, ends, axis=axis))


@primitive
def stack(*xs, axis=0):
    return np.stack(xs, axis=axis)


@stack.defvjp
def _stack_vjp(g, out, *xs, axis=0):
    return tuple(np.moveaxis(g, axis, 0))


def _is_basic_key(key):
    items = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice,
                                                            np.integer))
               for k in items)


def _scatter_add(shape, positions, g):
    """Sum `g` into a zero array of `shape` at flat `positions`."""
    flat = np.bincount(positions.ravel(), weights=g.ravel(),
                       minlength=int(np.prod(shape)))
    return flat.reshape(shape).astype(g.dtype, copy=False)


@primitive
def getitem(x, *, key):
    return x[key]


@getitem.defvjp
def _getitem_vjp(g, out, x, *, key):
    if _is_basic_key(key) or _is_bool_key(key):
        dx = np.zeros(x.shape, g.dtype)
        dx[key] = g
        return (dx,)
    positions = np.arange(x.size).reshape(x.shape)[key]
    return (_scatter_add(x.shape, positions, g),)


def _is_bool_key(key):
    return isinstance(key, np.ndarray) and key.dtype == bool


@primitive
def take(x, indices, *, axis=None):
    return np.take(x, indices, axis=axis)


take.reads_rows = True      # see `Primitive.reads_rows`


@take.defvjp
def _take_vjp(g, out, x, indices, *, axis=None):
    indices = np.asarray(indices)
    if axis is None:
        flat = np.take(np.arange(x.size), indices)
        return (_scatter_add(x.shape, flat, g), None)
    axis = axis % x.ndim
    if axis == 0:
        rows = g.reshape((-1,) + x.shape[1:])
        return (IndexedSlices(indices.ravel(), rows, x.shape), None)
    positions = np.take(np.arange(x.size).reshape(x.shape), indices,
                        axis=axis)
    return (_scatter_add(x.shape, positions, g), None)


@primitive
def take_along_axis(x, indices, *, axis):
    return np.take_along_axis(x, indices, axis=axis)


@take_along_axis.defvjp
def _take_along_axis_vjp(g, out, x, indices, *, axis):
    positions = np.take_along_axis(np.arange(x.size).reshape(x.shape),
                                   np.asarray(indices), axis=axis)
    return (_scatter_add(x.shape, positions, g), None)


@primitive
def pad(x, *, pad_width, mode="constant", constant_values=0):
    if mode == "constant":
        return np.pad(x, pad_width, mode=mode,
                      constant_values=constant_values)
    return np.pad(x, pad_width, mode=mode)


@pad.defvjp
def _pad_vjp(g, out, x, *, pad_width, mode="constant", constant_values=0):
    if mode == "constant":
        key = tuple(slice(lo, lo + n)
                    for (lo, _), n in zip(pad_width, x.shape))
        return (g[key],)
    # reflect/symmetric/edge/wrap: pad the positions the same way.
    positions = np.pad(np.arange(x.size).reshape(x.shape), pad_width,
                       mode=mode)
    return (_scatter_add(x.shape, positions, g),)


@primitive
def tile(x, *, repeats):
    return np.tile(x, repeats)


@tile.defvjp
def _tile_vjp(g, out, x, *, repeats):
    reps = (1,) * (g.ndim - len(repeats)) + tuple(repeats)
    shape = (1,) * (g.ndim - x.ndim) + x.shape
    split = []
    for r, n in zip(reps, shape):
        split += [r, n]
    summed = g.reshape(split).sum(axis=tuple(range(0, len(split), 2)))
    return (summed.reshape(x.shape),)


@primitive
def repeat(x, *, repeats, axis=None):
    return np.repeat(x, repeats, axis=axis)


@repeat.defvjp
def _repeat_vjp(g, out, x, *, repeats, axis=None):
    if axis is None:
        src = np.repeat(np.arange(x.size), repeats)
        return (_scatter_add(x.shape, src, g),)
    positions = np.repeat(np.arange(x.size).reshape(x.shape), repeats,
                          axis=axis)
    return (_scatter_add(x.shape, positions, g),)


@primitive
def flip(x, *, axis=None):
    return np.flip(x, axis=axis)


@flip.defvjp
def _flip_vjp(g, out, x, *, axis=None):
    return (np.flip(g, axis=axis),)


@primitive
def roll(x, *, shift, axis=None):
    return np.roll(x, shift, axis=axis)


@roll.defvjp
def _roll_vjp(g, out, x, *, shift, axis=None):
    neg = tuple(-s for s in shift) if isinstance(shift, tuple) else -shift
    return (np.roll(g, neg, axis=axis),)


@primitive
def moveaxis(x, *, source, destination):
    return np.moveaxis(x, source, destination)


@moveaxis.defvjp
def _moveaxis_vjp(g, out, x, *, source, destination):
    return (np.moveaxis(g, destination, source),)


@primitive
def cast(x, *, dtype):
    return np.asarray(x).astype(dtype, copy=False)


@cast.defvjp
def _cast_vjp(g, out, x, *, dtype):
    kind = np.asarray(x).dtype
    if kind.kind not in "fc" and kind.name != "bfloat16":
        return (None,)
    return (g.astype(np.asarray(x).dtype, copy=False),)


@primitive
def identity(x):
    return np.array(x, copy=True)


@identity.defvjp
def _identity_vjp(g, out, x):
    return (g,)
