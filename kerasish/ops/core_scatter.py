"""Slices, scatters and `unstack` of `keras.ops.core`, differentiable in
the tensors they read (`scatter_update` with max/min/mul excepted)."""

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from kerasish.backend import scatter as SC
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["slice", "slice_update", "scatter", "scatter_update", "unstack"]


def _slice_key(inputs, start_indices, shape):
    dims = np.shape(to_array(inputs)) if not hasattr(inputs, "shape") \
        else inputs.shape
    starts = [int(to_array(s)) for s in start_indices]
    if len(starts) != len(dims) or len(shape) != len(dims):
        raise ValueError(
            "`start_indices` and the slice shape need one entry per axis "
            f"of `inputs`. Received: start_indices={starts}, shape="
            f"{tuple(shape)}, inputs.shape={tuple(dims)}")
    key = []
    for d, s, n in zip(dims, starts, shape):
        s, n = int(to_array(s)), int(to_array(n))
        # JAX's dynamic_slice counts a negative start from the end, then
        # moves the window inside the array.
        s = s + d if s < 0 else s
        n = d - s if n == -1 else n
        s = int(np.clip(s, 0, max(d - n, 0)))
        key.append(np.s_[s:s + n])
    return tuple(key)


@keras_op
def slice(inputs, start_indices, shape):
    """A window of `inputs` of the given `shape` from `start_indices`.

    Args:
        inputs: Input tensor.
        start_indices: Start of the window per axis (negative ones count
            from the end; clamped so that the window fits, as in JAX).
        shape: Window size per axis (-1: to the end).

    Returns:
        The window.

    Example:

    >>> slice(np.arange(6).reshape(2, 3), (0, 1), (2, 2)).numpy()
    array([[1, 2],
           [4, 5]])
    """
    inputs = convert_to_tensor(inputs)
    return S.getitem(inputs, key=_slice_key(inputs, start_indices, shape))


@keras_op
def slice_update(inputs, start_indices, updates):
    """`inputs` with the window at `start_indices` replaced by `updates`.

    Args:
        inputs: Input tensor.
        start_indices: Start of the window per axis (negative ones count
            from the end; clamped so that the window fits).
        updates: New values; their shape is the window's. They are cast to
            the dtype of `inputs`.

    Returns:
        The updated tensor, of the dtype of `inputs` (differentiable in
        both tensors).

    Example:

    >>> slice_update(np.zeros((2, 3)), (1, 1), np.ones((1, 2))).numpy()
    array([[0., 0., 0.],
           [0., 1., 1.]])
    """
    # lazy: a top-level import would close an import circle
    from kerasish.ops.numpy_index import _scatter_like
    inputs = convert_to_tensor(inputs)
    # The result keeps the dtype of `inputs` (Keras on TensorFlow casts the
    # updates; its JAX backend refuses mixed dtypes).
    updates = cast(updates, inputs.dtype)
    key = _slice_key(inputs, start_indices, updates.shape)
    return _scatter_like(inputs, key, updates)


def _positions(indices, shape):
    idx = np.asarray(to_array(indices)).astype(np.int64)
    if idx.ndim == 1:
        idx = idx[:, None]
    depth = idx.shape[-1]
    if depth > len(shape):
        raise ValueError(f"`indices` address {depth} axes but the tensor has "
                         f"{len(shape)}. Received: indices.shape={idx.shape}"
                         f", shape={tuple(shape)}")
    idx = idx.reshape(-1, depth)
    return np.ravel_multi_index(tuple(idx.T), tuple(shape[:depth])), depth


@keras_op
def scatter(indices, values, shape):
    """Zeros of `shape` with `values` added at `indices` (duplicates sum).

    Args:
        indices: `(num_updates, k)` integer coordinates of the first `k`
            axes.
        values: `(num_updates, *shape[k:])` values.
        shape: Output shape.

    Returns:
        The tensor (differentiable in `values`).

    Example:

    >>> scatter([[0], [2], [0]], [1.0, 2.0, 3.0], (3,)).numpy()
    array([4., 0., 2.], dtype=float32)
    """
    shape = tuple(int(d) for d in shape)
    positions, depth = _positions(indices, shape)
    values = convert_to_tensor(values)
    rows = S.reshape(values, shape=(len(positions),) + shape[depth:])
    out = SC.scatter_add(rows, positions=positions,
                         size=int(np.prod(shape[:depth])))
    return S.reshape(out, shape=shape)


@keras_op
def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with `updates` written (or combined) at `indices`.

    Args:
        inputs: Input tensor.
        indices: `(num_updates, k)` coordinates of the first `k` axes.
        updates: `(num_updates, *inputs.shape[k:])` new values.
        reduction: `None` (replace; differentiable), `"add"`
            (differentiable), `"max"`, `"min"` or `"mul"` (no gradient).

    Returns:
        The updated tensor.

    Example:

    >>> scatter_update(np.zeros(3), [[1]], [5.0]).numpy()
    array([0., 5., 0.])
    """
    if reduction is not None:
        reduction = reduction.lower()
        if reduction not in ("add", "max", "min", "mul"):
            raise ValueError(f"Invalid reduction: {reduction}. Supported "
                             "values are: None, 'add', 'max', 'min', 'mul'.")
    inputs = convert_to_tensor(inputs)
    idx = np.asarray(to_array(indices)).astype(np.int64)
    if reduction is None:
        # lazy: a top-level import would close an import circle
        from kerasish.ops.numpy_index import _scatter_like
        return _scatter_like(inputs, tuple(idx.reshape(-1, idx.shape[-1]).T),
                             cast(updates, inputs.dtype))
    if reduction == "add":
        # lazy: a top-level import would close an import circle
        from kerasish.ops.numpy_base import add
        return add(inputs, cast(scatter(idx, updates, inputs.shape),
                                inputs.dtype))
    positions, depth = _positions(idx, inputs.shape)
    base = inputs.numpy().reshape((-1,) + inputs.shape[depth:])
    rows = np.asarray(to_array(updates)).reshape(
        (len(positions),) + inputs.shape[depth:])
    return Tensor(SC.scatter_reduce(base, positions, rows, reduction)
                  .reshape(inputs.shape))


@keras_op
def unstack(x, num=None, axis=0):
    """Split `x` along `axis` into a list of tensors of one rank less.

    Args:
        x: Input tensor.
        num: Optional expected length of `axis` (checked).
        axis: Axis to unstack. Defaults to 0.

    Returns:
        A list of tensors.

    Example:

    >>> [t.numpy() for t in unstack([[1, 2], [3, 4]], axis=1)]
    [array([1, 3], dtype=int32), array([2, 4], dtype=int32)]
    """
    x = convert_to_tensor(x)
    # AxisError: an IndexError (as Keras) and a ValueError.
    axis = normalize_axis_index(axis, x.ndim)
    if num is not None and num != x.shape[axis]:
        raise ValueError(f"`num` must match the size of axis {axis}. "
                         f"Received: num={num}, x.shape={x.shape}")
    moved = S.moveaxis(x, source=axis, destination=0) if axis else x
    return [S.getitem(moved, key=i) for i in range(x.shape[axis])]
