"""Correlation metrics (`keras.metrics`): Pearson and concordance (Lin)
correlation, averaged over the batch."""
from kerasish import ops
from kerasish.backend import config
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.metrics.reduction_metrics import BuiltinMeanMetric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


def _pair(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


@builtin(_MODULE)
def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson correlation coefficient along `axis`.

    Args:
        y_true: Labels.
        y_pred: Predictions, same shape.
        axis: Axis along which it is computed. Defaults to -1.

    Example:

    >>> round(float(pearson_correlation([[1.0, 2.0, 3.0]],
    ...                                 [[2.0, 4.0, 7.0]])[0]), 4)
    0.9934
    """
    y_true, y_pred = _pair(y_true, y_pred)
    t = y_true - ops.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - ops.mean(y_pred, axis=axis, keepdims=True)
    t = t / ops.std(t, axis=axis, keepdims=True)
    p = p / ops.std(p, axis=axis, keepdims=True)
    return ops.mean(t * p, axis=axis)


@builtin(_MODULE)
def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient along `axis`.

    Args:
        y_true: Labels.
        y_pred: Predictions, same shape.
        axis: Axis along which it is computed. Defaults to -1.

    Example:

    >>> round(float(concordance_correlation([[1.0, 2.0, 3.0]],
    ...                                     [[1.0, 2.0, 3.0]])[0]), 4)
    1.0
    """
    y_true, y_pred = _pair(y_true, y_pred)
    true_mean = ops.mean(y_true, axis=axis, keepdims=True)
    pred_mean = ops.mean(y_pred, axis=axis, keepdims=True)
    true_var = ops.var(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = ops.var(y_pred - pred_mean, axis=axis, keepdims=True)
    # Keras centres y_true on the *prediction* mean here; kept for parity.
    covar = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_var + pred_var + ops.square(true_mean - pred_mean)
    return ops.mean(2.0 * covar / (norm + config.epsilon()), axis=axis)


@builtin(_MODULE)
class PearsonCorrelation(BuiltinMeanMetric):
    """Mean Pearson correlation between labels and predictions.

    Args:
        name: Metric name. Defaults to `"pearson_correlation"`.
        dtype: Dtype of the result (default floatx).
        axis: Axis along which it is computed. Defaults to -1.

    Example:

    >>> m = PearsonCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]])
    >>> round(float(m.result()), 4)
    0.9934
    """
    _config_keys = ("axis",)
    _metric_direction = "up"

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name, dtype, axis=axis)


@builtin(_MODULE)
class ConcordanceCorrelation(BuiltinMeanMetric):
    """Mean concordance correlation between labels and predictions.

    Args:
        name: Metric name. Defaults to `"concordance_correlation"`.
        dtype: Dtype of the result (default floatx).
        axis: Axis along which it is computed. Defaults to -1.

    Example:

    >>> m = ConcordanceCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]])
    >>> round(float(m.result()), 4)
    1.0
    """
    _config_keys = ("axis",)
    _metric_direction = "up"

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name, dtype, axis=axis)
