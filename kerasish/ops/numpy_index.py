"""Indexing and selection of `keras.ops.numpy`: item access, gathers,
triangles and diagonals, `select`, and the index helpers."""
import builtins

import numpy as np

from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import _tensors, where
from kerasish.ops.numpy_join import concatenate
from kerasish.ops.numpy_shape import broadcast_to, reshape
from kerasish.ops.symbolic import keras_op
from kerasish.ops.numpy_reduce import sum

__all__ = ["getitem", "get_item", "take", "take_along_axis", "tril", "triu",
           "diagonal", "diag", "diagflat", "trace", "select",
           "unravel_index"]


def _normalize_key(key):
    if isinstance(key, tuple):
        return tuple(_normalize_key(k) for k in key)
    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, list):
        return np.asarray([to_array(k) for k in key])
    return key


@keras_op
def getitem(x, key):
    """`x[key]` with numpy's basic and advanced indexing, differentiable.

    Args:
        x: Input tensor.
        key: Int, slice, `None`, `Ellipsis`, index/boolean arrays or a tuple
            of those.

    Returns:
        The selected entries.

    Example:

    >>> getitem([[1, 2], [3, 4]], (slice(None), 0)).numpy()
    array([1, 3], dtype=int32)
    """
    return S.getitem(convert_to_tensor(x), key=_normalize_key(key))


@keras_op
def get_item(x, key):
    """`x[key]` (Keras's name for `getitem`).

    Args:
        x: Input tensor.
        key: Any numpy index.

    Returns:
        The selected entries.

    Example:

    >>> get_item([10, 20, 30], 1).numpy()
    array(20, dtype=int32)
    """
    return getitem(x, key)


def _scatter_like(x, key, updates):
    """`x` with `x[key]` replaced by `updates`, differentiable in both."""
    x = convert_to_tensor(x)
    keep = np.ones(x.shape, dtype=bool)
    keep[key] = False
    return where(keep, x, _place(updates, x.shape, key))


def _place(updates, shape, key):
    """`updates` written into zeros of `shape` at `key` (differentiable)."""
    updates = convert_to_tensor(updates)
    count = int(np.prod(shape))
    positions = np.arange(count).reshape(shape)[key]
    flat = reshape(broadcast_to(updates, positions.shape), (-1,))
    index = np.full(count, positions.size, dtype=np.int64)
    index[positions.ravel()] = np.arange(positions.size)
    padded = concatenate([flat, Tensor(np.zeros((1,), flat.dtype))])
    return reshape(S.take(padded, index, axis=0), shape)


@keras_op
def take(x, indices, axis=None):
    """Gather entries at `indices` along `axis` (of the flattened `x` if
    `None`); a gather along axis 0 gives row-sparse gradients.

    Args:
        x: Input tensor.
        indices: Integer indices (negative ones count from the end).
        axis: Axis or `None`. Defaults to `None`.

    Returns:
        The gathered entries.

    Example:

    >>> take([[1, 2], [3, 4]], [1, 0], axis=0).numpy()
    array([[3, 4],
           [1, 2]], dtype=int32)
    """
    indices = np.asarray(to_array(indices))
    if indices.dtype.kind not in "iu":
        indices = indices.astype("int64")
    return S.take(convert_to_tensor(x), indices, axis=axis)


@keras_op
def take_along_axis(x, indices, axis=None):
    """Gather with an index array shaped like `x` along `axis`.

    Args:
        x: Input tensor.
        indices: Integer indices, broadcastable against `x`.
        axis: Axis or `None` (flattened). Defaults to `None`.

    Returns:
        The gathered entries.

    Example:

    >>> take_along_axis([[3, 1], [2, 4]], [[1], [0]], axis=1).numpy()
    array([[1],
           [2]], dtype=int32)
    """
    indices = np.asarray(to_array(indices)).astype("int64", copy=False)
    x = convert_to_tensor(x)
    if axis is None:
        return S.take_along_axis(reshape(x, (-1,)), indices.ravel(), axis=0)
    shape = list(np.broadcast_shapes(
        tuple(1 if i == axis % x.ndim else d for i, d in enumerate(x.shape)),
        indices.shape))
    shape[axis % x.ndim] = x.shape[axis]
    x = broadcast_to(x, shape)
    shape[axis % x.ndim] = indices.shape[axis]
    return S.take_along_axis(x, np.broadcast_to(indices, shape), axis=axis)


@keras_op
def tril(x, k=0):
    """Zero the entries above the `k`-th diagonal of the last two axes.

    Args:
        x: Tensor of rank >= 2.
        k: Diagonal offset. Defaults to 0.

    Returns:
        The lower triangle.

    Example:

    >>> tril([[1, 2], [3, 4]]).numpy()
    array([[1, 0],
           [3, 4]], dtype=int32)
    """
    x = convert_to_tensor(x)
    mask = np.tri(*x.shape[-2:], k=k, dtype=bool)
    return where(mask, x, Tensor(np.zeros((), x.dtype)))


@keras_op
def triu(x, k=0):
    """Zero the entries below the `k`-th diagonal of the last two axes.

    Args:
        x: Tensor of rank >= 2.
        k: Diagonal offset. Defaults to 0.

    Returns:
        The upper triangle.

    Example:

    >>> triu([[1, 2], [3, 4]]).numpy()
    array([[1, 2],
           [0, 4]], dtype=int32)
    """
    x = convert_to_tensor(x)
    mask = ~np.tri(*x.shape[-2:], k=k - 1, dtype=bool)
    return where(mask, x, Tensor(np.zeros((), x.dtype)))


@keras_op
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of the `(axis1, axis2)` planes, as the last axis.

    Args:
        x: Tensor of rank >= 2.
        offset: Diagonal offset. Defaults to 0.
        axis1: First axis of the planes. Defaults to 0.
        axis2: Second axis. Defaults to 1.

    Returns:
        The diagonals.

    Example:

    >>> diagonal([[1, 2], [3, 4]]).numpy()
    array([1, 4], dtype=int32)
    """
    x = convert_to_tensor(x)
    positions = np.arange(x.size).reshape(x.shape)
    positions = np.diagonal(positions, offset, axis1, axis2)
    return reshape(take(reshape(x, (-1,)), positions.ravel()),
                   positions.shape)


@keras_op
def diag(x, k=0):
    """Extract a diagonal (2-D input) or build a diagonal matrix (1-D).

    Args:
        x: 1-D or 2-D tensor.
        k: Diagonal offset. Defaults to 0.

    Returns:
        The diagonal, or the matrix.

    Example:

    >>> diag([1, 2]).numpy()
    array([[1, 0],
           [0, 2]], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.ndim == 2:
        return diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("`diag` needs a 1-D or 2-D input. "
                         f"Received: x.shape={x.shape}")
    n = x.shape[0] + builtins.abs(k)
    return _place(x, (n, n), np.where(np.eye(n, k=k, dtype=bool)))


@keras_op
def diagflat(x, k=0):
    """A 2-D matrix with the flattened `x` on its `k`-th diagonal.

    Args:
        x: Input tensor (flattened).
        k: Diagonal offset. Defaults to 0.

    Returns:
        A square matrix.

    Example:

    >>> diagflat([[1, 2]], k=1).numpy()
    array([[0, 1, 0],
           [0, 0, 2],
           [0, 0, 0]], dtype=int32)
    """
    return diag(reshape(x, (-1,)), k)


@keras_op
def trace(x, offset=0, axis1=0, axis2=1):
    """Sum along a diagonal of the `(axis1, axis2)` planes.

    Args:
        x: Tensor of rank >= 2.
        offset: Diagonal offset. Defaults to 0.
        axis1: First axis. Defaults to 0.
        axis2: Second axis. Defaults to 1.

    Returns:
        The traces.

    Example:

    >>> trace([[1, 2], [3, 4]]).numpy()
    array(5, dtype=int32)
    """
    return sum(diagonal(x, offset, axis1, axis2), axis=-1)


@keras_op
def select(condlist, choicelist, default=0):
    """Pick from `choicelist` by the first true condition of `condlist`.

    Args:
        condlist: List of boolean tensors.
        choicelist: List of tensors, one per condition.
        default: Value where no condition holds. Defaults to 0.

    Returns:
        The selected values (differentiable in the choices).

    Example:

    >>> out = select([np.array([True, False]), np.array([True, True])],
    ...              [np.array([1, 2]), np.array([3, 4])], default=0)
    >>> out.numpy().tolist()
    [1, 4]
    """
    if not isinstance(condlist, (list, tuple)) or \
            not isinstance(choicelist, (list, tuple)):
        raise ValueError(
            "condlist and choicelist must be lists. Received: "
            f"type(condlist) = {type(condlist)}, "
            f"type(choicelist) = {type(choicelist)}")
    if not condlist or not choicelist or len(condlist) != len(choicelist):
        raise ValueError(
            "condlist and choicelist must be non-empty and of the same "
            f"length. Received: condlist = {condlist}, "
            f"choicelist = {choicelist}")
    values = _tensors(*choicelist, default)
    out = values[-1]
    for cond, value in zip(reversed(condlist), reversed(values[:-1])):
        out = where(cond, value, out)
    return out


@keras_op
def unravel_index(indices, shape):
    """Convert flat indices into a tuple of coordinate arrays.

    Out-of-range indices are clipped, as in JAX.

    Args:
        indices: Integer tensor of flat indices.
        shape: Shape of the indexed array.

    Returns:
        A tuple of int32 tensors, one per axis.

    Example:

    >>> [c.numpy() for c in unravel_index([5, 1], (2, 3))]
    [array([1, 0], dtype=int32), array([2, 1], dtype=int32)]
    """
    indices = np.asarray(to_array(indices))
    shape = tuple(int(d) for d in shape)
    total = int(np.prod(shape))
    clipped = np.clip(indices, -total, total - 1)
    clipped = np.where(clipped < 0, clipped + total, clipped)
    return tuple(Tensor(np.asarray(c, dtype="int32"))
                 for c in np.unravel_index(clipped, shape))
