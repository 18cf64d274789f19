"""Confusion counts at thresholds, in numpy (metrics never need gradients).

`update_confusion_variables` adds weighted true/false positive/negative
counts, one per threshold, to the given variables, with Keras's rules:
labels are cast to bool, a prediction is positive when `> threshold`,
`top_k` keeps only the k largest predictions, `class_id` selects one
column. Evenly spaced thresholds (AUC and friends) take the bucket path:
one `bincount` and a reversed cumulative sum instead of a
`(thresholds, samples)` comparison.
"""
import numpy as np

from kerasish import ops
from kerasish.backend import config
from kerasish.losses.loss import squeeze_or_expand_to_same_rank

NEG_INF = -1e10
KEYS = ("tp", "fp", "tn", "fn")


def to_list(x):
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return [x]


def parse_init_thresholds(thresholds, default_threshold=0.5):
    """Thresholds as a list, checked to lie in [0, 1]."""
    if thresholds is not None:
        invalid = [t for t in to_list(thresholds)
                   if t is None or t < 0 or t > 1]
        if invalid:
            raise ValueError(
                f"Threshold values must be in [0, 1]. Received: {invalid}")
    return to_list(default_threshold if thresholds is None else thresholds)


def is_evenly_distributed_thresholds(thresholds):
    """Whether thresholds are `i / (n - 1)` for i in 0..n-1 (n >= 3)."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return bool(np.allclose(thresholds, even, atol=config.epsilon()))


def _aligned(y_true, y_pred, sample_weight, dtype):
    y_true = ops.convert_to_tensor(y_true, dtype)
    y_pred = ops.convert_to_tensor(y_pred, dtype)
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = ops.expand_dims(
            ops.convert_to_tensor(sample_weight, dtype), -1)
        _, sample_weight = squeeze_or_expand_to_same_rank(
            y_true, sample_weight, expand_rank_1=False)
        sample_weight = np.broadcast_to(np.asarray(sample_weight),
                                        y_pred.shape)
    return np.asarray(y_true), np.asarray(y_pred), sample_weight


def filter_top_k(x, k):
    """Keep the k largest entries of the last axis; others become -1e10."""
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    keep = np.zeros(x.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-1)
    return np.where(keep, x, np.asarray(NEG_INF, x.dtype))


def update_confusion_variables(variables, y_true, y_pred, thresholds,
                               top_k=None, class_id=None, sample_weight=None,
                               multi_label=False, label_weights=None,
                               evenly_distributed=False):
    """Add the weighted counts at each threshold to `variables`.

    Args:
        variables: Dict with some of the keys `"tp"`, `"fp"`, `"tn"`,
            `"fn"` mapping to variables of shape `(num_thresholds,)` (or
            `(num_thresholds, num_labels)` when `multi_label`).
        y_true, y_pred: Labels (cast to bool) and scores.
        thresholds: The thresholds; a prediction is positive above one.
        top_k, class_id: Optional filters, as in Precision/Recall.
        sample_weight: Optional weights broadcastable to `y_pred`.
        multi_label: Keep the last axis as separate labels.
        label_weights: Per-label weights (single-label case only).
        evenly_distributed: Thresholds are evenly spaced (bucket path).
    """
    unknown = [k for k in variables if k not in KEYS]
    if unknown or not variables:
        raise ValueError(
            f"Please provide at least one valid confusion matrix variable "
            f"to update. Valid keys: {KEYS}. Received: {list(variables)}")
    dtype = next(iter(variables.values())).dtype
    y_true, y_pred, weights = _aligned(y_true, y_pred, sample_weight, dtype)
    if top_k is not None:
        y_pred = filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.ndim == 1:
            raise ValueError(
                "When class_id is provided, y_pred must be a 2D array with "
                "shape (num_samples, num_classes), found shape: "
                f"{y_pred.shape}")
        y_true, y_pred = y_true[..., class_id, None], \
            y_pred[..., class_id, None]
        if weights is not None:
            weights = weights[..., class_id, None]
    if label_weights is not None and not multi_label:
        label_weights = np.broadcast_to(np.asarray(label_weights, dtype),
                                        y_pred.shape)
        weights = label_weights if weights is None else \
            weights * label_weights
    thresholds = np.asarray(thresholds, dtype=dtype)
    labels = y_true.astype(bool).astype(dtype)
    if not multi_label:
        labels, y_pred = labels.reshape(-1), y_pred.reshape(-1)
        weights = None if weights is None else weights.reshape(-1)
    weights = np.ones_like(labels) if weights is None else \
        np.asarray(weights, dtype)
    if evenly_distributed:
        tp, fp = _bucket_counts(labels, y_pred, weights, thresholds)
    else:
        tp, fp = _threshold_counts(labels, y_pred, weights, thresholds)
    _accumulate(variables, labels, weights, tp, fp)


def _threshold_counts(labels, y_pred, weights, thresholds):
    """tp and fp per threshold by direct comparison."""
    positive = labels * weights
    negative = (1 - labels) * weights
    if y_pred.ndim == 1:
        above = (y_pred[None, :] > thresholds[:, None]).astype(labels.dtype)
        return above @ positive, above @ negative
    above = (y_pred[None] > thresholds[:, None, None]).astype(labels.dtype)
    return (np.einsum("tnl,nl->tl", above, positive),
            np.einsum("tnl,nl->tl", above, negative))


def _bucket_counts(labels, y_pred, weights, thresholds):
    """tp and fp per evenly spaced threshold, via buckets of predictions.

    A prediction in bucket b is above thresholds 0..b, so the counts are
    reversed cumulative sums of the per-bucket totals.
    """
    n = thresholds.shape[0]
    with_epsilon = thresholds[0] < 0.0 or thresholds[-1] > 1.0
    preds = np.clip(y_pred, 0.0, 1.0)
    buckets = np.ceil(preds * np.asarray(n - 1, preds.dtype)) - 1
    if with_epsilon:
        buckets = np.maximum(buckets, 0)
    buckets = buckets.astype(np.int64)
    positive = labels * weights
    negative = (1 - labels) * weights
    if y_pred.ndim == 1:
        tp = _bucket_sum(buckets, positive, n)
        fp = _bucket_sum(buckets, negative, n)
    else:
        tp = np.stack([_bucket_sum(buckets[:, j], positive[:, j], n)
                       for j in range(buckets.shape[1])], axis=1)
        fp = np.stack([_bucket_sum(buckets[:, j], negative[:, j], n)
                       for j in range(buckets.shape[1])], axis=1)
    return tp, fp


def _bucket_sum(buckets, values, n):
    valid = buckets >= 0   # a prediction of exactly 0 is above no threshold
    totals = np.bincount(buckets[valid], weights=values[valid],
                         minlength=n)[:n].astype(values.dtype)
    return np.flip(np.cumsum(np.flip(totals, 0), axis=0), 0)


def _accumulate(variables, labels, weights, tp, fp):
    axis = 0 if labels.ndim > 1 else None
    if "tp" in variables:
        variables["tp"]._value += tp
    if "fp" in variables:
        variables["fp"]._value += fp
    if "tn" in variables:
        negatives = np.sum((1 - labels) * weights, axis=axis)
        variables["tn"]._value += negatives - fp
    if "fn" in variables:
        positives = np.sum(labels * weights, axis=axis)
        variables["fn"]._value += positives - tp


def divide_no_nan(a, b):
    """`a / b`, 0 where `b == 0`."""
    a, b = np.asarray(a), np.asarray(b)
    safe = np.where(b == 0, 1, b)
    return np.where(b == 0, 0, a / safe).astype(a.dtype)
