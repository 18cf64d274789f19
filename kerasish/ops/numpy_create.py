"""Tensor creation of `keras.ops.numpy`: constants and ranges (window
functions are in `numpy_windows.py`).

Constant-valued results default to `floatx()` as in Keras.
"""
import builtins

import numpy as np

from kerasish.backend import config
from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "eye", "identity", "tri", "arange",
           "linspace", "logspace", "geomspace", "array", "copy"]


def _dtype(dtype):
    return dtypes_module.standardize_dtype(dtype)


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) \
        else tuple(int(d) for d in shape)


def zeros(shape, dtype=None):
    """A tensor of zeros.

    Args:
        shape: Int or tuple of ints.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        The tensor.

    Example:

    >>> zeros((2,)).numpy()
    array([0., 0.], dtype=float32)
    """
    return Tensor(np.zeros(_shape(shape), _dtype(dtype)))


def ones(shape, dtype=None):
    """A tensor of ones.

    Args:
        shape: Int or tuple of ints.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        The tensor.

    Example:

    >>> ones((2,), dtype="int32").numpy()
    array([1, 1], dtype=int32)
    """
    return Tensor(np.ones(_shape(shape), _dtype(dtype)))


def full(shape, fill_value, dtype=None):
    """A tensor filled with `fill_value`.

    Args:
        shape: Int or tuple of ints.
        fill_value: Scalar (or broadcastable) value.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        The tensor.

    Example:

    >>> full((2,), 7).numpy()
    array([7., 7.], dtype=float32)
    """
    return Tensor(np.full(_shape(shape), to_array(fill_value), _dtype(dtype)))


def empty(shape, dtype=None):
    """An uninitialised-by-contract tensor (zeros here, deterministically).

    Args:
        shape: Int or tuple of ints.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        The tensor.

    Example:

    >>> empty((2, 3)).shape
    (2, 3)
    """
    return zeros(shape, dtype)


def _like(x, dtype):
    x = convert_to_tensor(x)
    return x.shape, x.dtype if dtype is None else _dtype(dtype)


@keras_op
def zeros_like(x, dtype=None):
    """Zeros with the shape (and by default the dtype) of `x`.

    Args:
        x: Tensor whose shape is used.
        dtype: Optional dtype.

    Returns:
        The tensor.

    Example:

    >>> zeros_like(np.ones(2, "int32")).numpy()
    array([0, 0], dtype=int32)
    """
    shape, dtype = _like(x, dtype)
    return Tensor(np.zeros(shape, dtype))


@keras_op
def ones_like(x, dtype=None):
    """Ones with the shape (and by default the dtype) of `x`.

    Args:
        x: Tensor whose shape is used.
        dtype: Optional dtype.

    Returns:
        The tensor.

    Example:

    >>> ones_like(np.zeros(2, "float32")).numpy()
    array([1., 1.], dtype=float32)
    """
    shape, dtype = _like(x, dtype)
    return Tensor(np.ones(shape, dtype))


@keras_op
def full_like(x, fill_value, dtype=None):
    """`fill_value` with the shape (and by default the dtype) of `x`.

    Args:
        x: Tensor whose shape is used.
        fill_value: Fill value.
        dtype: Optional dtype.

    Returns:
        The tensor.

    Example:

    >>> full_like(np.ones(2, "int32"), 2.5).numpy()
    array([2, 2], dtype=int32)
    """
    shape, dtype = _like(x, dtype)
    return Tensor(np.full(shape, to_array(fill_value), dtype))


@keras_op
def empty_like(x, dtype=None):
    """`zeros_like` (an empty tensor's contents are unspecified).

    Args:
        x: Tensor whose shape is used.
        dtype: Optional dtype.

    Returns:
        The tensor.

    Example:

    >>> empty_like(np.ones((2, 2))).shape
    (2, 2)
    """
    return zeros_like(x, dtype)


def eye(N, M=None, k=0, dtype=None):
    """Ones on the `k`-th diagonal, zeros elsewhere.

    Args:
        N: Number of rows.
        M: Number of columns. Defaults to `N`.
        k: Diagonal offset. Defaults to 0.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        Matrix of shape `(N, M)`.

    Example:

    >>> eye(2, dtype="int32").numpy()
    array([[1, 0],
           [0, 1]], dtype=int32)
    """
    return Tensor(np.eye(int(N), None if M is None else int(M), int(k),
                         dtype=_dtype(dtype)))


def identity(n, dtype=None):
    """The `n x n` identity matrix.

    Args:
        n: Size.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        The matrix.

    Example:

    >>> identity(2).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the `k`-th diagonal.

    Args:
        N: Number of rows.
        M: Number of columns. Defaults to `N`.
        k: Diagonal offset. Defaults to 0.
        dtype: Dtype. Defaults to `floatx()`.

    Returns:
        Matrix of shape `(N, M)`.

    Example:

    >>> tri(2).numpy()
    array([[1., 0.],
           [1., 1.]], dtype=float32)
    """
    return Tensor(np.tri(int(N), None if M is None else int(M), int(k),
                         dtype=_dtype(dtype)))


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in `[start, stop)`.

    Args:
        start: Start (or the stop when `stop` is `None`).
        stop: End (exclusive).
        step: Spacing. Defaults to 1.
        dtype: Dtype. Defaults to int32 for int arguments, else `floatx()`.

    Returns:
        1-D tensor.

    Example:

    >>> arange(3).numpy()
    array([0, 1, 2], dtype=int32)
    """
    step = 1 if step is None else step
    if dtype is None:
        is_int = builtins.all(isinstance(v, (int, np.integer))
                              for v in (start, stop, step) if v is not None)
        dtype = "int32" if is_int else config.floatx()
    if stop is None:
        start, stop = 0, start
    return Tensor(np.arange(start, stop, step, dtype=_dtype(dtype)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0):
    """`num` evenly spaced values from `start` to `stop`.

    Args:
        start: Start value(s).
        stop: End value(s).
        num: Number of values. Defaults to 50.
        endpoint: Include `stop`. Defaults to `True`.
        retstep: Also return the spacing. Defaults to `False`.
        dtype: Dtype. Defaults to `floatx()`.
        axis: Axis of the samples when `start`/`stop` are arrays.

    Returns:
        The samples (and the step if `retstep`).

    Example:

    >>> linspace(0, 1, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    out = np.linspace(to_array(start), to_array(stop), int(num),
                      endpoint=endpoint, retstep=retstep, axis=axis)
    values, step = out if retstep else (out, None)
    if dtype is not None and np.dtype(_dtype(dtype)).kind in "iu":
        values = np.floor(values)
    values = Tensor(values.astype(_dtype(dtype)))
    if retstep:
        return values, Tensor(np.asarray(step, dtype=values.dtype))
    return values


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None,
             axis=0):
    """`base ** linspace(start, stop)`.

    Args:
        start: Start exponent(s).
        stop: End exponent(s).
        num: Number of values. Defaults to 50.
        endpoint: Include `base ** stop`. Defaults to `True`.
        base: Base. Defaults to 10.
        dtype: Dtype. Defaults to `floatx()`.
        axis: Axis of the samples when `start`/`stop` are arrays.

    Returns:
        The samples.

    Example:

    >>> logspace(0, 2, 3).numpy()
    array([  1.,  10., 100.], dtype=float32)
    """
    out = np.logspace(to_array(start), to_array(stop), int(num),
                      endpoint=endpoint, base=to_array(base), axis=axis)
    return Tensor(out.astype(_dtype(dtype)))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale from `start` to `stop`.

    Args:
        start: Start value(s) (nonzero).
        stop: End value(s) (nonzero, same sign).
        num: Number of values. Defaults to 50.
        endpoint: Include `stop`. Defaults to `True`.
        dtype: Dtype. Defaults to `floatx()`.
        axis: Axis of the samples when `start`/`stop` are arrays.

    Returns:
        The samples.

    Example:

    >>> geomspace(1, 100, 3).numpy()
    array([  1.,  10., 100.], dtype=float32)
    """
    out = np.geomspace(to_array(start), to_array(stop), int(num),
                       endpoint=endpoint, axis=axis)
    return Tensor(out.astype(_dtype(dtype)))


@keras_op
def array(x, dtype=None):
    """Convert `x` to a tensor (`convert_to_tensor`).

    Args:
        x: Array-like.
        dtype: Optional dtype.

    Returns:
        The tensor.

    Example:

    >>> array([1, 2]).dtype
    dtype('int32')
    """
    return convert_to_tensor(x, dtype=dtype)


@keras_op
def copy(x):
    """A copy of `x` (differentiable identity).

    Args:
        x: Input tensor.

    Returns:
        The copy.

    Example:

    >>> copy([1.0, 2.0]).numpy()
    array([1., 2.], dtype=float32)
    """
    return S.identity(convert_to_tensor(x))


