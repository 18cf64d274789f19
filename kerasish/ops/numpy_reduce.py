"""Reductions of `keras.ops.numpy`: sums, extrema, moments, cumulative ops.

Quantiles and the NaN-ignoring reductions are in `numpy_stats.py`.
"""
import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend import reduction as R
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_base import (_float, divide, maximum, minimum,
                                     multiply, sqrt, square, subtract)
from kerasish.ops.symbolic import keras_op
from kerasish.ops.numpy_shape import reshape

__all__ = ["sum", "mean", "max", "min", "amax", "amin", "prod", "argmax",
           "argmin", "any", "all", "var", "std", "average", "cumsum",
           "cumprod", "count_nonzero", "ptp"]


def _axis(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def _accumulator(x):
    """Keras/JAX sum small ints and bools in int32 (numpy would use int64),
    and bfloat16 in float32 (as XLA; numpy would round every partial sum
    to bfloat16's 8 bits)."""
    if x.dtype == bool or x.dtype.kind in "iu" and x.dtype.itemsize < 4:
        return cast(x, "int32" if x.dtype.kind == "i" or x.dtype == bool
                    else "uint32")
    if x.dtype.name == "bfloat16":
        return cast(x, "float32")
    return x


@keras_op
def sum(x, axis=None, keepdims=False):
    """Sum over `axis` (all axes when `None`).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The sums (small ints and bools are summed in int32).

    Example:

    >>> sum([[1, 2], [3, 4]], axis=0).numpy()
    array([4, 6], dtype=int32)
    """
    x = convert_to_tensor(x)
    acc = _accumulator(x)
    out = R.sum(acc, axis=_axis(axis), keepdims=keepdims)
    # Small ints give int32 (the accumulator); bfloat16 gives bfloat16.
    return _same_dtype(out, x if x.dtype.name == "bfloat16" else acc)


def _same_dtype(out, x):
    """numpy accumulates int32 in int64; Keras keeps the input's dtype."""
    return out if out.dtype == x.dtype else cast(out, x.dtype)


@keras_op
def mean(x, axis=None, keepdims=False):
    """Arithmetic mean over `axis`; ints give `floatx()`.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The means.

    Example:

    >>> mean([1, 2, 4]).numpy()
    array(2.3333333, dtype=float32)
    """
    x = _float(x)
    out = R.mean(_accumulator(x), axis=_axis(axis), keepdims=keepdims)
    return _same_dtype(out, x)


def _extremum(prim, pick, x, axis, keepdims, initial, name):
    x = convert_to_tensor(x)
    if x.size == 0 and initial is None:
        raise ValueError(f"Cannot compute the {name} of an empty tensor "
                         f"without `initial`. Received: x.shape={x.shape}")
    if x.size == 0:
        shape = np.sum(np.zeros(x.shape), axis=_axis(axis),
                       keepdims=keepdims).shape
        return Tensor(np.full(shape, initial, x.dtype))
    out = prim(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else pick(out, initial)


@keras_op
def max(x, axis=None, keepdims=False, initial=None):
    """Maximum over `axis` (ties share the gradient equally).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.
        initial: Optional lower bound of the result (needed for empty
            inputs). Defaults to `None`.

    Returns:
        The maxima.

    Example:

    >>> max([[1, 5], [3, 2]], axis=1).numpy()
    array([5, 3], dtype=int32)
    """
    return _extremum(R.max, maximum, x, axis, keepdims, initial, "max")


@keras_op
def min(x, axis=None, keepdims=False, initial=None):
    """Minimum over `axis` (ties share the gradient equally).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.
        initial: Optional upper bound of the result (needed for empty
            inputs). Defaults to `None`.

    Returns:
        The minima.

    Example:

    >>> min([[1, 5], [3, 2]], axis=1).numpy()
    array([1, 2], dtype=int32)
    """
    return _extremum(R.min, minimum, x, axis, keepdims, initial, "min")


amax = max
amin = min


@keras_op
def prod(x, axis=None, keepdims=False, dtype=None):
    """Product over `axis` (exact gradient also with zero entries).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.
        dtype: Optional dtype of the computation and result.

    Returns:
        The products.

    Example:

    >>> prod([[1, 2], [3, 4]], axis=1).numpy()
    array([ 2, 12], dtype=int32)
    """
    x = convert_to_tensor(x)
    acc = _accumulator(x) if dtype is None else cast(x, dtype)
    out = R.prod(acc, axis=_axis(axis), keepdims=keepdims)
    keep = dtype is None and x.dtype.name == "bfloat16"
    return _same_dtype(out, x if keep else acc)


@keras_op
def argmax(x, axis=None, keepdims=False):
    """Index of the maximum along `axis` (of the flattened input if None).

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to `None`.
        keepdims: Keep the reduced axis with size 1. Defaults to `False`.

    Returns:
        int32 indices.

    Example:

    >>> argmax([[1, 5], [3, 2]], axis=1).numpy()
    array([1, 0], dtype=int32)
    """
    return cast(R.argmax(_signed_zeros(x), axis=axis,
                         keepdims=keepdims), "int32")


@keras_op
def argmin(x, axis=None, keepdims=False):
    """Index of the minimum along `axis` (of the flattened input if None).

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to `None`.
        keepdims: Keep the reduced axis with size 1. Defaults to `False`.

    Returns:
        int32 indices.

    Example:

    >>> argmin([[1, 5], [3, 2]], axis=1).numpy()
    array([0, 1], dtype=int32)
    """
    return cast(R.argmin(_signed_zeros(x), axis=axis,
                         keepdims=keepdims), "int32")


def _signed_zeros(x):
    """`x` where -0.0 ranks below 0.0, as Keras's argmax/argmin (which
    replace -0.0 by minus the smallest normal number)."""
    x = convert_to_tensor(x)
    value = x._value
    if value.dtype.kind != "f" or not np.any(np.signbit(value) &
                                             (value == 0)):
        return x
    value = np.where((value == 0) & np.signbit(value),
                     -np.finfo(value.dtype).tiny, value)
    return Tensor(value.astype(x.dtype, copy=False))


@keras_op
def any(x, axis=None, keepdims=False):
    """Whether any entry along `axis` is true (nonzero).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Boolean tensor.

    Example:

    >>> any([[0, 1], [0, 0]], axis=1).numpy()
    array([ True, False])
    """
    return R.any(convert_to_tensor(x), axis=_axis(axis), keepdims=keepdims)


@keras_op
def all(x, axis=None, keepdims=False):
    """Whether all entries along `axis` are true (nonzero).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Boolean tensor.

    Example:

    >>> all([[1, 1], [0, 1]], axis=1).numpy()
    array([ True, False])
    """
    return R.all(convert_to_tensor(x), axis=_axis(axis), keepdims=keepdims)


@keras_op
def var(x, axis=None, keepdims=False):
    """Population variance over `axis`.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The variances.

    Example:

    >>> var([1.0, 3.0]).numpy()
    array(1., dtype=float32)
    """
    x = _float(x)
    dtype = x.dtype
    if str(dtype) in ("float16", "bfloat16"):
        # As Keras: computed in float32 (float16's range is too small
        # for squared deviations), returned in the input's dtype.
        return cast(var(cast(x, "float32"), axis=axis, keepdims=keepdims),
                    dtype)
    centered = subtract(x, mean(x, axis=axis, keepdims=True))
    return mean(square(centered), axis=axis, keepdims=keepdims)


@keras_op
def std(x, axis=None, keepdims=False):
    """Population standard deviation over `axis`.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The standard deviations.

    Example:

    >>> std([1.0, 3.0]).numpy()
    array(1., dtype=float32)
    """
    return sqrt(var(x, axis=axis, keepdims=keepdims))


@keras_op
def average(x, axis=None, weights=None):
    """Weighted average over `axis` (plain mean without `weights`).

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to `None`.
        weights: Optional weights, shaped like `x` or 1-D along `axis`.

    Returns:
        The averages.

    Example:

    >>> average([1.0, 3.0], weights=[3.0, 1.0]).numpy()
    array(1.5, dtype=float32)
    """
    x = _float(x)
    if weights is None:
        return mean(x, axis=axis)
    weights = convert_to_tensor(weights)
    if axis is not None and weights.ndim == 1 and x.ndim > 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        weights = reshape(weights, shape)
    weights = cast(weights, x.dtype) if weights.dtype.kind != "f" else weights
    total = sum(multiply(x, weights), axis=axis)
    return divide(total, sum(multiply(Tensor(np.ones(x.shape, x.dtype)),
                                      weights), axis=axis))


def _cumulative(prim, x, axis, dtype):
    x = convert_to_tensor(x)
    if dtype is not None or x.dtype == bool:
        # Keras keeps small ints (int8 stays int8); bools count in int32.
        x = cast(x, dtype or "int32")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    return _same_dtype(prim(x, axis=axis), x)


@keras_op
def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along `axis` (of the flattened input if `None`).

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to `None`.
        dtype: Optional dtype of the computation and result.

    Returns:
        The running sums.

    Example:

    >>> cumsum([1, 2, 3]).numpy()
    array([1, 3, 6], dtype=int32)
    """
    return _cumulative(R.cumsum, x, axis, dtype)


@keras_op
def cumprod(x, axis=None, dtype=None):
    """Cumulative product along `axis` (of the flattened input if `None`).

    The gradient is exact also where entries are zero.

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to `None`.
        dtype: Optional dtype of the computation and result.

    Returns:
        The running products.

    Example:

    >>> cumprod([1, 2, 3]).numpy()
    array([1, 2, 6], dtype=int32)
    """
    return _cumulative(E.cumprod, x, axis, dtype)


@keras_op
def count_nonzero(x, axis=None):
    """Number of nonzero entries along `axis`.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.

    Returns:
        int32 counts.

    Example:

    >>> count_nonzero([[0, 1], [2, 3]], axis=1).numpy()
    array([1, 2], dtype=int32)
    """
    return Tensor(np.asarray(np.count_nonzero(to_array(x), axis=_axis(axis)),
                             dtype="int32"))


@keras_op
def ptp(x, axis=None, keepdims=False):
    """Peak to peak: `max - min` along `axis`.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The ranges.

    Example:

    >>> ptp([[1, 5], [3, 2]], axis=1).numpy()
    array([4, 1], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.dtype == bool:
        raise TypeError("`ptp` does not support boolean inputs. "
                        f"Received: x.dtype={x.dtype}")
    return subtract(max(x, axis=axis, keepdims=keepdims),
                    min(x, axis=axis, keepdims=keepdims))

