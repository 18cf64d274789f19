"""Losses that down-weight easy examples: binary and categorical focal
cross-entropy (Lin et al., 2017) and the generalized cross-entropy of
Zhang & Sabuncu (2018), robust to noisy labels.
"""
from kerasish import ops
from kerasish.backend import config
from kerasish.losses.crossentropy import (smooth_binary_labels,
                                          smooth_categorical_labels,
                                          warn_single_class)
from kerasish.losses.wrapper import MODULE, BuiltinLoss, check_int_axis
from kerasish.saving.object_registration import builtin

_METRICS = "keras.metrics"


@builtin(_METRICS)
@builtin(MODULE)
def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False,
                              alpha=0.25, gamma=2.0, from_logits=False,
                              label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by `(1 - p_t) ** gamma`.

    `p_t` is the probability given to the true class, so confident correct
    predictions contribute little.

    Args:
        y_true: Binary labels, shape `(batch_size, d0, .. dN)`.
        y_pred: Probabilities (or logits if `from_logits`), same shape.
        apply_class_balancing: Also weight positives by `alpha` and
            negatives by `1 - alpha`. Defaults to False.
        alpha: Class-balancing weight. Defaults to 0.25.
        gamma: Focusing exponent. Defaults to 2.0.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.
        axis: Axis the mean is taken over. Defaults to -1.

    Example:

    >>> round(float(binary_focal_crossentropy([[0.0, 1.0]],
    ...                                       [[0.4, 0.6]])[0]), 4)
    0.0817
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    y_true = smooth_binary_labels(y_true, label_smoothing)
    if from_logits:
        y_pred = ops.sigmoid(y_pred)
    bce = ops.binary_crossentropy(y_true, y_pred, from_logits=False)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = ops.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return ops.mean(focal, axis=axis)


@builtin(_METRICS)
@builtin(MODULE)
def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0,
                                   from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    """Categorical cross-entropy scaled by `alpha * (1 - p) ** gamma`.

    Args:
        y_true: One-hot labels, shape `(batch_size, ..., num_classes)`.
        y_pred: Probabilities (or logits if `from_logits`), same shape.
        alpha: Weighting factor. Defaults to 0.25.
        gamma: Focusing exponent. Defaults to 2.0.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.
        axis: The class axis. Defaults to -1.

    Example:

    >>> round(float(categorical_focal_crossentropy([[0, 1, 0]],
    ...                                            [[0.1, 0.8, 0.1]])[0]), 5)
    0.00223
    """
    check_int_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    warn_single_class("categorical_focal_crossentropy", y_pred)
    y_true = smooth_categorical_labels(y_true, label_smoothing)
    if from_logits:
        y_pred = ops.softmax(y_pred, axis=axis)
    output = y_pred / ops.sum(y_pred, axis=axis, keepdims=True)
    eps = config.epsilon()
    output = ops.clip(output, eps, 1.0 - eps)
    cce = -y_true * ops.log(output)
    focal = ops.power(1.0 - output, gamma) * alpha * cce
    return ops.sum(focal, axis=axis)


@builtin(MODULE)
def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """Generalized cross-entropy `(1 - p_label ** q) / q`.

    Interpolates between cross-entropy (`q -> 0`) and mean absolute error
    (`q = 1`); robust to noisy labels.

    Args:
        y_true: Integer class labels, shape `(batch_size,)`.
        y_pred: Probabilities, shape `(batch_size, num_classes)`.
        q: Float in `(0, 1)`.

    Example:

    >>> float(categorical_generalized_cross_entropy([1], [[0.75, 0.25]],
    ...                                             q=0.5)[0])
    1.0
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = ops.squeeze(y_true, axis=-1)
    one_hot = ops.one_hot(ops.cast(y_true, "int32"), y_pred.shape[-1],
                          dtype=y_pred.dtype)
    p = ops.sum(y_pred * one_hot, axis=-1)
    return (1.0 - ops.power(p, q)) / q


@builtin(MODULE)
class BinaryFocalCrossentropy(BuiltinLoss):
    """Focal cross-entropy for binary labels.

    Args:
        apply_class_balancing: Weight positives by `alpha`, negatives by
            `1 - alpha`. Defaults to False.
        alpha: Class-balancing weight. Defaults to 0.25.
        gamma: Focusing exponent; 0 gives plain binary cross-entropy.
            Defaults to 2.0.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.
        axis: Axis the mean is taken over. Defaults to -1.
        reduction, name, dtype: See `Loss`; the name defaults to
            `"binary_focal_crossentropy"`.

    Example:

    >>> loss = BinaryFocalCrossentropy(gamma=2.0)
    >>> round(float(loss([[0.0, 1.0]], [[0.4, 0.6]])), 4)
    0.0817
    """
    _config_keys = ("from_logits", "label_smoothing", "axis",
                    "apply_class_balancing", "alpha", "gamma")

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                 from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size",
                 name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, reduction, name, dtype,
                         apply_class_balancing=apply_class_balancing,
                         alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


@builtin(MODULE)
class CategoricalFocalCrossentropy(BuiltinLoss):
    """Focal cross-entropy for one-hot labels.

    Args:
        alpha: Weighting factor. Defaults to 0.25.
        gamma: Focusing exponent. Defaults to 2.0.
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.
        axis: The class axis. Defaults to -1.
        reduction, name, dtype: See `Loss`; the name defaults to
            `"categorical_focal_crossentropy"`.

    Example:

    >>> loss = CategoricalFocalCrossentropy()
    >>> round(float(loss([[0, 1, 0]], [[0.1, 0.8, 0.1]])), 5)
    0.00223
    """
    _config_keys = ("from_logits", "label_smoothing", "axis", "alpha",
                    "gamma")

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size",
                 name="categorical_focal_crossentropy", dtype=None):
        super().__init__(categorical_focal_crossentropy, reduction, name,
                         dtype, alpha=alpha, gamma=gamma,
                         from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


@builtin(MODULE)
class CategoricalGeneralizedCrossEntropy(BuiltinLoss):
    """Generalized cross-entropy, robust to noisy labels.

    Args:
        q: Float in `(0, 1)`: small values behave like cross-entropy,
            values near 1 like mean absolute error. Defaults to 0.5.
        reduction, name, dtype: See `Loss`; the name defaults to
            `"categorical_generalized_cross_entropy"`.

    Example:

    >>> loss = CategoricalGeneralizedCrossEntropy(q=0.5)
    >>> float(loss([1, 0], [[0.75, 0.25], [0.25, 0.75]]))
    1.0
    """
    _config_keys = ("q",)

    def __init__(self, q=0.5, reduction="sum_over_batch_size",
                 name="categorical_generalized_cross_entropy", dtype=None):
        if not 0 < q < 1:
            raise ValueError(
                f"`q` must be in the interval (0, 1). Received: q={q}")
        super().__init__(categorical_generalized_cross_entropy, reduction,
                         name, dtype, q=q)
