"""Statistics of `keras.ops.numpy`: quantiles and NaN-ignoring reductions
(differences, integration, correlation and histograms are re-exported
from `numpy_series.py`).

Quantiles sort with a differentiable gather, so their gradients flow to
the selected (and interpolated) entries, as in JAX.
"""
import numpy as np

from kerasish.backend import reduction as R
from kerasish.backend import shape as S
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_base import (_float, add, divide, isnan,
                                     logical_not, multiply, sqrt, square,
                                     subtract, where)
from kerasish.ops.numpy_reduce import (_axis, all, argmax, argmin, cumprod,
                                       cumsum, max, min, prod, sum)
from kerasish.ops.symbolic import keras_op

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile",
           "nanpercentile", "nansum", "nanprod", "nanmean", "nanvar",
           "nanstd", "nanmax", "nanmin", "nanargmax", "nanargmin",
           "nancumsum", "nancumprod", "diff", "trapezoid", "corrcoef",
           "correlate", "histogram"]

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


# -- quantiles ----------------------------------------------------------------
def _lanes(x, axis):
    """`x` with the reduced axes moved last and merged: `(*kept, n)`."""
    axes = R.normalize_axis(_axis(axis), x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = S.transpose(x, axes=tuple(kept + list(axes)))
    lead = tuple(x.shape[i] for i in kept)
    return S.reshape(moved, shape=lead + (-1,)), axes


def _positions(q, n, method):
    """Lower/upper sorted indices and interpolation weights per quantile."""
    pos = (n[..., None] - 1) * q.ravel()
    lo = np.floor(pos)
    if method == "lower":
        hi = lo
    elif method == "higher":
        lo = hi = np.ceil(pos)
    elif method == "nearest":
        # JAX's rule: ties go to the lower entry (numpy rounds half to even).
        lo = hi = np.where(pos - lo <= 0.5, lo, np.ceil(pos))
    else:
        hi = np.ceil(pos)
    top = np.maximum(n[..., None] - 1, 0)
    frac = pos - lo if method == "linear" else \
        np.full(pos.shape, 0.5 if method == "midpoint" else 0.0)
    lo, hi = (np.clip(v, 0, top).astype(np.int64) for v in (lo, hi))
    return lo, hi, frac


def _quantiles(q):
    """`q` in float64 (a Python list must not be rounded to float32)."""
    return np.asarray(q.numpy() if isinstance(q, Tensor) else q,
                      dtype=np.float64)


def _quantile(x, q, axis, method, keepdims, ignore_nan):
    if method not in _METHODS:
        raise ValueError(f"`method` must be one of {_METHODS}. "
                         f"Received: method={method}")
    x = _float(x)
    q = _quantiles(q)
    if np.any((q < 0) | (q > 1)):
        raise ValueError("Quantiles must be in the range [0, 1]. "
                         f"Received: q={q}")
    flat, axes = _lanes(x, axis)
    values = flat.numpy()
    nans = np.isnan(values).sum(axis=-1)
    n = values.shape[-1] - nans if ignore_nan else \
        np.full(values.shape[:-1], values.shape[-1])
    srt = S.take_along_axis(flat, np.argsort(values, -1, kind="stable"),
                            axis=-1)
    lo, hi, frac = _positions(q, n, method)
    v_lo = S.take_along_axis(srt, lo, axis=-1)
    v_hi = S.take_along_axis(srt, hi, axis=-1)
    out = add(v_lo, multiply(subtract(v_hi, v_lo),
                             Tensor(frac.astype(x.dtype))))
    undefined = (n == 0) if ignore_nan else (nans > 0)
    out = where(undefined[..., None], np.nan, out)
    out = S.moveaxis(out, source=-1, destination=0)
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)] \
        if keepdims else [d for i, d in enumerate(x.shape) if i not in axes]
    return S.reshape(out, shape=q.shape + tuple(shape))


@keras_op
def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles of `x` along `axis`.

    Args:
        x: Input tensor.
        q: Quantile(s) in `[0, 1]`, a scalar or 1-D.
        axis: Int, tuple of ints or `None` (all axes). Defaults to `None`.
        method: `"linear"` (default), `"lower"`, `"higher"`, `"midpoint"`
            or `"nearest"`: how to pick between the two closest entries.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Tensor of shape `q.shape + reduced shape` (NaN where a lane holds
        a NaN).

    Example:

    >>> quantile([1.0, 2.0, 3.0, 4.0], [0.25, 0.5]).numpy()
    array([1.75, 2.5 ], dtype=float32)
    """
    return _quantile(x, q, axis, method, keepdims, ignore_nan=False)


@keras_op
def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (`q` in `[0, 100]`) of `x` along `axis`.

    Args:
        x: Input tensor.
        q: Percentile(s), a scalar or 1-D.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        method: As in `quantile`. Defaults to `"linear"`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Tensor of shape `q.shape + reduced shape`.

    Example:

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50).numpy()
    array(2.5, dtype=float32)
    """
    return _quantile(x, _quantiles(q) / 100.0, axis, method, keepdims,
                     ignore_nan=False)


@keras_op
def median(x, axis=None, keepdims=False):
    """Median along `axis` (mean of the two middle entries when even).

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The medians.

    Example:

    >>> median([[1, 3, 2], [4, 6, 5]], axis=1).numpy()
    array([2., 5.], dtype=float32)
    """
    return _quantile(x, 0.5, axis, "linear", keepdims, ignore_nan=False)


@keras_op
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """`quantile`, ignoring NaNs (NaN only for all-NaN lanes).

    Args:
        x: Input tensor.
        q: Quantile(s) in `[0, 1]`.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        method: As in `quantile`. Defaults to `"linear"`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Tensor of shape `q.shape + reduced shape`.

    Example:

    >>> nanquantile([1.0, np.nan, 3.0], 0.5).numpy()
    array(2., dtype=float32)
    """
    return _quantile(x, q, axis, method, keepdims, ignore_nan=True)


@keras_op
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """`percentile`, ignoring NaNs.

    Args:
        x: Input tensor.
        q: Percentile(s) in `[0, 100]`.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        method: As in `quantile`. Defaults to `"linear"`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        Tensor of shape `q.shape + reduced shape`.

    Example:

    >>> nanpercentile([1.0, np.nan, 3.0], 100).numpy()
    array(3., dtype=float32)
    """
    return _quantile(x, _quantiles(q) / 100.0, axis, method, keepdims,
                     ignore_nan=True)


@keras_op
def nanmedian(x, axis=None, keepdims=False):
    """`median`, ignoring NaNs.

    Args:
        x: Input tensor.
        axis: Int, tuple of ints or `None`. Defaults to `None`.
        keepdims: Keep reduced axes with size 1. Defaults to `False`.

    Returns:
        The medians.

    Example:

    >>> nanmedian([1.0, np.nan, 3.0, 4.0]).numpy()
    array(3., dtype=float32)
    """
    return _quantile(x, 0.5, axis, "linear", keepdims, ignore_nan=True)


# -- NaN-ignoring reductions --------------------------------------------------
def _filled(x, value):
    """Float `x` with NaNs replaced by `value` (other dtypes unchanged)."""
    x = convert_to_tensor(x)
    if x.dtype.kind != "f":
        return x
    return where(isnan(x), value, x)


def _valid_count(x, axis, keepdims):
    x = _float(x)
    return sum(cast(logical_not(isnan(x)), x.dtype), axis=axis,
               keepdims=keepdims)


def _nan_doc(fn, plain, example):
    fn.__doc__ = (f"`{plain}`, ignoring NaNs.\n\n    Args:\n        x: Input "
                  "tensor.\n        axis: Int, tuple of ints or `None`. "
                  "Defaults to `None`.\n        keepdims: Keep reduced axes "
                  "with size 1. Defaults to `False`.\n\n    Returns:\n        "
                  f"Output tensor.\n\n    Example:\n\n    >>> {example}\n    ")
    return keras_op(fn)


def nansum(x, axis=None, keepdims=False):
    return sum(_filled(x, 0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(_filled(x, 1), axis=axis, keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    x = _float(x)
    return divide(sum(_filled(x, 0), axis=axis, keepdims=keepdims),
                  _valid_count(x, axis, keepdims))


def nanvar(x, axis=None, keepdims=False):
    x = _float(x)
    centered = subtract(_filled(x, 0), nanmean(x, axis=axis, keepdims=True))
    squares = where(isnan(x), 0, square(centered))
    return divide(sum(squares, axis=axis, keepdims=keepdims),
                  _valid_count(x, axis, keepdims))


def nanstd(x, axis=None, keepdims=False):
    return sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def _nan_extremum(reducer, fill, x, axis, keepdims):
    x = convert_to_tensor(x)
    if x.dtype.kind != "f":
        return reducer(x, axis=axis, keepdims=keepdims)
    out = reducer(_filled(x, fill), axis=axis, keepdims=keepdims)
    return where(all(isnan(x), axis=axis, keepdims=keepdims), np.nan, out)


def nanmax(x, axis=None, keepdims=False):
    return _nan_extremum(max, -np.inf, x, axis, keepdims)


def nanmin(x, axis=None, keepdims=False):
    return _nan_extremum(min, np.inf, x, axis, keepdims)


def _nan_arg(reducer, fill, x, axis, keepdims):
    x = convert_to_tensor(x)
    index = reducer(_filled(x, fill), axis=axis, keepdims=keepdims)
    if x.dtype.kind != "f":
        return index
    # JAX's convention: -1 for a lane that is all NaN.
    empty = all(isnan(x), axis=axis, keepdims=keepdims)
    return where(empty, -1, index)


def nanargmax(x, axis=None, keepdims=False):
    return _nan_arg(argmax, -np.inf, x, axis, keepdims)


def nanargmin(x, axis=None, keepdims=False):
    return _nan_arg(argmin, np.inf, x, axis, keepdims)


nansum = _nan_doc(nansum, "sum", "nansum([1.0, np.nan, 2.0]).numpy()\n    "
                  "array(3., dtype=float32)")
nanprod = _nan_doc(nanprod, "prod", "nanprod([2.0, np.nan, 3.0]).numpy()"
                   "\n    array(6., dtype=float32)")
nanmean = _nan_doc(nanmean, "mean", "nanmean([1.0, np.nan, 3.0]).numpy()"
                   "\n    array(2., dtype=float32)")
nanvar = _nan_doc(nanvar, "var", "nanvar([1.0, np.nan, 3.0]).numpy()\n"
                  "    array(1., dtype=float32)")
nanstd = _nan_doc(nanstd, "std", "nanstd([1.0, np.nan, 3.0]).numpy()\n"
                  "    array(1., dtype=float32)")
nanmax = _nan_doc(nanmax, "max", "nanmax([1.0, np.nan, 3.0]).numpy()\n"
                  "    array(3., dtype=float32)")
nanmin = _nan_doc(nanmin, "min", "nanmin([1.0, np.nan, 3.0]).numpy()\n"
                  "    array(1., dtype=float32)")
nanargmax = _nan_doc(nanargmax, "argmax (-1 for all-NaN lanes)",
                     "nanargmax([1.0, np.nan, 3.0]).numpy()\n    "
                     "array(2, dtype=int32)")
nanargmin = _nan_doc(nanargmin, "argmin (-1 for all-NaN lanes)",
                     "nanargmin([1.0, np.nan, 3.0]).numpy()\n    "
                     "array(0, dtype=int32)")


@keras_op
def nancumsum(x, axis=None, dtype=None):
    """`cumsum`, treating NaNs as zero.

    Args:
        x: Input tensor.
        axis: Int or `None` (flattened). Defaults to `None`.
        dtype: Optional dtype of the result.

    Returns:
        The running sums.

    Example:

    >>> nancumsum([1.0, np.nan, 2.0]).numpy()
    array([1., 1., 3.], dtype=float32)
    """
    return cumsum(_filled(x, 0), axis=axis, dtype=dtype)


@keras_op
def nancumprod(x, axis=None, dtype=None):
    """`cumprod`, treating NaNs as one.

    Args:
        x: Input tensor.
        axis: Int or `None` (flattened). Defaults to `None`.
        dtype: Optional dtype of the result.

    Returns:
        The running products.

    Example:

    >>> nancumprod([2.0, np.nan, 3.0]).numpy()
    array([2., 2., 6.], dtype=float32)
    """
    return cumprod(_filled(x, 1), axis=axis, dtype=dtype)


from kerasish.ops.numpy_series import (corrcoef, correlate, diff,  # noqa
                                       histogram, trapezoid)
