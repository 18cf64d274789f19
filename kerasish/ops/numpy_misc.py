"""Sorting, searching, set and counting ops of `keras.ops.numpy`, plus
`vectorize` and `view`. Only `sort` carries a gradient (through a gather);
the others return indices, counts or booleans."""
import numpy as np

from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import _tensors, where
from kerasish.ops.symbolic import keras_op

__all__ = ["argsort", "sort", "argpartition", "unique", "searchsorted",
           "isin", "bincount", "digitize", "isclose", "allclose",
           "nan_to_num", "vectorize", "view"]


def _int32(a):
    return Tensor(np.asarray(a, dtype="int32"))


@keras_op
def argsort(x, axis=-1):
    """Indices that sort `x` along `axis` (stable; flattened if `None`).

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to -1.

    Returns:
        int32 indices.

    Example:

    >>> argsort([3, 1, 2]).numpy()
    array([1, 2, 0], dtype=int32)
    """
    values = np.asarray(to_array(x))
    if axis is None:
        values, axis = values.ravel(), 0
    return _int32(np.argsort(values, axis=axis, kind="stable"))


@keras_op
def sort(x, axis=-1):
    """Sort along `axis` (flattened if `None`); differentiable.

    Args:
        x: Input tensor.
        axis: Int or `None`. Defaults to -1.

    Returns:
        The sorted tensor.

    Example:

    >>> sort([3, 1, 2]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = S.reshape(x, shape=(-1,)), 0
    order = np.argsort(x.numpy(), axis=axis, kind="stable")
    return S.take_along_axis(x, order, axis=axis)


@keras_op
def argpartition(x, kth, axis=-1):
    """Indices that partition `x` around its `kth` smallest entry.

    As in Keras's JAX backend, the first `kth + 1` indices point at the
    smallest entries in ascending order, and the others at the remaining
    entries in index order.

    Args:
        x: Input tensor.
        kth: Position of the partition element.
        axis: Int or `None` (flattened). Defaults to -1.

    Returns:
        int32 indices.

    Example:

    >>> argpartition([3, 1, 2, 0], 1).numpy()
    array([3, 1, 0, 2], dtype=int32)
    """
    values = np.asarray(to_array(x))
    if axis is None:
        values, axis = values.ravel(), 0
    values = np.moveaxis(values, axis, -1)
    n = values.shape[-1]
    if not -n <= kth < n:
        raise ValueError(f"kth={kth} is out of bounds for an axis of size "
                         f"{n}.")
    kth %= n
    low = np.argsort(values, axis=-1, kind="stable")[..., :kth + 1]
    rest = np.ones(values.shape, dtype=bool)
    np.put_along_axis(rest, low, False, axis=-1)
    high = np.nonzero(rest)[-1].reshape(values.shape[:-1] + (n - kth - 1,))
    order = np.concatenate([low, high], axis=-1)
    return _int32(np.moveaxis(order, -1, axis))


def _pad_unique(results, size, fill_value):
    """JAX's fixed `size`: truncate, or pad values with `fill_value` (the
    smallest value by default), indices likewise and counts with 0."""
    values = results[0]
    n = values.shape[0]
    if size <= n:
        return [r[:size] if i != 2 else r for i, r in enumerate(results)]
    fill = values[:1] if fill_value is None else \
        np.full((1,) + values.shape[1:], fill_value, values.dtype)
    padded = [np.concatenate([values] + [fill] * (size - n))]
    for i, r in enumerate(results[1:], start=1):
        if i == 2:
            padded.append(r)
            continue
        pad_with = 0 if i == 3 else r[:1]
        extra = np.zeros((size - n,) + r.shape[1:], r.dtype) + pad_with
        padded.append(np.concatenate([r, extra]))
    return padded


@keras_op
def unique(x, sorted=True, return_index=False, return_inverse=False,
           return_counts=False, axis=None, size=None, fill_value=None):
    """The sorted unique entries (or slices along `axis`) of `x`.

    Args:
        x: Input tensor.
        sorted: Accepted for Keras compatibility; results are sorted.
        return_index: Also return the first index of each unique value.
        return_inverse: Also return, for each entry of `x`, the index of
            its unique value (shaped like `x` when `axis` is `None`).
        return_counts: Also return the count of each unique value.
        axis: Axis along which slices are compared, or `None` (flattened).
        size: Optional fixed number of unique values: the result is
            truncated, or padded with `fill_value` (default: the smallest
            value), as in JAX.
        fill_value: Padding value when `size` is larger.

    Returns:
        The unique values, or a tuple with the requested extras (int32).

    Example:

    >>> unique([3, 1, 3, 2]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    values = np.asarray(convert_to_tensor(x).numpy())
    found = np.unique(values, return_index=True, return_inverse=True,
                      return_counts=True, axis=axis)
    uniq, index, inverse, counts = found
    if axis is None:
        inverse = inverse.reshape(values.shape)
    results = [uniq, index, inverse, counts]
    if size is not None:
        results = _pad_unique(results, int(size), fill_value)
    extras = [(return_index, 1), (return_inverse, 2), (return_counts, 3)]
    outputs = [Tensor(results[0])] + [_int32(results[i])
                                      for flag, i in extras if flag]
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@keras_op
def searchsorted(sorted_sequence, values, side="left"):
    """Insertion points of `values` into a sorted 1-D sequence.

    Args:
        sorted_sequence: 1-D ascending tensor.
        values: Values to insert.
        side: `"left"` (first suitable position, default) or `"right"`.

    Returns:
        int32 indices shaped like `values`.

    Example:

    >>> searchsorted([1.0, 2.0, 3.0], [2.5, 2.0]).numpy()
    array([2, 1], dtype=int32)
    """
    seq = np.asarray(to_array(sorted_sequence))
    if seq.ndim != 1:
        raise ValueError(
            "`searchsorted` only supports 1-D sorted sequences. You can use "
            "`keras.ops.vectorized_map` to extend it to N-D sequences. "
            f"Received: sorted_sequence.shape={seq.shape}")
    if side not in ("left", "right"):
        raise ValueError("`side` must be 'left' or 'right'. "
                         f"Received: side={side}")
    return _int32(np.searchsorted(seq, np.asarray(to_array(values)),
                                  side=side))


@keras_op
def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each entry of `x1` occurs in `x2`.

    Args:
        x1: Input tensor.
        x2: Tensor of values to look for.
        assume_unique: Accepted for compatibility (no effect on results).
        invert: Return the negation. Defaults to `False`.

    Returns:
        Boolean tensor shaped like `x1`.

    Example:

    >>> isin([1, 2, 3], [2, 3]).numpy()
    array([False,  True,  True])
    """
    a, b = (np.asarray(to_array(v)) for v in (x1, x2))
    return Tensor(np.asarray(np.isin(a, b, invert=invert)))


@keras_op
def bincount(x, weights=None, minlength=0, sparse=False):
    """Count occurrences of each non-negative int (weighted if asked).

    Args:
        x: 1-D (or 2-D: one count per row) non-negative int tensor.
        weights: Optional weights shaped like `x`.
        minlength: Minimum number of bins. Defaults to 0.
        sparse: Accepted for compatibility; the result is dense.

    Returns:
        The counts (int32, or the weights' dtype).

    Example:

    >>> bincount([0, 1, 1, 3]).numpy()
    array([1, 2, 0, 1], dtype=int32)
    """
    values = np.asarray(to_array(x))
    w = None if weights is None else np.asarray(to_array(weights))
    if values.size and values.min() < 0:
        raise ValueError("`bincount` needs non-negative integers. "
                         f"Received a minimum of {values.min()}")
    length = max(int(minlength), int(values.max()) + 1 if values.size else 0)
    if values.ndim == 2:
        rows = [np.bincount(r, None if w is None else wr, length)
                for r, wr in zip(values, w if w is not None
                                 else [None] * len(values))]
        out = np.stack(rows)
    else:
        out = np.bincount(values.ravel(), None if w is None else w.ravel(),
                          length)
    return Tensor(out.astype("int32" if w is None else w.dtype))


@keras_op
def digitize(x, bins):
    """Index of the bin of each entry (`bins` increasing).

    Args:
        x: Input tensor.
        bins: 1-D increasing bin edges.

    Returns:
        int32 bin indices.

    Example:

    >>> digitize([0.5, 1.5], [0.0, 1.0]).numpy()
    array([1, 2], dtype=int32)
    """
    return _int32(np.digitize(np.asarray(to_array(x)),
                              np.asarray(to_array(bins))))


@keras_op
def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """Whether `|x1 - x2| <= atol + rtol * |x2|` elementwise.

    Args:
        x1: Input tensor.
        x2: Input tensor.
        rtol: Relative tolerance. Defaults to 1e-5.
        atol: Absolute tolerance. Defaults to 1e-8.
        equal_nan: Whether NaNs compare equal. Defaults to `False`.

    Returns:
        Boolean tensor.

    Example:

    >>> isclose([1.0, 2.0], [1.0, 2.1]).numpy()
    array([ True, False])
    """
    a, b = (np.asarray(t.numpy()) for t in _tensors(x1, x2))
    return Tensor(np.asarray(np.isclose(a, b, rtol, atol, equal_nan)))


@keras_op
def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """Whether all entries are close (see `isclose`).

    Args:
        x1: Input tensor.
        x2: Input tensor.
        rtol: Relative tolerance. Defaults to 1e-5.
        atol: Absolute tolerance. Defaults to 1e-8.
        equal_nan: Whether NaNs compare equal. Defaults to `False`.

    Returns:
        A boolean scalar tensor.

    Example:

    >>> bool(allclose([1.0, 2.0], [1.0, 2.0 + 1e-7]))
    True
    """
    close = isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return Tensor(np.asarray(np.all(close.numpy())))


@keras_op
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replace NaN and infinities by finite numbers (gradient passes
    through the finite entries).

    Args:
        x: Input tensor.
        nan: Replacement for NaN. Defaults to 0.0.
        posinf: Replacement for +inf (default: the largest finite value).
        neginf: Replacement for -inf (default: the lowest finite value).

    Returns:
        The cleaned tensor.

    Example:

    >>> nan_to_num([np.nan, 1.0]).numpy()
    array([0., 1.], dtype=float32)
    """
    x = convert_to_tensor(x)
    clean = np.nan_to_num(x.numpy(), nan=nan, posinf=posinf, neginf=neginf)
    return where(np.isfinite(x.numpy()), x, Tensor(clean.astype(x.dtype)))


@keras_op
def view(x, dtype=None):
    """Reinterpret the bytes of `x` as another dtype (no gradient).

    Args:
        x: Input tensor.
        dtype: Target dtype; `None` returns `x` unchanged.

    Returns:
        The reinterpreted tensor (the last axis is rescaled when item
        sizes differ).

    Example:

    >>> view(np.array([1.0], "float32"), "int32").numpy()
    array([1065353216], dtype=int32)
    """
    x = convert_to_tensor(x)
    if dtype is None:
        return x
    dtype = dtypes_module.standardize_dtype(dtype)
    values = np.ascontiguousarray(x.numpy())
    if values.ndim == 0 and np.dtype(dtype).itemsize != values.itemsize:
        raise ValueError("Changing the item size needs a tensor of rank >= "
                         f"1. Received: x.shape={x.shape}, dtype={dtype}")
    return Tensor(values.view(dtype))


from kerasish.ops.numpy_vectorize import vectorize  # noqa: E402,F401
