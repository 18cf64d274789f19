"""Overlap losses for segmentation: Dice and Tversky.

Both reduce over `axis` (all axes when None, giving one scalar for the
batch, as Keras does).
"""
from kerasish import ops
from kerasish.backend import config
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin


@builtin(MODULE)
def dice(y_true, y_pred, axis=None):
    """Dice loss `1 - 2 * sum(y_true * y_pred) / (sum(y_true) +
    sum(y_pred))`.

    Args:
        y_true: Target masks.
        y_pred: Predicted masks, same shape.
        axis: Axes to reduce over; None reduces over everything.

    Example:

    >>> round(float(dice([[1.0, 0.0]], [[0.5, 0.5]])), 4)
    0.5
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    intersection = ops.sum(y_true * y_pred, axis=axis)
    total = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis)
    return 1.0 - 2.0 * intersection / (total + config.epsilon())


@builtin(MODULE)
def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """Tversky loss `1 - TP / (TP + alpha * FP + beta * FN)`.

    With `alpha = beta = 0.5` it equals the Dice loss.

    Args:
        y_true: Target masks.
        y_pred: Predicted masks, same shape.
        alpha: Weight of false positives. Defaults to 0.5.
        beta: Weight of false negatives. Defaults to 0.5.
        axis: Axes to reduce over; None reduces over everything.

    Example:

    >>> round(float(tversky([[1.0, 0.0]], [[0.5, 0.5]], alpha=0.7,
    ...                     beta=0.3)), 4)
    0.5
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    true_pos = ops.sum(y_true * y_pred, axis=axis)
    false_pos = ops.sum((1.0 - y_pred) * y_true, axis=axis)
    false_neg = ops.sum(y_pred * (1.0 - y_true), axis=axis)
    denom = true_pos + false_pos * alpha + false_neg * beta + \
        config.epsilon()
    return 1.0 - true_pos / denom


@builtin(MODULE)
class Dice(BuiltinLoss):
    """Dice loss between target and predicted masks.

    Args:
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        name: Name of the loss. Defaults to `"dice"`.
        axis: Axes to reduce over; None (default) reduces over all.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(Dice()([[1.0, 0.0]], [[0.5, 0.5]])), 4)
    0.5
    """
    _config_keys = ("axis",)

    def __init__(self, reduction="sum_over_batch_size", name="dice",
                 axis=None, dtype=None):
        super().__init__(dice, reduction, name, dtype, axis=axis)


@builtin(MODULE)
class Tversky(BuiltinLoss):
    """Tversky loss: Dice with separate weights for FP and FN.

    Args:
        alpha: Weight of false positives. Defaults to 0.5.
        beta: Weight of false negatives. Defaults to 0.5.
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        name: Name of the loss. Defaults to `"tversky"`.
        axis: Axes to reduce over; None (default) reduces over all.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(Tversky(alpha=0.7, beta=0.3)([[1.0, 0.0]],
    ...                                          [[0.5, 0.5]])), 4)
    0.5
    """
    _config_keys = ("alpha", "beta", "axis")

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size",
                 name="tversky", axis=None, dtype=None):
        super().__init__(tversky, reduction, name, dtype, alpha=alpha,
                         beta=beta, axis=axis)
