"""Joining, splitting, tiling and padding tensors (`keras.ops.numpy`),
all differentiable."""

import builtins

import numpy as np

from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_shape import reshape
from kerasish.ops.symbolic import keras_op
from kerasish.backend.dtypes import result_type

__all__ = ["concatenate", "stack", "hstack", "vstack", "dstack", "append",
           "split", "array_split", "hsplit", "vsplit", "dsplit", "tile",
           "repeat", "pad"]


def _common(xs):
    """Tensors promoted to one dtype (Keras's rule: a float wins)."""
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


def _equal_split_spec(x, indices_or_sections, axis):
    """Keras's rule: equal sections of an unknown axis are unknown."""
    if not isinstance(indices_or_sections, (int, np.integer)) or \
            indices_or_sections <= 0 or not -x.ndim <= axis < x.ndim or \
            x.shape[axis] is not None:
        return None   # the placeholder run gives the sizes or the error
    return [KerasTensor(x.shape, dtype=x.dtype)
            for _ in range(int(indices_or_sections))]


def _split_spec(x, indices_or_sections, axis=0):
    return _equal_split_spec(x, indices_or_sections, axis)


@keras_op(spec=_split_spec)
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


def _hsplit_spec(x, indices_or_sections):
    if x.ndim < 1:
        return None   # the placeholder run raises the rank error
    return _equal_split_spec(x, indices_or_sections, 1 if x.ndim > 1 else 0)


@keras_op(spec=_hsplit_spec)
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


def _vsplit_spec(x, indices_or_sections):
    if x.ndim < 2:
        return None   # the placeholder run raises the rank error
    return _equal_split_spec(x, indices_or_sections, 0)


@keras_op(spec=_vsplit_spec)
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


def _dsplit_spec(x, indices_or_sections):
    if x.ndim < 3:
        return None   # the placeholder run raises the rank error
    return _equal_split_spec(x, indices_or_sections, 2)


@keras_op(spec=_dsplit_spec)
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
