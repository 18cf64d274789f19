"""Regression metrics (`keras.metrics`): MSE and MAE."""
from kerasish import ops
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.losses.losses import mean_squared_error
from kerasish.metrics.reduction_metrics import MeanMetricWrapper
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


@builtin(_MODULE)
def mean_absolute_error(y_true, y_pred):
    """`mean(|y_true - y_pred|, axis=-1)`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.mean(ops.absolute(y_true - y_pred), axis=-1)


builtin(_MODULE)(mean_squared_error)


@builtin(_MODULE)
class MeanSquaredError(MeanMetricWrapper):
    """Mean of squared errors."""

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(fn=mean_squared_error, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


@builtin(_MODULE)
class MeanAbsoluteError(MeanMetricWrapper):
    """Mean of absolute errors."""

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(fn=mean_absolute_error, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}
