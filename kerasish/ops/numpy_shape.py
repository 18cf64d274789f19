"""Shape manipulation of `keras.ops.numpy`: reshape, transpose, axes,
flips, rotations and grids, all differentiable. Joining, splitting,
tiling and padding are in `numpy_join.py`."""
import numpy as np

from kerasish.backend import shape as S
from kerasish.backend.common import call_context
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["reshape", "transpose", "swapaxes", "moveaxis", "expand_dims",
           "squeeze", "ravel", "broadcast_to", "flip", "fliplr", "flipud",
           "rot90", "roll", "meshgrid"]


def _reshape_spec(x, newshape):
    """Keras's rule: over an unknown input dim, `-1` stays unknown."""
    if isinstance(newshape, int):
        newshape = (newshape,)
    if None not in x.shape or not all(
            d is None or isinstance(d, (int, np.integer))
            for d in newshape):
        return None   # known size: the placeholder run checks it
    if [d for d in newshape if d is None or d == -1].count(-1) > 1:
        raise ValueError("There must be at most one unknown dimension (-1) "
                         f"in newshape. Received: newshape={newshape}")
    shape = tuple(None if d is None or d == -1 else int(d)
                  for d in newshape)
    return KerasTensor(shape, dtype=x.dtype)


@keras_op(spec=_reshape_spec)
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
    x = convert_to_tensor(x)
    shape = tuple(-1 if d is None else int(d) for d in newshape)
    if _placeholder_mismatch(x, shape):
        return convert_to_tensor(np.zeros(shape, x.dtype))
    return S.reshape(x, shape=shape)


def _placeholder_mismatch(x, shape):
    """Whether a shape-inference run reshapes a placeholder to a size set
    by the configuration (`[tokens_per_batch, dim]`): Keras's symbolic
    batch size makes that reshape valid, so the run goes on with an array
    of the requested shape (its values are never used)."""
    return call_context.trace_fills_unknown_dims() and -1 not in shape and \
        int(np.prod(shape)) != int(np.prod(x.shape))


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
