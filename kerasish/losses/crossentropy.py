"""Cross-entropy losses: binary, categorical (one-hot) and sparse (integer
labels), with `from_logits`, `label_smoothing`, `axis` and `ignore_class`.

The heavy lifting is in `ops.*_crossentropy`, whose `from_logits` paths
are fused softmax/log-softmax primitives (stable and one pass each way).
"""
import warnings

from kerasish import ops
from kerasish.losses.wrapper import MODULE, BuiltinLoss, check_int_axis
from kerasish.saving.object_registration import builtin

_METRICS = "keras.metrics"


def smooth_binary_labels(y_true, label_smoothing):
    """Squeeze labels towards 0.5: `y * (1 - s) + 0.5 * s`."""
    if not label_smoothing:
        return y_true
    return y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing


def smooth_categorical_labels(y_true, label_smoothing):
    """Squeeze one-hot labels towards uniform: `y * (1 - s) + s / K`."""
    if not label_smoothing:
        return y_true
    num_classes = float(y_true.shape[-1])
    return y_true * (1.0 - label_smoothing) + label_smoothing / num_classes


def warn_single_class(name, y_pred):
    if y_pred.shape[-1] == 1:
        warnings.warn(
            f"In loss {name}, expected y_pred.shape to be (batch_size, "
            "num_classes) with num_classes > 1. Received: "
            f"y_pred.shape={y_pred.shape}. Consider using "
            "'binary_crossentropy' if you only have 2 classes.",
            SyntaxWarning, stacklevel=3)


@builtin(_METRICS)
@builtin(MODULE, "bce", "BCE")
def binary_crossentropy(y_true, y_pred, from_logits=False,
                        label_smoothing=0.0, axis=-1):
    """Binary cross-entropy, averaged over `axis`.

    Args:
        y_true: Binary labels (0 or 1), shape `(batch_size, d0, .. dN)`.
        y_pred: Probabilities (or logits if `from_logits`), same shape.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`; labels move towards 0.5.
        axis: Axis the mean is taken over. Defaults to -1.

    Example:

    >>> round(float(binary_crossentropy([[0.0, 1.0]], [[0.4, 0.6]])[0]), 4)
    0.5108
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    y_true = smooth_binary_labels(y_true, label_smoothing)
    return ops.mean(ops.binary_crossentropy(y_true, y_pred,
                                            from_logits=from_logits),
                    axis=axis)


@builtin(_METRICS)
@builtin(MODULE)
def categorical_crossentropy(y_true, y_pred, from_logits=False,
                             label_smoothing=0.0, axis=-1):
    """Cross-entropy between one-hot (or soft) labels and predictions.

    Args:
        y_true: One-hot labels, shape `(batch_size, ..., num_classes)`.
        y_pred: Probabilities (or logits if `from_logits`), same shape.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`; labels move towards uniform.
        axis: The class axis. Defaults to -1.

    Example:

    >>> round(float(categorical_crossentropy([[0, 1, 0]],
    ...                                      [[0.05, 0.95, 0.0]])[0]), 4)
    0.0513
    """
    check_int_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    warn_single_class("categorical_crossentropy", y_pred)
    y_true = smooth_categorical_labels(y_true, label_smoothing)
    return ops.categorical_crossentropy(y_true, y_pred,
                                        from_logits=from_logits, axis=axis)


@builtin(_METRICS)
@builtin(MODULE)
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False,
                                    ignore_class=None, axis=-1):
    """Cross-entropy between integer class labels and predictions.

    Args:
        y_true: Integer labels in `[0, num_classes)`, shape
            `(batch_size, ...)` (a trailing axis of size 1 is allowed).
        y_pred: Probabilities (or logits), `(batch_size, ..., num_classes)`.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        ignore_class: Label value whose entries contribute no loss (and are
            masked out of the mean). Defaults to None.
        axis: The class axis. Defaults to -1.

    Example:

    >>> round(float(sparse_categorical_crossentropy([1], [[0.05, 0.95, 0.0]]
    ...                                             )[0]), 4)
    0.0513
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[axis] == 1:
        y_true = ops.squeeze(y_true, axis=axis)
    if ignore_class is None:
        return ops.sparse_categorical_crossentropy(
            y_true, y_pred, from_logits=from_logits, axis=axis)
    return _with_ignored_class(y_true, y_pred, from_logits, ignore_class,
                               axis)


def _with_ignored_class(y_true, y_pred, from_logits, ignore_class, axis):
    valid = ops.not_equal(y_true, ignore_class)
    y_true = ops.where(valid, y_true, 0)
    # Keras zeroes the ignored predictions; a uniform row gives the same
    # (masked) result without the 0/0 of normalising an all-zero row.
    y_pred = ops.where(ops.expand_dims(valid, axis), y_pred, 1.0)
    res = ops.sparse_categorical_crossentropy(
        y_true, y_pred, from_logits=from_logits, axis=axis)
    res = ops.where(valid, res, 0.0)
    res._keras_mask = valid
    return res


@builtin(MODULE)
class BinaryCrossentropy(BuiltinLoss):
    """Cross-entropy between binary labels and predicted probabilities.

    Args:
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`: 0 means no smoothing; larger
            values move the labels towards 0.5. Defaults to 0.
        axis: Axis the mean is taken over. Defaults to -1.
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"binary_crossentropy"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> loss = BinaryCrossentropy(from_logits=True)
    >>> round(float(loss([[0.0, 1.0]], [[-2.0, 3.0]])), 4)
    0.0878
    """
    _config_keys = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy",
                 dtype=None):
        super().__init__(binary_crossentropy, reduction, name, dtype,
                         from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


@builtin(MODULE)
class CategoricalCrossentropy(BuiltinLoss):
    """Cross-entropy between one-hot labels and predictions.

    Args:
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`; the labels become
            `y * (1 - s) + s / num_classes`. Defaults to 0.
        axis: The class axis. Defaults to -1.
        reduction, name, dtype: See `Loss`; the name defaults to
            `"categorical_crossentropy"`.

    Example:

    >>> loss = CategoricalCrossentropy()
    >>> round(float(loss([[0, 1, 0], [0, 0, 1]],
    ...                  [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])), 4)
    1.1769
    """
    _config_keys = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, reduction, name, dtype,
                         from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


@builtin(MODULE)
class SparseCategoricalCrossentropy(BuiltinLoss):
    """Cross-entropy between integer labels and predictions.

    Args:
        from_logits: Whether `y_pred` are logits. Defaults to False.
        ignore_class: Optional label value to ignore (for example the
            "void" class of a segmentation map). Defaults to None.
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        axis: The class axis. Defaults to -1.
        name: Defaults to `"sparse_categorical_crossentropy"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> loss = SparseCategoricalCrossentropy()
    >>> round(float(loss([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])), 4)
    1.1769
    """
    _config_keys = ("from_logits", "ignore_class")
    _optional_keys = {"axis": -1}

    def __init__(self, from_logits=False, ignore_class=None,
                 reduction="sum_over_batch_size", axis=-1,
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction, name,
                         dtype, from_logits=from_logits,
                         ignore_class=ignore_class, axis=axis)
