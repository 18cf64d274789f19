"""Hinge metrics (`keras.metrics`): running means of the hinge losses."""
from kerasish.losses.hinge import categorical_hinge, hinge, squared_hinge
from kerasish.metrics.reduction_metrics import BuiltinMeanMetric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


@builtin(_MODULE)
class Hinge(BuiltinMeanMetric):
    """Mean hinge loss between labels in {-1, 1} (or {0, 1}) and scores.

    Args:
        name: Metric name. Defaults to `"hinge"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = Hinge()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> float(m.result())
    1.0
    """
    _metric_direction = "down"

    def __init__(self, name="hinge", dtype=None):
        super().__init__(hinge, name, dtype)


@builtin(_MODULE)
class SquaredHinge(BuiltinMeanMetric):
    """Mean squared hinge loss.

    Args:
        name: Metric name. Defaults to `"squared_hinge"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = SquaredHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> float(m.result())
    1.25
    """
    _metric_direction = "down"

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name, dtype)


@builtin(_MODULE)
class CategoricalHinge(BuiltinMeanMetric):
    """Mean categorical hinge loss between one-hot labels and scores.

    Args:
        name: Metric name. Defaults to `"categorical_hinge"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = CategoricalHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.3, 0.6]])
    >>> round(float(m.result()), 4)
    0.7
    """
    _metric_direction = "down"

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name, dtype)
