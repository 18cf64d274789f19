"""Shape manipulation of `keras.ops.numpy`: reshape, transpose, joins,
splits, flips, tiling and padding, all differentiable."""
import builtins

import numpy as np

from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["reshape", "transpose", "swapaxes", "moveaxis", "expand_dims",
           "squeeze", "ravel", "broadcast_to", "concatenate", "stack",
           "hstack", "vstack", "dstack", "append", "split", "array_split",
           "hsplit", "vsplit", "dsplit", "tile", "repeat", "flip", "fliplr",
           "flipud", "rot90", "roll", "pad", "meshgrid"]


@keras_op
def reshape(x, newshape):
    """Give `x` a new shape with the same number of entries.

    Args:
        x: Input tensor.
        newshape: Int or tuple of ints; one entry may be -1 (or `None`).

    Returns:
        The reshaped tensor.

    Example:

    >>> reshape([1, 2, 3, 4], (2, -1)).shape
    (2, 2)
    """
    if isinstance(newshape, int):
        newshape = (newshape,)
    return S.reshape(convert_to_tensor(x), shape=tuple(
        -1 if d is None else int(d) for d in newshape))


@keras_op
def transpose(x, axes=None):
    """Permute the axes of `x` (reverse them when `axes` is `None`).

    Args:
        x: Input tensor.
        axes: Optional permutation of `range(x.ndim)`.

    Returns:
        The transposed tensor.

    Example:

    >>> transpose([[1, 2, 3]]).shape
    (3, 1)
    """
    return S.transpose(convert_to_tensor(x),
                       axes=None if axes is None else tuple(axes))


@keras_op
def swapaxes(x, axis1, axis2):
    """Interchange two axes.

    Args:
        x: Input tensor.
        axis1: First axis.
        axis2: Second axis.

    Returns:
        The tensor with the two axes swapped.

    Example:

    >>> swapaxes(np.zeros((2, 3, 4)), 0, 2).shape
    (4, 3, 2)
    """
    x = convert_to_tensor(x)
    axes = list(range(x.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return transpose(x, axes)


@keras_op
def moveaxis(x, source, destination):
    """Move axes to new positions, keeping the order of the others.

    Args:
        x: Input tensor.
        source: Int or sequence of ints, original positions.
        destination: Int or sequence of ints, new positions.

    Returns:
        The rearranged tensor.

    Example:

    >>> moveaxis(np.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    return S.moveaxis(convert_to_tensor(x), source=source,
                      destination=destination)


@keras_op
def expand_dims(x, axis):
    """Insert size-1 axes at `axis` (an int or a sequence of ints).

    Args:
        x: Input tensor.
        axis: Position(s) of the new axes in the result.

    Returns:
        The expanded tensor.

    Example:

    >>> expand_dims([1, 2], 0).shape
    (1, 2)
    """
    x = convert_to_tensor(x)
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    ndim = x.ndim + len(axes)
    shape = list(x.shape)
    for a in sorted(a % ndim for a in axes):
        shape.insert(a, 1)
    return S.reshape(x, shape=tuple(shape))


@keras_op
def squeeze(x, axis=None):
    """Remove size-1 axes (all of them, or those in `axis`).

    Args:
        x: Input tensor.
        axis: Optional int or sequence of ints.

    Returns:
        The squeezed tensor.

    Example:

    >>> squeeze(np.zeros((1, 3, 1))).shape
    (3,)
    """
    x = convert_to_tensor(x)
    if axis is None:
        return S.reshape(x, shape=tuple(n for n in x.shape if n != 1))
    axes = {a % x.ndim for a in (axis if isinstance(axis, (list, tuple))
                                 else (axis,))}
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError("Cannot squeeze an axis whose size is not 1. "
                             f"Received: axis={axis}, shape={x.shape}")
    return S.reshape(x, shape=tuple(n for i, n in enumerate(x.shape)
                                    if i not in axes))


@keras_op
def ravel(x):
    """Flatten `x` to 1-D.

    Args:
        x: Input tensor.

    Returns:
        A 1-D tensor.

    Example:

    >>> ravel([[1, 2], [3, 4]]).numpy()
    array([1, 2, 3, 4], dtype=int32)
    """
    return reshape(x, (-1,))


@keras_op
def broadcast_to(x, shape):
    """Broadcast `x` to `shape` (gradients are summed back).

    Args:
        x: Input tensor.
        shape: Target shape.

    Returns:
        The broadcast tensor.

    Example:

    >>> broadcast_to([1, 2], (3, 2)).shape
    (3, 2)
    """
    return S.broadcast_to(convert_to_tensor(x), shape=tuple(shape))


def _common(xs):
    """Tensors promoted to one dtype (Keras's rule: a float wins)."""
    from kerasish.backend.dtypes import result_type
    xs = [convert_to_tensor(x) for x in xs]
    dtype = result_type(*[x.dtype for x in xs])
    return [x if x.dtype == dtype else cast(x, dtype) for x in xs]


@keras_op
def concatenate(xs, axis=0):
    """Join tensors along an existing axis (`None`: flattened first).

    Args:
        xs: Sequence of tensors.
        axis: Axis to join along. Defaults to 0.

    Returns:
        The joined tensor.

    Example:

    >>> concatenate([[1, 2], [3]]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    xs = _common(xs)
    if axis is None:
        xs, axis = [reshape(x, (-1,)) for x in xs], 0
    return S.concatenate(*xs, axis=axis)


@keras_op
def stack(x, axis=0):
    """Join tensors of the same shape along a new axis.

    Args:
        x: Sequence of tensors.
        axis: Position of the new axis. Defaults to 0.

    Returns:
        The stacked tensor.

    Example:

    >>> stack([[1, 2], [3, 4]], axis=1).numpy()
    array([[1, 3],
           [2, 4]], dtype=int32)
    """
    return S.stack(*_common(x), axis=axis)


@keras_op
def hstack(xs):
    """Join horizontally (axis 1; axis 0 for 1-D tensors).

    Args:
        xs: Sequence of tensors.

    Returns:
        The joined tensor.

    Example:

    >>> hstack([[1], [2, 3]]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    xs = _common(xs)
    return concatenate(xs, axis=1 if xs[0].ndim > 1 else 0)


def _at_least(x, ndim):
    x = convert_to_tensor(x)
    if x.ndim >= ndim:
        return x
    if ndim == 2:
        return reshape(x, (1, -1) if x.ndim == 1 else (1, 1))
    shape = {0: (1, 1, 1), 1: (1, -1, 1), 2: tuple(x.shape) + (1,)}[x.ndim]
    return reshape(x, shape)


@keras_op
def vstack(xs):
    """Join vertically (axis 0, 1-D tensors become rows).

    Args:
        xs: Sequence of tensors.

    Returns:
        The joined tensor.

    Example:

    >>> vstack([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    return concatenate([_at_least(x, 2) for x in xs], axis=0)


@keras_op
def dstack(xs):
    """Join along the third axis (inputs are made at least 3-D).

    Args:
        xs: Sequence of tensors.

    Returns:
        The joined tensor.

    Example:

    >>> dstack([[1, 2], [3, 4]]).shape
    (1, 2, 2)
    """
    return concatenate([_at_least(x, 3) for x in xs], axis=2)


@keras_op
def append(x1, x2, axis=None):
    """Append `x2` to `x1` along `axis` (both flattened if `None`).

    Args:
        x1: Input tensor.
        x2: Values to append.
        axis: Axis or `None`. Defaults to `None`.

    Returns:
        The joined tensor.

    Example:

    >>> append([1, 2], [[3]]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    return concatenate([x1, x2], axis=axis)


def _pieces(x, bounds, axis):
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key = [builtins.slice(None)] * x.ndim
        key[axis] = builtins.slice(lo, hi)
        out.append(S.getitem(x, key=tuple(key)))
    return out


def _split(x, indices_or_sections, axis, equal):
    x = convert_to_tensor(x)
    axis = axis % x.ndim
    n = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        parts = int(indices_or_sections)
        if parts <= 0:
            raise ValueError("The number of sections must be a positive "
                             f"integer. Received: {indices_or_sections}")
        if equal and n % parts:
            raise ValueError(f"Cannot split an axis of size {n} into "
                             f"{parts} equal sections.")
        # numpy's array_split: the first `n % parts` pieces get one more.
        sizes = [n // parts + (i < n % parts) for i in range(parts)]
        bounds = [0] + list(np.cumsum(sizes))
    else:
        cuts = [int(np.clip(i if i >= 0 else i + n, 0, n))
                for i in to_array(indices_or_sections)]
        bounds = [0] + cuts + [n]
    return _pieces(x, bounds, axis)


@keras_op
def split(x, indices_or_sections, axis=0):
    """Split `x` into equal sections or at the given indices.

    Args:
        x: Input tensor.
        indices_or_sections: Number of equal sections, or sorted split
            indices.
        axis: Axis to split. Defaults to 0.

    Returns:
        A list of tensors.

    Example:

    >>> [p.shape for p in split(np.zeros((4, 2)), 2)]
    [(2, 2), (2, 2)]
    """
    return _split(x, indices_or_sections, axis, equal=True)


@keras_op
def array_split(x, indices_or_sections, axis=0):
    """Split into `indices_or_sections` nearly equal pieces.

    Unlike `split`, the size of the axis need not be divisible: the first
    `size % sections` pieces get one extra entry.

    Args:
        x: Input tensor.
        indices_or_sections: Positive int, number of pieces.
        axis: Int, axis to split. Defaults to 0.

    Returns:
        A list of tensors.

    Example:

    >>> [p.shape for p in array_split(np.zeros(5), 3)]
    [(2,), (2,), (1,)]
    """
    if not isinstance(indices_or_sections, (int, np.integer)):
        raise TypeError("Argument `indices_or_sections` must be of type "
                        f"`int`. Received: indices_or_sections="
                        f"{indices_or_sections}")
    if indices_or_sections <= 0:
        raise ValueError("Argument `indices_or_sections` must be a positive "
                         "integer. Received: indices_or_sections="
                         f"{indices_or_sections}")
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"Argument `axis` must be of type `int`. "
                        f"Received: {axis}")
    return _split(x, indices_or_sections, axis, equal=False)


def _split_axis(x, indices_or_sections, axis, ndim, name):
    x = convert_to_tensor(x)
    if x.ndim < ndim:
        raise ValueError(f"`{name}` needs a tensor of rank >= {ndim}. "
                         f"Received: x.shape={x.shape}")
    return _split(x, indices_or_sections, axis, equal=True)


@keras_op
def hsplit(x, indices_or_sections):
    """Split horizontally (axis 1; axis 0 for 1-D tensors).

    Args:
        x: Input tensor.
        indices_or_sections: Equal sections or split indices.

    Returns:
        A list of tensors.

    Example:

    >>> [p.shape for p in hsplit(np.zeros((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    x = convert_to_tensor(x)
    return _split_axis(x, indices_or_sections, 1 if x.ndim > 1 else 0, 1,
                       "hsplit")


@keras_op
def vsplit(x, indices_or_sections):
    """Split vertically (axis 0) a tensor of rank >= 2.

    Args:
        x: Input tensor.
        indices_or_sections: Equal sections or split indices.

    Returns:
        A list of tensors.

    Example:

    >>> [p.shape for p in vsplit(np.zeros((4, 2)), [1])]
    [(1, 2), (3, 2)]
    """
    return _split_axis(x, indices_or_sections, 0, 2, "vsplit")


@keras_op
def dsplit(x, indices_or_sections):
    """Split along the third axis a tensor of rank >= 3.

    Args:
        x: Input tensor.
        indices_or_sections: Equal sections or split indices.

    Returns:
        A list of tensors.

    Example:

    >>> [p.shape for p in dsplit(np.zeros((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    return _split_axis(x, indices_or_sections, 2, 3, "dsplit")


@keras_op
def tile(x, repeats):
    """Repeat the whole tensor `repeats` times along each axis.

    Args:
        x: Input tensor.
        repeats: Int or sequence of ints.

    Returns:
        The tiled tensor.

    Example:

    >>> tile([1, 2], 2).numpy()
    array([1, 2, 1, 2], dtype=int32)
    """
    reps = (int(repeats),) if isinstance(repeats, (int, np.integer)) \
        else tuple(int(r) for r in to_array(repeats))
    return S.tile(convert_to_tensor(x), repeats=reps)


@keras_op
def repeat(x, repeats, axis=None):
    """Repeat each entry `repeats` times (along `axis`, or flattened).

    Args:
        x: Input tensor.
        repeats: Int or per-entry ints.
        axis: Axis or `None`. Defaults to `None`.

    Returns:
        The repeated tensor.

    Example:

    >>> repeat([1, 2], 2).numpy()
    array([1, 1, 2, 2], dtype=int32)
    """
    return S.repeat(convert_to_tensor(x), repeats=to_array(repeats),
                    axis=axis)


@keras_op
def flip(x, axis=None):
    """Reverse the order of entries along `axis` (all axes if `None`).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.

    Returns:
        The flipped tensor.

    Example:

    >>> flip([1, 2, 3]).numpy()
    array([3, 2, 1], dtype=int32)
    """
    axis = tuple(axis) if isinstance(axis, list) else axis
    return S.flip(convert_to_tensor(x), axis=axis)


@keras_op
def fliplr(x):
    """Reverse the columns (axis 1) of a tensor of rank >= 2.

    Args:
        x: Input tensor.

    Returns:
        The flipped tensor.

    Example:

    >>> fliplr([[1, 2]]).numpy()
    array([[2, 1]], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.ndim < 2:
        raise ValueError("`fliplr` needs a tensor of rank >= 2. "
                         f"Received: x.shape={x.shape}")
    return flip(x, 1)


@keras_op
def flipud(x):
    """Reverse the rows (axis 0) of a tensor of rank >= 1.

    Args:
        x: Input tensor.

    Returns:
        The flipped tensor.

    Example:

    >>> flipud([[1], [2]]).numpy()
    array([[2],
           [1]], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.ndim < 1:
        raise ValueError("`flipud` needs a tensor of rank >= 1. "
                         f"Received: x.shape={x.shape}")
    return flip(x, 0)


@keras_op
def rot90(array, k=1, axes=(0, 1)):
    """Rotate by 90 degrees `k` times in the plane of `axes`.

    Args:
        array: Tensor of rank >= 2.
        k: Number of quarter turns (counter-clockwise from the first axis
            towards the second). Defaults to 1.
        axes: Two different axes. Defaults to `(0, 1)`.

    Returns:
        The rotated tensor.

    Example:

    >>> rot90([[1, 2], [3, 4]]).numpy()
    array([[2, 4],
           [1, 3]], dtype=int32)
    """
    x = convert_to_tensor(array)
    if x.ndim < 2:
        raise ValueError("Input array must have at least 2 dimensions. "
                         f"Received: array.ndim={x.ndim}")
    axes = tuple(axes)
    if len(axes) != 2 or axes[0] % x.ndim == axes[1] % x.ndim:
        raise ValueError(f"Invalid axes: {axes}. Axes must be a tuple of "
                         "two different dimensions.")
    a, b = axes
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return flip(x, (a, b))
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 1:
        return transpose(flip(x, b), perm)
    return flip(transpose(x, perm), b)


@keras_op
def roll(x, shift, axis=None):
    """Roll entries along `axis` (flattened if `None`), wrapping around.

    Args:
        x: Input tensor.
        shift: Int or tuple of ints.
        axis: Int, tuple of ints or `None`. Defaults to `None`.

    Returns:
        The rolled tensor.

    Example:

    >>> roll([1, 2, 3], 1).numpy()
    array([3, 1, 2], dtype=int32)
    """
    shift = tuple(shift) if isinstance(shift, list) else shift
    axis = tuple(axis) if isinstance(axis, list) else axis
    return S.roll(convert_to_tensor(x), shift=shift, axis=axis)


@keras_op
def pad(x, pad_width, mode="constant", constant_values=None):
    """Pad `x` (numpy's modes: constant, edge, reflect, symmetric, wrap, ...).

    Args:
        x: Input tensor.
        pad_width: `((before, after),) * ndim`, or broadcastable to it.
        mode: Padding mode. Defaults to `"constant"`.
        constant_values: Fill value for `"constant"` (default 0).

    Returns:
        The padded tensor.

    Example:

    >>> pad([1, 2], (1, 2)).numpy()
    array([0, 1, 2, 0, 0], dtype=int32)
    """
    x = convert_to_tensor(x)
    width = np.broadcast_to(np.asarray(pad_width), (x.ndim, 2))
    width = tuple((int(a), int(b)) for a, b in width)
    kwargs = {}
    if mode == "constant":
        kwargs["constant_values"] = 0 if constant_values is None \
            else to_array(constant_values)
    elif constant_values is not None:
        raise ValueError(
            "Argument `constant_values` can only be provided when "
            f"`mode == 'constant'`. Received: mode={mode}")
    return S.pad(x, pad_width=width, mode=mode, **kwargs)


@keras_op
def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D coordinate vectors.

    Args:
        *x: 1-D tensors.
        indexing: `"xy"` (default, Cartesian: the first two output axes
            swapped) or `"ij"` (matrix indexing).

    Returns:
        A list of tensors, one per input.

    Example:

    >>> [g.shape for g in meshgrid([1, 2, 3], [4, 5])]
    [(2, 3), (2, 3)]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'. "
                         f"Received: indexing={indexing}")
    xs = [reshape(v, (-1,)) for v in x]
    shape = [v.shape[0] for v in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    grids = []
    for i, v in enumerate(xs):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(xs) > 1 \
            else i
        view = [1] * len(xs)
        view[axis] = -1
        grids.append(broadcast_to(reshape(v, view), shape))
    return grids
