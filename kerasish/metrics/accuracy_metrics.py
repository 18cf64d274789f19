"""Accuracy metrics (`keras.metrics`): exact, binary, categorical, sparse
and top-k."""
import numpy as np

from kerasish import ops
from kerasish.backend import config
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.metrics.reduction_metrics import BuiltinMeanMetric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


def accuracy(y_true, y_pred):
    """1.0 where `y_true == y_pred`, else 0.0 (elementwise).

    Args:
        y_true: Labels.
        y_pred: Predicted labels, same shape.

    Example:

    >>> accuracy([1, 2, 3], [1, 2, 4]).numpy().tolist()
    [1.0, 1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.cast(ops.equal(y_true, y_pred), config.floatx())


@builtin(_MODULE)
def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Match of binary `y_true` with `y_pred > threshold`.

    Args:
        y_true: Binary labels.
        y_pred: Predicted probabilities, same shape.
        threshold: Decision threshold. Defaults to 0.5.

    Example:

    >>> binary_accuracy([[1], [0]], [[0.6], [0.7]]).numpy().tolist()
    [[1.0], [0.0]]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    y_pred = ops.cast(ops.greater(y_pred, threshold), y_true.dtype)
    return ops.cast(ops.equal(y_true, y_pred), config.floatx())


@builtin(_MODULE)
def categorical_accuracy(y_true, y_pred):
    """Match of `argmax(y_true)` with `argmax(y_pred)` (one-hot labels).

    Args:
        y_true: One-hot labels, `(batch_size, ..., num_classes)`.
        y_pred: Scores, same shape.

    Example:

    >>> categorical_accuracy([[0, 1], [1, 0]],
    ...                      [[0.2, 0.8], [0.3, 0.7]]).numpy().tolist()
    [1.0, 0.0]
    """
    y_true = ops.argmax(y_true, axis=-1)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    original_shape = tuple(y_true.shape)
    reshape = len(y_true.shape) == len(y_pred.shape)
    if reshape:
        y_true = ops.squeeze(y_true, -1)
    y_pred = ops.cast(ops.argmax(y_pred, axis=-1), y_true.dtype)
    matches = ops.cast(ops.equal(y_true, y_pred), config.floatx())
    return ops.reshape(matches, original_shape) if reshape else matches


@builtin(_MODULE)
def sparse_categorical_accuracy(y_true, y_pred):
    """Match of integer `y_true` with `argmax(y_pred)`.

    Args:
        y_true: Integer labels, `(batch_size, ...)` (or with a trailing 1).
        y_pred: Scores, `(batch_size, ..., num_classes)`.

    Example:

    >>> sparse_categorical_accuracy([1, 0],
    ...                             [[0.2, 0.8], [0.3, 0.7]]).numpy().tolist()
    [1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    original_shape = tuple(y_true.shape)
    reshape = len(y_true.shape) == len(y_pred.shape) and \
        y_true.shape[-1] == 1
    if reshape:
        y_true = ops.squeeze(y_true, -1)
    y_pred = ops.cast(ops.argmax(y_pred, axis=-1), y_true.dtype)
    matches = ops.cast(ops.equal(y_true, y_pred), config.floatx())
    if reshape:
        matches = ops.reshape(matches, original_shape)
    if len(matches.shape) > 1 and matches.shape[-1] == 1:
        matches = ops.squeeze(matches, -1)
    return matches


def _check_top_k_shapes(name, y_true, y_pred, sparse):
    """A clear error when labels and scores do not pair up row by row."""
    true_shape, pred_shape = tuple(y_true.shape), tuple(y_pred.shape)
    if None in true_shape + pred_shape:     # symbolic: only the rank is known
        paired = len(pred_shape) >= 2
    elif sparse:
        rows = int(np.prod(true_shape))
        paired = len(pred_shape) >= 2 and \
            rows == int(np.prod(pred_shape[:-1]))
        expected = "integer labels (batch_size, ...)"
    else:
        paired = len(pred_shape) >= 2 and true_shape == pred_shape
        expected = "one-hot labels of the same shape as y_pred"
    if not paired:
        raise ValueError(
            f"`{name}` expects scores y_pred of shape (batch_size, ..., "
            f"num_classes) and {expected}. Received: "
            f"y_true.shape={true_shape}, y_pred.shape={pred_shape}")


def _flatten_for_top_k(y_true, y_pred):
    """2-D predictions and 1-D labels; the labels' shape to restore."""
    shape = tuple(y_true.shape)
    if len(y_pred.shape) > 2:
        y_pred = ops.reshape(y_pred, (-1, y_pred.shape[-1]))
    reshape = len(y_true.shape) > 1
    if reshape:
        y_true = ops.reshape(y_true, (-1,))
    return y_true, y_pred, shape if reshape else None


@builtin(_MODULE)
def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Whether the one-hot target is among the top `k` predictions.

    Args:
        y_true: One-hot labels, `(batch_size, num_classes)`.
        y_pred: Scores, same shape.
        k: Number of top predictions considered. Defaults to 5.

    Example:

    >>> top_k_categorical_accuracy([[0, 0, 1], [1, 0, 0]],
    ...                            [[0.1, 0.5, 0.4], [0.05, 0.1, 0.85]],
    ...                            k=2).numpy().tolist()
    [1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, y_pred.dtype)
    _check_top_k_shapes("top_k_categorical_accuracy", y_true, y_pred,
                        sparse=False)
    y_true = ops.argmax(y_true, -1)
    y_true, y_pred, shape = _flatten_for_top_k(y_true, y_pred)
    matches = ops.cast(ops.in_top_k(ops.cast(y_true, "int32"), y_pred, k),
                       config.floatx())
    return ops.reshape(matches, shape) if shape else matches


@builtin(_MODULE)
def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5,
                                      from_sorted_ids=False):
    """Whether the integer target is among the top `k` predictions.

    Args:
        y_true: Integer labels, `(batch_size,)`.
        y_pred: Scores `(batch_size, num_classes)`, or with
            `from_sorted_ids=True` class ids sorted by decreasing score.
        k: Number of top predictions considered. Defaults to 5.
        from_sorted_ids: Whether `y_pred` holds sorted class ids (e.g. the
            output of a retrieval layer). Defaults to False.

    Example:

    >>> sparse_top_k_categorical_accuracy(
    ...     [2, 0], [[0.1, 0.5, 0.4], [0.05, 0.1, 0.85]], k=2
    ... ).numpy().tolist()
    [1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(
        y_true, dtype=y_pred.dtype if from_sorted_ids else "int32")
    _check_top_k_shapes("sparse_top_k_categorical_accuracy", y_true, y_pred,
                        sparse=True)
    y_true, y_pred, shape = _flatten_for_top_k(y_true, y_pred)
    if from_sorted_ids:
        matches = ops.any(ops.equal(ops.expand_dims(y_true, axis=1),
                                    y_pred[:, :k]), axis=1)
    else:
        matches = ops.in_top_k(y_true, y_pred, k)
    matches = ops.cast(matches, config.floatx())
    return ops.reshape(matches, shape) if shape else matches


@builtin(_MODULE)
class Accuracy(BuiltinMeanMetric):
    """How often predictions equal labels.

    Args:
        name: Metric name. Defaults to `"accuracy"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = Accuracy()
    >>> m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    >>> float(m.result())
    0.75
    """
    _metric_direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype)


@builtin(_MODULE)
class BinaryAccuracy(BuiltinMeanMetric):
    """How often `y_pred > threshold` matches binary labels.

    Args:
        name: Metric name. Defaults to `"binary_accuracy"`.
        dtype: Dtype of the result (default floatx).
        threshold: Decision threshold. Defaults to 0.5.

    Example:

    >>> m = BinaryAccuracy()
    >>> m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    >>> float(m.result())
    0.75
    """
    _config_keys = ("threshold",)
    _metric_direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


@builtin(_MODULE)
class CategoricalAccuracy(BuiltinMeanMetric):
    """How often the arg-max of the predictions matches one-hot labels.

    Args:
        name: Metric name. Defaults to `"categorical_accuracy"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = CategoricalAccuracy()
    >>> m.update_state([[0, 0, 1], [0, 1, 0]],
    ...                [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """
    _metric_direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype)


@builtin(_MODULE)
class SparseCategoricalAccuracy(BuiltinMeanMetric):
    """How often the arg-max of the predictions matches integer labels.

    Args:
        name: Metric name. Defaults to `"sparse_categorical_accuracy"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = SparseCategoricalAccuracy()
    >>> m.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """
    _metric_direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


@builtin(_MODULE)
class TopKCategoricalAccuracy(BuiltinMeanMetric):
    """How often one-hot targets are in the top `k` predictions.

    Args:
        k: Number of top predictions considered. Defaults to 5.
        name: Metric name. Defaults to `"top_k_categorical_accuracy"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = TopKCategoricalAccuracy(k=1)
    >>> m.update_state([[0, 0, 1], [0, 1, 0]],
    ...                [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """
    _config_keys = ("k",)
    _metric_direction = "up"

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


@builtin(_MODULE)
class SparseTopKCategoricalAccuracy(BuiltinMeanMetric):
    """How often integer targets are in the top `k` predictions.

    Args:
        k: Number of top predictions considered. Defaults to 5.
        name: Metric name. Defaults to
            `"sparse_top_k_categorical_accuracy"`.
        dtype: Dtype of the result (default floatx).
        from_sorted_ids: Whether `y_pred` holds class ids sorted by score
            rather than scores. Defaults to False.

    Example:

    >>> m = SparseTopKCategoricalAccuracy(k=1)
    >>> m.update_state([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """
    _config_keys = ("k",)
    _optional_keys = {"from_sorted_ids": False}
    _metric_direction = "up"

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy",
                 dtype=None, from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype,
                         k=k, from_sorted_ids=from_sorted_ids)
