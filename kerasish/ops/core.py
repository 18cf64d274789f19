"""Core ops (`keras.ops.core`): conversion, casting, shapes and custom
gradients. Slices and scatters (`core_scatter.py`), control flow
(`core_flow.py`) and `rearrange` (`einops.py`) are re-exported here."""
import functools

import numpy as np

from kerasish.backend import autocast as _autocast
from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import shape as S
from kerasish.backend.primitive import Primitive, stacked_sequence, to_array
from kerasish.backend.tape import stop_recording
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
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
    if isinstance(x, KerasTensor):
        # Symbolic in, symbolic out (as Keras): only the dtype may change.
        if dtype is None or x.dtype == dtypes_module.standardize_dtype(dtype):
            return x
        return cast(x, dtype)
    if isinstance(x, Tensor):
        if _autocast._state.dtype is not None:
            x = _autocast.autocast_value(x)   # mixed precision: var reads
        if dtype is not None and x.dtype != dtypes_module.standardize_dtype(
                dtype):
            return cast(x, dtype)
        return x
    if dtype is not None:
        dtype = dtypes_module.standardize_dtype(dtype)
        if isinstance(x, (list, tuple)) and stacked_sequence(x) is None:
            return Tensor(np.asarray(x, dtype=dtype))   # no int32 detour
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
    if isinstance(x, (list, tuple)):
        stacked = stacked_sequence(x)    # keeps the tensors' gradients
        if stacked is not None:
            return stacked
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
    if dtype in dtypes_module.ML_FLOATS:
        # numpy's finfo knows only its own floats.
        dtypes_module.require_ml_dtypes(dtype)
        import ml_dtypes  # lazy: optional dependency
        info = ml_dtypes.finfo(dtype)
        return float(info.min), float(info.max)
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
    # lazy: a top-level import would close an import circle
    from kerasish.ops.numpy_base import clip
    if in_dtype in ("float16", "bfloat16") and dtype != "bool" \
            and np.dtype(dtype).kind in "iu" and np.dtype(dtype).itemsize <= 4:
        # A 16-bit float bound may round onto `max + 1` (32768 for int16):
        # clip in float64, where the integer limits are exact, so the result
        # saturates at the true limit as Keras's does.
        return cast(clip(cast(x, "float64"), *_limits(dtype)), dtype)
    (in_min, in_max), (out_min, out_max) = _limits(in_dtype), _limits(dtype)
    # The output limits may not be representable in the input dtype
    # (float32 cannot hold int32's max): nudge them inside.
    with np.errstate(over="ignore"):
        low = np.asarray(max(in_min, out_min)).astype(in_dtype)
        if float(low) < out_min:
            low = np.nextafter(low, 0, dtype=in_dtype)
        high = np.asarray(min(in_max, out_max)).astype(in_dtype)
        if float(high) > out_max:
            high = np.nextafter(high, 0, dtype=in_dtype)
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


@keras_op
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


from kerasish.ops.core_scatter import (scatter, scatter_update,  # noqa
                                       slice, slice_update, unstack)
from kerasish.ops.core_flow import (associative_scan, cond,  # noqa: E402,F401
                                    fori_loop, map, scan, switch,
                                    vectorized_map, while_loop)
from kerasish.ops.einops import rearrange  # noqa: E402,F401
