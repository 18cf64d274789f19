"""Regression losses: squared, absolute, percentage, logarithmic, Huber,
log-cosh and cosine similarity.

The functions return one value per sample (the mean over the last axis);
they are exported by `keras.metrics` too, as the *same* objects.
"""
import math

from kerasish import ops
from kerasish.backend import config
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

_METRICS = "keras.metrics"


def _as_pair(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def check_broadcastable(y_true, y_pred, name):
    """Raise a clear error when labels and predictions cannot broadcast."""
    a, b = tuple(y_true.shape), tuple(y_pred.shape)
    for d1, d2 in zip(a[::-1], b[::-1]):
        if d1 != d2 and d1 != 1 and d2 != 1:
            raise ValueError(
                f"Loss '{name}': `y_true` and `y_pred` have incompatible "
                f"shapes. Received: y_true.shape={a}, y_pred.shape={b}")


@builtin(_METRICS)
@builtin(MODULE, "mse", "MSE")
def mean_squared_error(y_true, y_pred):
    """Mean squared error: `mean(square(y_true - y_pred), axis=-1)`.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Returns:
        Per-sample loss, shape `(batch_size, d0, .. dN-1)`.

    Example:

    >>> float(mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]])[0])
    0.5
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "mean_squared_error")
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


@builtin(_METRICS)
@builtin(MODULE, "mae", "MAE")
def mean_absolute_error(y_true, y_pred):
    """Mean absolute error: `mean(abs(y_true - y_pred), axis=-1)`.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> float(mean_absolute_error([[0.0, 1.0]], [[1.0, 3.0]])[0])
    1.5
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "mean_absolute_error")
    return ops.mean(ops.absolute(y_true - y_pred), axis=-1)


@builtin(_METRICS)
@builtin(MODULE, "mape", "MAPE")
def mean_absolute_percentage_error(y_true, y_pred):
    """`100 * mean(abs((y_true - y_pred) / max(abs(y_true), eps)))`.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> float(mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 5.0]])[0])
    37.5
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "mean_absolute_percentage_error")
    eps = ops.convert_to_tensor(config.epsilon(), dtype=y_pred.dtype)
    diff = ops.absolute((y_true - y_pred) /
                        ops.maximum(ops.absolute(y_true), eps))
    return 100.0 * ops.mean(diff, axis=-1)


@builtin(_METRICS)
@builtin(MODULE, "msle", "MSLE")
def mean_squared_logarithmic_error(y_true, y_pred):
    """`mean(square(log(y_pred + 1) - log(y_true + 1)))`, inputs floored
    at epsilon.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> round(float(mean_squared_logarithmic_error([[0.0]], [[1.0]])[0]), 4)
    0.4805
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "mean_squared_logarithmic_error")
    eps = config.epsilon()
    first = ops.log(ops.maximum(y_pred, eps) + 1.0)
    second = ops.log(ops.maximum(y_true, eps) + 1.0)
    return ops.mean(ops.square(first - second), axis=-1)


def l2_normalize(x, axis):
    """`x / sqrt(max(sum(x^2), eps))` along `axis`, Keras's `normalize`."""
    return ops.normalize(x, axis=axis, order=2)


@builtin(MODULE)
def cosine_similarity(y_true, y_pred, axis=-1):
    """Negative cosine similarity along `axis` (-1 means aligned).

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> float(cosine_similarity([[0.0, 1.0]], [[0.0, 3.0]])[0])
    -1.0
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    y_pred = l2_normalize(y_pred, axis)
    y_true = l2_normalize(y_true, axis)
    return -ops.sum(y_true * y_pred, axis=axis)


@builtin(_METRICS)
@builtin(MODULE)
def huber(y_true, y_pred, delta=1.0):
    """Huber loss: quadratic for `|error| <= delta`, linear beyond.

    `0.5 * e^2` if `|e| <= delta`, else `delta * |e| - 0.5 * delta^2`,
    averaged over the last axis.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> float(huber([[0.0, 0.0]], [[0.5, 3.0]])[0])
    1.3125
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    delta = ops.convert_to_tensor(delta, dtype=y_pred.dtype)
    error = y_pred - y_true
    abs_error = ops.absolute(error)
    quadratic = 0.5 * ops.square(error)
    linear = delta * abs_error - 0.5 * ops.square(delta)
    return ops.mean(ops.where(abs_error <= delta, quadratic, linear),
                    axis=-1)


@builtin(_METRICS)
@builtin(MODULE)
def log_cosh(y_true, y_pred):
    """`mean(log(cosh(y_pred - y_true)))`, computed without overflow as
    `x + softplus(-2x) - log(2)`.

    Args:
        y_true: Ground truth values, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted values, same shape.

    Example:

    >>> round(float(log_cosh([[0.0]], [[1.0]])[0]), 5)
    0.43378
    """
    y_true, y_pred = _as_pair(y_true, y_pred)
    x = y_pred - y_true
    value = x + ops.softplus(x * -2.0) - math.log(2.0)
    return ops.mean(value, axis=-1)


@builtin(MODULE)
class MeanSquaredError(BuiltinLoss):
    """Mean of squares of errors between labels and predictions.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss instance.
        dtype: Computation dtype (default floatx).

    Example:

    >>> float(MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]))
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction, name, dtype)


@builtin(MODULE)
class MeanAbsoluteError(BuiltinLoss):
    """Mean of absolute errors between labels and predictions.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss instance.
        dtype: Computation dtype (default floatx).

    Example:

    >>> float(MeanAbsoluteError()([[0.0, 1.0]], [[1.0, 3.0]]))
    1.5
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction, name, dtype)


@builtin(MODULE)
class MeanAbsolutePercentageError(BuiltinLoss):
    """Mean absolute percentage error between labels and predictions.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss instance.
        dtype: Computation dtype (default floatx).

    Example:

    >>> float(MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 5.0]]))
    37.5
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, reduction, name,
                         dtype)


@builtin(MODULE)
class MeanSquaredLogarithmicError(BuiltinLoss):
    """Mean squared logarithmic error between labels and predictions.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss instance.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(MeanSquaredLogarithmicError()([[0.0]], [[1.0]])), 4)
    0.4805
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, reduction, name,
                         dtype)


@builtin(MODULE)
class CosineSimilarity(BuiltinLoss):
    """Negative cosine similarity between labels and predictions.

    Args:
        axis: Axis along which the similarity is computed. Defaults to -1.
        reduction, name, dtype: See `Loss`.

    Example:

    >>> float(CosineSimilarity()([[0.0, 1.0], [1.0, 0.0]],
    ...                          [[0.0, 2.0], [0.0, 1.0]]))
    -0.5
    """
    _optional_keys = {"axis": -1}

    def __init__(self, axis=-1, reduction="sum_over_batch_size",
                 name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, reduction, name, dtype,
                         axis=axis)


@builtin(MODULE)
class Huber(BuiltinLoss):
    """Huber loss: quadratic for small errors, linear for large ones.

    Args:
        delta: Float, where the loss changes from quadratic to linear.
            Defaults to 1.0.
        reduction, name, dtype: See `Loss`.

    Example:

    >>> float(Huber()([[0.0, 0.0]], [[0.5, 3.0]]))
    1.3125
    """
    _optional_keys = {"delta": 1.0}

    def __init__(self, delta=1.0, reduction="sum_over_batch_size",
                 name="huber_loss", dtype=None):
        super().__init__(huber, reduction, name, dtype, delta=delta)


@builtin(MODULE)
class LogCosh(BuiltinLoss):
    """Logarithm of the hyperbolic cosine of the prediction error.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss instance.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(LogCosh()([[0.0]], [[1.0]])), 5)
    0.43378
    """

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh",
                 dtype=None):
        super().__init__(log_cosh, reduction, name, dtype)
