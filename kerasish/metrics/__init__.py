"""`kerasish.metrics`: `keras.metrics` classes, functions and aliases."""
from kerasish.metrics.metric import Metric  # noqa: F401
from kerasish.metrics.reduction_metrics import (  # noqa: F401
    Sum, Mean, MeanMetricWrapper)
from kerasish.metrics.accuracy_metrics import *  # noqa: F401,F403
from kerasish.metrics.regression_metrics import *  # noqa: F401,F403
from kerasish.saving import object_registration as _registry
from kerasish.saving.get_utils import make_get

_ALIASES = {"mse": "mean_squared_error", "MSE": "mean_squared_error",
            "mae": "mean_absolute_error", "MAE": "mean_absolute_error",
            "mape": "mean_absolute_percentage_error",
            "MAPE": "mean_absolute_percentage_error",
            "msle": "mean_squared_logarithmic_error",
            "MSLE": "mean_squared_logarithmic_error",
            "acc": "accuracy"}
_get, serialize, deserialize = make_get("keras.metrics", "metric", Metric)


def get(identifier):
    """Resolve a metric name, config, class or function."""
    if isinstance(identifier, str) and identifier in _ALIASES:
        table = _registry.builtins_of("keras.metrics")
        if _ALIASES[identifier] in table:
            return _get(_ALIASES[identifier])
    return _get(identifier)
