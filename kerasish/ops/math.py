"""Math ops (`keras.ops.math`): logsumexp, top_k, segment reductions, erf..."""
import numpy as np

from kerasish.backend import math as M
from kerasish.backend import config
from kerasish.backend import reduction as R
from kerasish.backend import special as SP
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops.math_extra import _segment_spec, _segments
from kerasish.ops import numpy as knp
from kerasish.ops.symbolic import keras_op

__all__ = ["logsumexp", "rsqrt", "top_k", "in_top_k", "segment_sum",
           "segment_max", "erf", "erfc", "erfinv", "fft", "fft2", "ifft2",
           "rfft", "irfft", "stft", "istft", "extract_sequences",
           "view_as_complex", "view_as_real", "logdet", "segment_min",
           "segment_prod", "cdist"]


@keras_op
def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x)))` over `axis`, computed stably.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], "float32")
    >>> y = kerasish.ops.logsumexp(x, axis=-1)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([3.4076, 2.0986], dtype=float32)
    """
    return R.logsumexp(_float(x), axis=knp._axis(axis),
                       keepdims=keepdims)


@keras_op
def rsqrt(x):
    """Reciprocal square root, `1 / sqrt(x)`, element-wise.

    Args:
        x: Input tensor.

    Returns:
        A tensor of the same shape as `x`.

    Example:

    >>> x = np.array([1.0, 4.0, 16.0], "float32")
    >>> kerasish.ops.convert_to_numpy(kerasish.ops.rsqrt(x))
    array([1.  , 0.5 , 0.25], dtype=float32)
    """
    return M.rsqrt(_float(x))


@keras_op
def top_k(x, k, sorted=True):
    """The `k` largest entries along the last axis and their indices.

    Ties keep their order (the lower index first); NaN ranks above every
    number, as in Keras.

    Args:
        x: Input tensor.
        k: Number of entries to keep, `0 <= k <= x.shape[-1]`.
        sorted: Accepted for compatibility; the entries always come in
            descending order. Defaults to `True`.

    Returns:
        A tuple `(values, indices)` (`indices` int32), each of shape
        `x.shape[:-1] + (k,)`.

    Example:

    >>> x = np.array([1.0, 5.0, 3.0, 4.0], "float32")
    >>> values, indices = kerasish.ops.top_k(x, k=2)
    >>> np.asarray(values), np.asarray(indices)
    (array([5., 4.], dtype=float32), array([1, 3], dtype=int32))
    """
    x = convert_to_tensor(x)
    _check_top_k(x, k)
    keys = x._value
    if keys.dtype.kind in "iub":
        # `~` reverses integer and bool orders without the overflow of `-`
        # (-(-128) is -128 in int8, -1 is 255 in uint8).
        order = np.argsort(~keys, axis=-1, kind="stable")
    elif keys.dtype.kind == "f" and np.isnan(keys).any():
        # As Keras: NaN ranks above every number.
        keys = np.where(np.isnan(keys), np.inf, keys)
        order = np.lexsort((~np.isnan(x._value), -keys), axis=-1)
    else:
        order = np.argsort(-keys, axis=-1, kind="stable")
    order = order[..., :int(k)]
    values = knp.take_along_axis(x, order, axis=-1)
    return values, Tensor(order.astype("int32"))


def _check_top_k(x, k):
    size = x.shape[-1] if x.ndim else 0
    if int(k) < 0 or int(k) > size:
        raise ValueError("`k` must be between 0 and the size of the last "
                         f"axis. Received: k={k}, x.shape={tuple(x.shape)}")


@keras_op
def in_top_k(targets, predictions, k):
    """Whether each target class is among the top `k` predictions.

    Example:

    >>> targets = np.array([2, 0])
    >>> predictions = np.array([[0.1, 0.3, 0.6], [0.2, 0.5, 0.3]], "float32")
    >>> np.asarray(kerasish.ops.in_top_k(targets, predictions, k=1))
    array([ True, False])
    """
    preds = np.asarray(to_array(predictions))
    t = np.asarray(to_array(targets)).astype(np.int64)
    target_score = np.take_along_axis(preds, t[:, None], axis=-1)
    if target_score.dtype.kind == "f":
        # A NaN score is no high probability: it ranks last, as in Keras.
        target_score = np.where(np.isnan(target_score), -np.inf,
                                target_score)
    # Ties with the k-th value count as inside, as in TF/Keras.
    higher = (preds > target_score).sum(axis=-1)
    return Tensor(higher < k)


@keras_op(spec=_segment_spec)
def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """Sum of `data`'s rows within each segment.

    Args:
        data: Input tensor; its first axis is segmented.
        segment_ids: Int tensor of `data.shape[0]` segment indices.
        num_segments: Number of segments (default: `max(segment_ids) + 1`).
        sorted: Whether `segment_ids` are sorted (accepted; the result is
            the same either way). Defaults to `False`.

    Returns:
        A tensor of shape `(num_segments,) + data.shape[1:]`; empty
        segments hold 0.

    Example:

    >>> data = np.array([1.0, 2.0, 3.0, 4.0], "float32")
    >>> y = kerasish.ops.segment_sum(data, np.array([0, 0, 1, 1]),
    ...                              num_segments=2)
    >>> kerasish.ops.convert_to_numpy(y)
    array([3., 7.], dtype=float32)
    """
    return _segments(data, segment_ids, num_segments, "sum")


@keras_op(spec=_segment_spec)
def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """Maximum of `data`'s rows within each segment.

    Args:
        data: Input tensor; its first axis is segmented.
        segment_ids: Int tensor of `data.shape[0]` segment indices.
        num_segments: Number of segments (default: `max(segment_ids) + 1`).
        sorted: Whether `segment_ids` are sorted (accepted; the result is
            the same either way). Defaults to `False`.

    Returns:
        A tensor of shape `(num_segments,) + data.shape[1:]`.

    Example:

    >>> data = np.array([1.0, 5.0, 3.0, 4.0], "float32")
    >>> y = kerasish.ops.segment_max(data, np.array([0, 0, 1, 1]),
    ...                              num_segments=2)
    >>> kerasish.ops.convert_to_numpy(y)
    array([5., 4.], dtype=float32)
    """
    return _segments(data, segment_ids, num_segments, "max")


# Ints and bools become floatx; float16/32/64 and bfloat16 stay as they are.
from kerasish.ops.numpy_base import _float, _kept_bfloat16  # noqa: E402


@keras_op
def erf(x):
    """The error function `2 / sqrt(pi) * integral_0^x exp(-t**2) dt`.

    Accurate to float64 roundoff, differentiable.

    >>> round(float(erf(0.5)), 6)
    0.5205
    """
    x = _float(x)
    return _kept_bfloat16(SP.erf(x), x)


@keras_op
def erfc(x):
    """`1 - erf(x)`, accurate also where it is tiny (large `x`).

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.erfc(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([1.9953, 1.5205, 1.    , 0.4795, 0.0047], dtype=float32)
    """
    x = _float(x)
    return _kept_bfloat16(SP.erfc(x), x)


@keras_op
def erfinv(x):
    """Inverse error function on `[-1, 1]` (±inf at ±1).

    >>> round(float(erfinv(0.5)), 6)
    0.476936
    """
    x = _float(x)
    return _kept_bfloat16(SP.erfinv(x), x)
from kerasish.ops.signal import *  # noqa: F401,F403,E402
