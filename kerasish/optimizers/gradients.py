"""Gradient helpers for optimizers: dense arrays or row gradients alike.

A gradient reaching an optimizer is either a numpy array or a
deduplicated `IndexedSlices` (embedding rows); clipping and scaling act on
its values either way. Norms are computed in the gradient's dtype, as Keras
computes them, so clipped float32 gradients match Keras's bit for bit in
the common cases.
"""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.tensor import Tensor


def as_array(g):
    """Unwrap a Tensor; keep `IndexedSlices` and `None` as they are."""
    if g is None or isinstance(g, IndexedSlices):
        return g
    return g._value if isinstance(g, Tensor) else np.asarray(g)


def values_of(g):
    return g.values if isinstance(g, IndexedSlices) else g


def map_values(g, fn):
    """`fn` applied to the gradient's values (rows or the whole array)."""
    if isinstance(g, IndexedSlices):
        return IndexedSlices(g.indices, fn(g.values), g.dense_shape)
    return fn(g)


def scale(g, factor):
    return map_values(g, lambda a: a * np.asarray(factor, a.dtype))


def clip_by_norm(g, clipnorm):
    """`g * clipnorm / max(||g||, clipnorm)` (unchanged when ||g|| = 0)."""
    values = values_of(g)
    l2sum = np.sum(np.square(values))
    if not l2sum > 0:
        return g
    l2 = np.sqrt(l2sum)
    clip = np.asarray(clipnorm, values.dtype)
    return map_values(g, lambda a: (a * clip) / np.maximum(l2, clip))


def clip_by_global_norm(grads, clipnorm):
    """Scale all gradients by `clipnorm * min(1 / norm, 1 / clipnorm)`."""
    squared = [np.sum(np.square(values_of(g))) for g in grads]
    norm = np.sqrt(np.sum(np.asarray(squared)))
    with np.errstate(divide="ignore"):
        factor = clipnorm * np.minimum(1.0 / norm, 1.0 / clipnorm)
    return [scale(g, factor) for g in grads]


def clip_by_value(g, clipvalue):
    return map_values(g, lambda a: np.clip(a, -clipvalue, clipvalue))


def densify(g, dtype):
    """A dense array of `dtype` for a dense or row gradient."""
    if isinstance(g, IndexedSlices):
        return g.to_dense().astype(dtype, copy=False)
    return g.astype(dtype, copy=False)
