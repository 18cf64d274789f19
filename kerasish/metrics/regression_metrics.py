"""Regression metrics (`keras.metrics`): MSE, MAE, MAPE, MSLE, RMSE,
cosine similarity, log-cosh error and the R^2 score."""
import warnings

import numpy as np

from kerasish import ops
from kerasish.backend import config
from kerasish.backend.tape import stop_recording
from kerasish.backend.tensor import Tensor
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.losses.regression import (
    log_cosh, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_error, mean_squared_logarithmic_error, l2_normalize)
from kerasish.metrics.metric import Metric
from kerasish.metrics.reduction_metrics import BuiltinMeanMetric, Mean
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


@builtin(_MODULE)
class MeanSquaredError(BuiltinMeanMetric):
    """Mean of the squared errors between labels and predictions.

    Args:
        name: Metric name. Defaults to `"mean_squared_error"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = MeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """
    _metric_direction = "down"

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name, dtype)


@builtin(_MODULE)
class MeanAbsoluteError(BuiltinMeanMetric):
    """Mean of the absolute errors between labels and predictions.

    Args:
        name: Metric name. Defaults to `"mean_absolute_error"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = MeanAbsoluteError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """
    _metric_direction = "down"

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name, dtype)


@builtin(_MODULE)
class MeanAbsolutePercentageError(BuiltinMeanMetric):
    """Mean absolute percentage error between labels and predictions.

    Args:
        name: Metric name. Defaults to `"mean_absolute_percentage_error"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = MeanAbsolutePercentageError()
    >>> m.update_state([[2.0, 4.0]], [[1.0, 5.0]])
    >>> float(m.result())
    37.5
    """
    _metric_direction = "down"

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name, dtype)


@builtin(_MODULE)
class MeanSquaredLogarithmicError(BuiltinMeanMetric):
    """Mean squared logarithmic error between labels and predictions.

    Args:
        name: Metric name. Defaults to `"mean_squared_logarithmic_error"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = MeanSquaredLogarithmicError()
    >>> m.update_state([[0.0]], [[1.0]])
    >>> round(float(m.result()), 4)
    0.4805
    """
    _metric_direction = "down"

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name, dtype)


@builtin(_MODULE)
class RootMeanSquaredError(Mean):
    """Square root of the mean squared error (over all elements seen).

    Args:
        name: Metric name. Defaults to `"root_mean_squared_error"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = RootMeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        with stop_recording():
            y_true = ops.convert_to_tensor(y_true, self.dtype)
            y_pred = ops.convert_to_tensor(y_pred, self.dtype)
            y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
            super().update_state(ops.square(y_pred - y_true),
                                 sample_weight=sample_weight)

    def result(self):
        return ops.sqrt(super().result())


def cosine_similarity(y_true, y_pred, axis=-1):
    """Cosine similarity along `axis` (1 means aligned)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis),
                   axis=axis)


@builtin(_MODULE)
class CosineSimilarity(BuiltinMeanMetric):
    """Mean cosine similarity between labels and predictions.

    Args:
        name: Metric name. Defaults to `"cosine_similarity"`.
        dtype: Dtype of the result (default floatx).
        axis: Axis along which the similarity is computed. Defaults to -1.

    Example:

    >>> m = CosineSimilarity()
    >>> m.update_state([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])
    >>> round(float(m.result()), 4)
    0.5
    """
    _optional_keys = {"axis": -1}
    _metric_direction = "up"

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name, dtype, axis=axis)


@builtin(_MODULE)
class LogCoshError(BuiltinMeanMetric):
    """Mean logarithm of the hyperbolic cosine of the prediction error.

    Args:
        name: Metric name. Defaults to `"logcosh"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = LogCoshError()
    >>> m.update_state([[0.0]], [[1.0]])
    >>> round(float(m.result()), 5)
    0.43378
    """
    _metric_direction = "down"

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(log_cosh, name, dtype)


_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


@builtin(_MODULE)
class R2Score(Metric):
    """Coefficient of determination, `1 - SS_res / SS_tot` per output.

    Args:
        class_aggregation: How to combine the outputs' scores: None (one
            score per output), `"uniform_average"` (default) or
            `"variance_weighted_average"`.
        num_regressors: Number of independent regressors, for the
            adjusted R^2; 0 (default) gives the plain score.
        name: Metric name. Defaults to `"r2_score"`.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> m = R2Score()
    >>> m.update_state([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])
    >>> round(float(m.result()), 4)
    0.5714
    """

    def __init__(self, class_aggregation="uniform_average",
                 num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if class_aggregation not in _AGGREGATIONS:
            raise ValueError(
                "Invalid value for argument `class_aggregation`. Expected "
                f"one of {_AGGREGATIONS}. Received: "
                f"class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(
                "Invalid value for argument `num_regressors`. Expected a "
                f"value >= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable((), "zeros",
                                             name="num_samples")
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(
                "R2Score expects 2D inputs with shape (batch_size, "
                f"output_dim). Received input shapes: y_pred.shape="
                f"{pred_shape} and y_true.shape={true_shape}.")
        outputs = (pred_shape[-1],)
        self.squared_sum = self.add_variable(outputs, "zeros",
                                             name="squared_sum")
        self.sum = self.add_variable(outputs, "zeros", name="sum")
        self.total_mse = self.add_variable(outputs, "zeros", name="residual")
        self.count = self.add_variable(outputs, "zeros", name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = squeeze_or_expand_to_same_rank(
            ops.convert_to_tensor(y_true, self.dtype),
            ops.convert_to_tensor(y_pred, self.dtype))
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        if not self._built:
            self._build(y_true.shape, y_pred.shape)
        weight = np.asarray(1.0 if sample_weight is None else sample_weight,
                            dtype=self.dtype)
        if weight.ndim == 1:
            weight = weight[:, None]
        weight = np.broadcast_to(weight, y_true.shape)
        weighted = y_true * weight
        self.sum._value += weighted.sum(axis=0)
        self.squared_sum._value += (y_true * weighted).sum(axis=0)
        self.total_mse._value += (np.square(y_true - y_pred) *
                                  weight).sum(axis=0)
        self.count._value += weight.sum(axis=0)
        # Keras counts elements here, not rows (it matters for the
        # adjusted score with several outputs).
        self.num_samples._value += y_true.size

    def result(self):
        if not self._built:
            return Tensor(np.zeros((), config.floatx()))
        # The accumulators are floatx (as Keras's); the score follows them.
        dtype = self.sum.dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = self.sum._value / self.count._value
            total = self.squared_sum._value - self.sum._value * mean
            raw = 1 - self.total_mse._value / total
        raw = np.where(np.isinf(raw), 0.0, raw).astype(dtype)
        if self.class_aggregation == "uniform_average":
            score = np.mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = np.sum(total * raw) / np.sum(total)
        else:
            score = raw
        return Tensor(np.asarray(self._adjust(score), dtype))

    def _adjust(self, score):
        p, n = self.num_regressors, float(self.num_samples._value)
        if p == 0:
            return score
        if p > n - 1:
            warnings.warn("More independent predictors than datapoints in "
                          "adjusted R2 score. Falling back to standard R2 "
                          "score.", stacklevel=3)
            return score
        if p == n - 1:
            warnings.warn("Division by zero in Adjusted R2 score. Falling "
                          "back to standard R2 score.", stacklevel=3)
            return score
        return 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype,
                "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
