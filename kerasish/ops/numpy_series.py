"""Sequence ops of `keras.ops.numpy`: differences, trapezoid integration,
correlation coefficients, 1-D cross-correlation and histograms."""
import builtins

import numpy as np

from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import (_float, _tensors, add, clip, divide,
                                     multiply, not_equal, sqrt, subtract)
from kerasish.ops.numpy_index import diagonal, take
from kerasish.ops.numpy_linear import matmul
from kerasish.ops.numpy_bits import conj
from kerasish.ops.numpy_reduce import mean, sum
from kerasish.ops.numpy_join import pad
from kerasish.ops.numpy_shape import reshape, transpose
from kerasish.ops.symbolic import keras_op

__all__ = ["diff", "trapezoid", "corrcoef", "correlate", "histogram"]


def _slice(x, axis, lo, hi):
    key = [builtins.slice(None)] * x.ndim
    key[axis] = builtins.slice(lo, hi)
    return S.getitem(x, key=tuple(key))


@keras_op
def diff(a, n=1, axis=-1):
    """`n`-th discrete difference along `axis` (`!=` for booleans).

    Args:
        a: Input tensor.
        n: Number of times to difference. Defaults to 1.
        axis: Axis. Defaults to -1.

    Returns:
        Tensor whose `axis` is `n` shorter.

    Example:

    >>> diff([1, 4, 9, 16]).numpy()
    array([3, 5, 7], dtype=int32)
    """
    x = convert_to_tensor(a)
    if n < 0:
        raise ValueError(f"`n` must be non-negative. Received: n={n}")
    axis = axis % x.ndim
    for _ in range(n):
        step = not_equal if x.dtype == bool else subtract
        x = step(_slice(x, axis, 1, None), _slice(x, axis, None, -1))
    return x


@keras_op
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrate `y` along `axis` with the trapezoidal rule.

    Args:
        y: Values to integrate.
        x: Optional sample points (1-D, or shaped like `y`).
        dx: Spacing when `x` is `None`. Defaults to 1.0.
        axis: Axis. Defaults to -1.

    Returns:
        The integrals.

    Example:

    >>> trapezoid([1.0, 2.0, 4.0]).numpy()
    array(4.5, dtype=float32)
    """
    y = _float(y)
    axis = axis % y.ndim
    mid = multiply(add(_slice(y, axis, 1, None), _slice(y, axis, None, -1)),
                   0.5)
    if x is None:
        return multiply(sum(mid, axis=axis), to_array(dx))
    x = _float(x)
    if x.ndim == 1:
        shape = [1] * y.ndim
        shape[axis] = -1
        x = reshape(x, shape)
    steps = subtract(_slice(x, axis, 1, None), _slice(x, axis, None, -1))
    return sum(multiply(steps, mid), axis=axis)


@keras_op
def corrcoef(x):
    """Pearson correlation coefficients of the rows of `x`.

    Args:
        x: 1-D or 2-D tensor; each row is a variable, each column an
            observation.

    Returns:
        The correlation matrix (a scalar for 1-D input), clipped to
        `[-1, 1]`.

    Example:

    >>> corrcoef([[1.0, 2.0, 4.0], [2.0, 1.0, 0.0]]).numpy()[0, 1]
    np.float32(-0.98198056)
    """
    x = _float(x)
    if x.ndim not in (1, 2):
        raise ValueError("`corrcoef` needs a 1-D or 2-D input. "
                         f"Received: x.shape={x.shape}")
    rows = reshape(x, (1, -1)) if x.ndim == 1 else x
    centered = subtract(rows, mean(rows, axis=1, keepdims=True))
    cov = divide(matmul(centered, transpose(conj(centered))),
                 rows.shape[1] - 1)
    scale = sqrt(diagonal(cov))
    out = divide(divide(cov, reshape(scale, (-1, 1))),
                 reshape(scale, (1, -1)))
    out = clip(out, -1.0, 1.0)
    return reshape(out, ()) if x.ndim == 1 else out


@keras_op
def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1-D sequences: `sum_n x1[n + k] x2[n]`.

    Args:
        x1: 1-D tensor.
        x2: 1-D tensor.
        mode: `"valid"` (default, full overlap only), `"same"` (length
            `max(len(x1), len(x2))`) or `"full"` (every overlap).

    Returns:
        1-D tensor (ints become `floatx()`).

    Example:

    >>> correlate([1.0, 2.0, 3.0], [0.0, 1.0, 0.5]).numpy()
    array([3.5], dtype=float32)
    """
    if mode not in ("valid", "same", "full"):
        raise ValueError("`mode` must be 'valid', 'same' or 'full'. "
                         f"Received: mode={mode}")
    a, v = _tensors(_float(x1), _float(x2))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("`correlate` needs 1-D inputs. Received: "
                         f"x1.shape={a.shape}, x2.shape={v.shape}")
    n, m = a.shape[0], v.shape[0]
    padded = pad(a, ((m - 1, m - 1),))
    windows = np.arange(n + m - 1)[:, None] + np.arange(m)[None, :]
    full = matmul(take(padded, windows), conj(v))
    if mode == "full":
        return full
    if mode == "valid":
        start, length = min(n, m) - 1, abs(n - m) + 1
    else:
        # numpy swaps the inputs when x2 is longer and reverses the result.
        length = max(n, m)
        start = (m - 1) // 2 if n >= m else n - 1 - (n - 1) // 2
    return S.getitem(full, key=(builtins.slice(start, start + length),))


@keras_op
def histogram(x, bins=10, range=None):
    """Counts of `x` in `bins` equal-width bins.

    Args:
        x: 1-D tensor.
        bins: Number of bins (non-negative int). Defaults to 10.
        range: Optional `(low, high)` tuple; defaults to `(min, max)`.

    Returns:
        A tuple `(counts, bin_edges)` of `floatx()` tensors, as Keras's JAX
        backend returns.

    Example:

    >>> counts, edges = histogram([0.1, 0.5, 0.5, 2.0], bins=3)
    >>> counts.numpy()
    array([3., 0., 1.], dtype=float32)
    """
    if not isinstance(bins, (int, np.integer)):
        raise TypeError(
            f"Argument `bins` must be of type `int`. Received: bins={bins}")
    if bins < 0:
        raise ValueError("Argument `bins` should be a non-negative integer. "
                         f"Received: bins={bins}")
    if range:
        if not isinstance(range, tuple) or len(range) < 2:
            raise ValueError("Argument `range` must be a tuple of two "
                             f"elements. Received: range={range}")
        if range[1] < range[0]:
            raise ValueError("The second element of `range` must be greater "
                             f"than the first. Received: range={range}")
    values = _float(x)
    if values.ndim > 1:
        raise ValueError("Input tensor must be 1-dimensional. "
                         f"Received: input.shape={values.shape}")
    counts, edges = np.histogram(values.numpy(), bins=int(bins), range=range)
    dtype = values.dtype
    return Tensor(counts.astype(dtype)), Tensor(edges.astype(dtype))

