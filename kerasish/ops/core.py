"""Core ops: conversion, casting, shapes, control flow (`keras.ops` core)."""
import numpy as np

from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.symbolic import keras_op


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Convert an array-like to a `Tensor` (floats default to floatx).

    Example:

    >>> convert_to_tensor([1.0, 2.0]).dtype
    dtype('float32')
    """
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
    """Return `x` as a numpy array."""
    if isinstance(x, Tensor):
        return np.array(x._value) if getattr(x, "_is_variable", False) \
            else x._value
    return np.asarray(x)


def is_tensor(x):
    """Whether `x` is a kerasish tensor (or variable)."""
    return isinstance(x, Tensor)


@keras_op
def cast(x, dtype):
    """Cast `x` to `dtype`; differentiable between float types."""
    dtype = dtypes_module.standardize_dtype(dtype)
    if isinstance(x, Tensor) and x.dtype == dtype \
            and not getattr(x, "_is_variable", False):
        return x
    return S.cast(x, dtype=dtype)


def dtype(x):
    """The dtype of `x` as a string."""
    return dtypes_module.standardize_dtype(np.asarray(to_array(x)).dtype
                                           if not hasattr(x, "dtype")
                                           else x.dtype)


def shape(x):
    """The shape of `x` as a tuple (None for unknown symbolic dims)."""
    return tuple(x.shape)


def ndim(x):
    return len(shape(x))


def size(x):
    return int(np.prod(shape(x)))


def stop_gradient(x):
    """Return `x` as a constant that gradients do not flow through."""
    return Tensor(np.asarray(to_array(x)))


def cond(pred, true_fn, false_fn):
    """Call `true_fn()` if `pred` else `false_fn()` (eager)."""
    return true_fn() if bool(np.asarray(to_array(pred))) else false_fn()


def switch(index, branches, *operands):
    index = int(np.clip(int(np.asarray(to_array(index))), 0,
                        len(branches) - 1))
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`."""
    is_tuple = isinstance(loop_vars, (list, tuple))
    state = tuple(loop_vars) if is_tuple else (loop_vars,)
    steps = 0
    while bool(cond(*state)):
        if maximum_iterations is not None and steps >= maximum_iterations:
            break
        state = body(*state)
        state = tuple(state) if isinstance(state, (list, tuple)) else (state,)
        steps += 1
    return state if is_tuple else state[0]


def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for `i` in `range(lower, upper)`."""
    val = init_val
    for i in range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def map(f, xs):
    """Apply `f` to each slice of `xs` along axis 0 and stack the results."""
    from kerasish.ops.numpy import stack
    return stack([f(x) for x in xs])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loop `carry, y = f(carry, x)` over `xs`; return `(carry, stacked ys)`."""
    from kerasish.ops.numpy import stack
    n = length if xs is None else len(xs)
    order = range(n - 1, -1, -1) if reverse else range(n)
    carry, ys = init, []
    for i in order:
        carry, y = f(carry, None if xs is None else xs[i])
        ys.append(y)
    if reverse:
        ys = ys[::-1]
    return carry, (stack(ys) if ys and ys[0] is not None else None)


@keras_op
def slice(inputs, start_indices, shape):
    """Slice `inputs` from `start_indices` with the given `shape`."""
    key = tuple(np.s_[int(s):int(s) + int(n)]
                for s, n in zip(start_indices, shape))
    return S.getitem(inputs, key=key)


def slice_update(inputs, start_indices, updates):
    """Copy of `inputs` with `updates` written at `start_indices`."""
    from kerasish.ops.numpy import _scatter_like
    updates = convert_to_tensor(updates)
    key = tuple(np.s_[int(s):int(s) + int(n)]
                for s, n in zip(start_indices, updates.shape))
    return _scatter_like(inputs, key, updates)


def scatter(indices, values, shape):
    """Zeros of `shape` with `values` added at `indices` (rows of coords)."""
    idx = np.asarray(to_array(indices))
    vals = np.asarray(to_array(values))
    flat = np.ravel_multi_index(tuple(idx.T), shape[:idx.shape[-1]])
    inner = int(np.prod(shape[idx.shape[-1]:]))
    summed = np.zeros((int(np.prod(shape[:idx.shape[-1]])), inner),
                      vals.dtype)
    order = np.argsort(flat, kind="stable")
    uniq, starts = np.unique(flat[order], return_index=True)
    summed[uniq] = np.add.reduceat(vals.reshape(len(flat), inner)[order],
                                   starts, axis=0)
    return Tensor(summed.reshape(shape))


def scatter_update(inputs, indices, updates):
    """Copy of `inputs` with entries at `indices` replaced by `updates`."""
    arr = np.array(to_array(inputs), copy=True)
    idx = np.asarray(to_array(indices))
    arr[tuple(idx.T)] = np.asarray(to_array(updates))
    return Tensor(arr)


def unstack(x, num=None, axis=0):
    """Split `x` into a list of tensors along `axis`."""
    from kerasish.ops.numpy import moveaxis
    x = moveaxis(x, axis, 0) if axis != 0 else convert_to_tensor(x)
    return [x[i] for i in range(x.shape[0])]


def saturate_cast(x, dtype):
    """Cast with clipping to the target type's range."""
    dtype = dtypes_module.standardize_dtype(dtype)
    arr = np.asarray(to_array(x))
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        arr = np.clip(arr, info.min, info.max)
    return Tensor(arr.astype(dtype))


def custom_gradient(fn):
    """Decorator: `fn(*args)` returns `(y, grad_fn)`; `grad_fn(upstream)`
    gives the gradients of the tensor arguments."""
    from kerasish.backend.primitive import Primitive

    def forward(*arrays):
        y, grad_fn = fn(*[Tensor(a) for a in arrays])
        return np.asarray(to_array(y)), grad_fn

    prim = Primitive(forward, name=getattr(fn, "__name__", "custom"),
                     saves=True)

    def vjp(g, out, *arrays, saved):
        grads = saved(Tensor(g))
        grads = grads if isinstance(grads, (list, tuple)) else (grads,)
        return tuple(None if gi is None else np.asarray(to_array(gi))
                     for gi in grads)
    prim.defvjp(vjp)
    return prim
