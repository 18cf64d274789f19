"""Padding of `Dataset.padded_batch`: tf.data's rules for padded shapes
(`None` / -1 pads to the longest in the batch, a size smaller than an
element is an error) and padding values (0, or "" for strings)."""
import numpy as np

from kerasish import tree


def _per_component(first, value):
    """`value` given per component of `first` -> one entry per component.

    A value that is not nested (a padding scalar) serves every component;
    so does any value for an element of one component (a shape there is
    one list).
    """
    count = len(tree.flatten(first))
    if value is None or not tree.is_nested(first):
        return [value] * count
    if not tree.is_nested(value):
        return [value] * count
    return [leaf.value for leaf in tree.flatten(
        tree.map_structure_up_to(first, _Leaf, value))]


class _Leaf:
    """Keeps a shape (a list) whole while a structure is flattened."""

    def __init__(self, value):
        self.value = value


def _target_shape(arrays, shape, index):
    rank = arrays[0].ndim
    if any(a.ndim != rank for a in arrays):
        raise ValueError(
            "padded_batch: the elements of a batch must have the same rank "
            f"in component {index}. Received shapes "
            f"{[a.shape for a in arrays]}")
    longest = [max(a.shape[axis] for a in arrays) for axis in range(rank)]
    if shape is None:
        return longest
    given = shape
    shape = list(shape) if isinstance(shape, (list, tuple)) else \
        np.atleast_1d(shape).tolist()
    if len(shape) != rank:
        raise ValueError(
            f"padded_batch: padded_shapes for component {index} must have "
            f"rank {rank}. Received: padded_shapes={given!r}")
    target = [n if d is None or d == -1 else int(d)
              for d, n in zip(shape, longest)]
    if any(t < n for t, n in zip(target, longest)):
        raise ValueError(
            "padded_batch: attempted to pad to a smaller size than the "
            f"input element in component {index}. Received: element shapes "
            f"{[a.shape for a in arrays]}, padded_shapes={given!r}")
    return target


def pad_stack(elements, padded_shapes, padding_values):
    """Stack `elements` into one batch, each component padded at the end
    of its axes to its padded shape (the longest where unspecified)."""
    first = elements[0]
    flat = [tree.flatten(e) for e in elements]
    shapes = _per_component(first, padded_shapes)
    values = _per_component(first, padding_values)
    stacked = []
    for i, (shape, value) in enumerate(zip(shapes, values)):
        arrays = [np.asarray(f[i]) for f in flat]
        if value is None:
            value = "" if arrays[0].dtype.kind in "US" else 0
        target = _target_shape(arrays, shape, i)
        out = np.full([len(arrays)] + target, value, dtype=arrays[0].dtype)
        for j, a in enumerate(arrays):
            out[(j,) + tuple(slice(0, n) for n in a.shape)] = a
        stacked.append(out)
    return tree.pack_sequence_as(first, stacked) if tree.is_nested(first) \
        else stacked[0]
