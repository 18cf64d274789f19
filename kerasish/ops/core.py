"""Core ops (`keras.ops.core`): conversion, casting, slicing and scatters,
custom gradients. Control flow (`cond`, `while_loop`, `scan`, ...) is in
`core_flow.py` and re-exported here."""
import functools

import numpy as np

from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import scatter as SC
from kerasish.backend import shape as S
from kerasish.backend.primitive import Primitive, to_array
from kerasish.backend.tape import stop_recording
from kerasish.backend.tensor import Tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["convert_to_tensor", "convert_to_numpy", "is_tensor", "cast",
           "saturate_cast", "dtype", "shape", "ndim", "size", "stop_gradient",
           "custom_gradient", "slice", "slice_update", "scatter",
           "scatter_update", "unstack", "associative_scan", "cond",
           "fori_loop", "map", "scan", "switch", "vectorized_map",
           "while_loop", "rearrange"]


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Convert an array-like to a `Tensor` (Python floats become floatx).

    Args:
        x: Tensor, variable, numpy array, Python number or nested list.
        dtype: Optional target dtype.
        sparse: Only `None`/`False`: the numpy runtime has no sparse tensors.
        ragged: Only `None`/`False`.

    Returns:
        A `Tensor`.

    Example:

    >>> convert_to_tensor([1.0, 2.0]).dtype
    dtype('float32')
    """
    if sparse or ragged:
        raise ValueError("`sparse=True` and `ragged=True` are not supported "
                         "by the numpy runtime. Received: "
                         f"sparse={sparse}, ragged={ragged}")
    if isinstance(x, Tensor):
        if dtype is not None and x.dtype != dtypes_module.standardize_dtype(
                dtype):
            return cast(x, dtype)
        return x
    if dtype is not None:
        dtype = dtypes_module.standardize_dtype(dtype)
        return Tensor(np.asarray(to_array(x), dtype=dtype))
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "O":
            raise ValueError(
                "Cannot convert an array of Python objects to a tensor. "
                f"Received an array of dtype=object with shape {x.shape}")
        return Tensor(x)
    if isinstance(x, bool):
        return Tensor(np.asarray(x))
    if isinstance(x, int):
        return Tensor(np.asarray(x, dtype="int32"))
    if isinstance(x, float):
        return Tensor(np.asarray(x, dtype=dtypes_module.standardize_dtype(
            None)))
    value = to_array(x)
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.dtype.kind == "O":
        raise ValueError(
            "Cannot convert Python objects to a tensor. Received an array "
            f"of dtype=object with shape {value.shape}")
    return Tensor(value)


def convert_to_numpy(x):
    """Return `x` as a numpy array (a copy for variables).

    Args:
        x: Tensor, variable or array-like.

    Returns:
        A numpy array.

    Example:

    >>> convert_to_numpy(convert_to_tensor([1, 2]))
    array([1, 2], dtype=int32)
    """
    if isinstance(x, Tensor):
        return np.array(x._value) if getattr(x, "_is_variable", False) \
            else x._value
    return np.asarray(x)


def is_tensor(x):
    """Whether `x` is a kerasish tensor (or variable).

    Args:
        x: Any object.

    Returns:
        A bool.

    Example:

    >>> is_tensor(convert_to_tensor(1.0)), is_tensor(1.0)
    (True, False)
    """
    return isinstance(x, Tensor)


@keras_op
def cast(x, dtype):
    """Cast `x` to `dtype`; differentiable between float types.

    Args:
        x: Input tensor.
        dtype: Target dtype.

    Returns:
        The cast tensor.

    Example:

    >>> cast([1.7, -1.7], "int32").numpy()
    array([ 1, -1], dtype=int32)
    """
    dtype = dtypes_module.standardize_dtype(dtype)
    if isinstance(x, Tensor) and x.dtype == dtype \
            and not getattr(x, "_is_variable", False):
        return x
    return S.cast(x, dtype=dtype)


def _limits(dtype):
    if dtype == "bool":
        return 0, 1
    kind = np.iinfo if np.dtype(dtype).kind in "iu" else np.finfo
    return kind(dtype).min, kind(dtype).max


@keras_op
def saturate_cast(x, dtype):
    """Cast, clipping values to the range of the target dtype first.

    Args:
        x: Input tensor.
        dtype: Target dtype.

    Returns:
        The cast tensor (no wrap-around on overflow).

    Example:

    >>> saturate_cast([-1.0, 300.0], "uint8").numpy()
    array([  0, 255], dtype=uint8)
    """
    x = convert_to_tensor(x)
    dtype = dtypes_module.standardize_dtype(dtype)
    in_dtype = str(x.dtype)
    (in_min, in_max), (out_min, out_max) = _limits(in_dtype), _limits(dtype)
    # The output limits may not be representable in the input dtype
    # (float32 cannot hold int32's max): nudge them inside.
    low = np.asarray(max(in_min, out_min)).astype(in_dtype)
    if float(low) < out_min:
        low = np.nextafter(low, 0, dtype=in_dtype)
    high = np.asarray(min(in_max, out_max)).astype(in_dtype)
    if float(high) > out_max:
        high = np.nextafter(high, 0, dtype=in_dtype)
    from kerasish.ops.numpy_base import clip
    return cast(clip(x, low, high), dtype)


def dtype(x):
    """The dtype of `x` as a string.

    Args:
        x: Tensor or array-like.

    Returns:
        A dtype name.

    Example:

    >>> dtype(np.zeros(2, "int64"))
    'int64'
    """
    return dtypes_module.standardize_dtype(np.asarray(to_array(x)).dtype
                                           if not hasattr(x, "dtype")
                                           else x.dtype)


def shape(x):
    """The shape of `x` as a tuple (`None` for unknown symbolic dims).

    Args:
        x: Tensor, KerasTensor or array-like.

    Returns:
        A tuple.

    Example:

    >>> shape(np.zeros((2, 3)))
    (2, 3)
    """
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def ndim(x):
    """Number of axes of `x`.

    Args:
        x: Tensor or array-like.

    Returns:
        An int.

    Example:

    >>> ndim(np.zeros((2, 3)))
    2
    """
    return len(shape(x))


def size(x):
    """Number of entries of `x`.

    Args:
        x: Tensor or array-like.

    Returns:
        An int.

    Example:

    >>> size(np.zeros((2, 3)))
    6
    """
    return int(np.prod(shape(x)))


def stop_gradient(variable):
    """`variable`'s value as a constant that gradients do not flow through.

    Args:
        variable: Tensor or variable.

    Returns:
        A tensor with the same value.

    Example:

    >>> stop_gradient([1.0]).numpy()
    array([1.], dtype=float32)
    """
    return Tensor(np.asarray(convert_to_tensor(variable)._value))


def custom_gradient(f):
    """Decorator giving a function its own gradient.

    `f(*args)` returns `(y, grad_fn)`; `grad_fn(upstream)` (also callable
    as `grad_fn(upstream=...)`) returns the gradients of the arguments, one
    per argument (`None` for those without one). The forward runs without
    recording, so only `grad_fn` defines the gradient.

    Args:
        f: The function.

    Returns:
        The decorated function.

    Example:

    >>> @custom_gradient
    ... def clip_grad(x):
    ...     return x * 1.0, lambda upstream: upstream * 0.5
    >>> from kerasish import GradientTape, Variable
    >>> v = Variable(3.0)
    >>> with GradientTape() as tape:
    ...     y = clip_grad(v)
    >>> float(tape.gradient(y, v))
    0.5
    """
    def forward(*arrays, **params):
        with stop_recording():
            y, grad_fn = f(*[Tensor(np.asarray(a)) for a in arrays],
                           **params)
        return np.asarray(to_array(y)), grad_fn

    prim = Primitive(forward, name=getattr(f, "__name__", "custom"),
                     saves=True)

    def vjp(g, out, *arrays, saved, **params):
        with stop_recording():
            grads = saved(Tensor(g))
        grads = tuple(grads) if isinstance(grads, (list, tuple)) else (grads,)
        if len(grads) != len(arrays):
            raise ValueError(
                f"The gradient function of `{prim.name}` returned "
                f"{len(grads)} gradient(s) for {len(arrays)} argument(s).")
        return tuple(None if gi is None else np.asarray(
            to_array(gi), dtype=np.asarray(a).dtype) for gi, a in
            zip(grads, arrays))
    prim.defvjp(vjp)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return prim(*args, **kwargs)
    return wrapper


# -- slices and scatters ------------------------------------------------------------
def _slice_key(inputs, start_indices, shape):
    dims = np.shape(to_array(inputs)) if not hasattr(inputs, "shape") \
        else inputs.shape
    key = []
    for d, s, n in zip(dims, start_indices, shape):
        s, n = int(to_array(s)), int(to_array(n))
        n = d - s if n == -1 else n
        # JAX's dynamic_slice moves the window inside the array.
        s = int(np.clip(s, 0, max(d - n, 0)))
        key.append(np.s_[s:s + n])
    return tuple(key)


@keras_op
def slice(inputs, start_indices, shape):
    """A window of `inputs` of the given `shape` from `start_indices`.

    Args:
        inputs: Input tensor.
        start_indices: Start of the window per axis (clamped so that the
            window fits, as in JAX).
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
        start_indices: Start of the window per axis.
        updates: New values; their shape is the window's.

    Returns:
        The updated tensor (differentiable in both tensors).

    Example:

    >>> slice_update(np.zeros((2, 3)), (1, 1), np.ones((1, 2))).numpy()
    array([[0., 0., 0.],
           [0., 1., 1.]])
    """
    from kerasish.ops.numpy_index import _scatter_like
    updates = convert_to_tensor(updates)
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
        from kerasish.ops.numpy_index import _scatter_like
        return _scatter_like(inputs, tuple(idx.reshape(-1, idx.shape[-1]).T),
                             cast(updates, inputs.dtype))
    if reduction == "add":
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
    axis = axis % x.ndim
    if num is not None and num != x.shape[axis]:
        raise ValueError(f"`num` must match the size of axis {axis}. "
                         f"Received: num={num}, x.shape={x.shape}")
    moved = S.moveaxis(x, source=axis, destination=0) if axis else x
    return [S.getitem(moved, key=i) for i in range(x.shape[axis])]


from kerasish.ops.core_flow import (associative_scan, cond,  # noqa: E402,F401
                                    fori_loop, map, scan, switch,
                                    vectorized_map, while_loop)
from kerasish.ops.einops import rearrange  # noqa: E402,F401
