"""One quantity at a constraint on another, over evenly spaced thresholds:
SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall and
RecallAtPrecision (`keras.metrics`)."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.metrics import confusion_utils as cu
from kerasish.metrics.metric import Metric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


class SensitivitySpecificityBase(Metric):
    """Confusion counts at `num_thresholds` thresholds spanning [0, 1].

    Subclasses return the best `dependent` value among the thresholds
    where `constrained >= value`.
    """

    _value_name = None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None,
                 dtype=None):
        if not 0 <= value <= 1:
            raise ValueError(
                f"Argument `{self._value_name}` must be in the range [0, 1]."
                f" Received: {self._value_name}={value}")
        if num_thresholds <= 0:
            raise ValueError(
                "Argument `num_thresholds` must be an integer > 0. "
                f"Received: num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        self.value, self.class_id = value, class_id
        self.num_thresholds = num_thresholds
        setattr(self, self._value_name, value)
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1)
                     for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0] + inner + [1.0], True
        shape = (len(self.thresholds),)
        for attr in ("true_positives", "false_positives", "true_negatives",
                     "false_negatives"):
            setattr(self, attr, self.add_variable(shape, "zeros", name=attr))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's counts at every threshold."""
        cu.update_confusion_variables(
            {"tp": self.true_positives, "tn": self.true_negatives,
             "fp": self.false_positives, "fn": self.false_negatives},
            y_true, y_pred, self.thresholds, class_id=self.class_id,
            sample_weight=sample_weight, evenly_distributed=self._evenly)

    def _rates(self):
        tp, fp = self.true_positives._value, self.false_positives._value
        tn, fn = self.true_negatives._value, self.false_negatives._value
        return {"sensitivity": cu.divide_no_nan(tp, tp + fn),
                "specificity": cu.divide_no_nan(tn, tn + fp),
                "precision": cu.divide_no_nan(tp, tp + fp)}

    def _best_under_constraint(self, constrained, dependent):
        feasible = constrained >= np.asarray(self.value, constrained.dtype)
        best = np.max(np.where(feasible, dependent, 0), initial=0)
        return Tensor(np.asarray(best, self.true_positives.dtype))

    def get_config(self):
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds,
                self._value_name: self.value}


@builtin(_MODULE)
class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """Best sensitivity (recall) where specificity >= `specificity`.

    Args:
        specificity: Float in `[0, 1]`.
        num_thresholds: Number of thresholds. Defaults to 200.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"sensitivity_at_specificity"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = SensitivityAtSpecificity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> float(m.result())
    0.5
    """
    _value_name = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None,
                 name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best_under_constraint(rates["specificity"],
                                           rates["sensitivity"])


@builtin(_MODULE)
class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """Best specificity where sensitivity (recall) >= `sensitivity`.

    Args:
        sensitivity: Float in `[0, 1]`.
        num_thresholds: Number of thresholds. Defaults to 200.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"specificity_at_sensitivity"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = SpecificityAtSensitivity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> round(float(m.result()), 4)
    0.6667
    """
    _value_name = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None,
                 name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best_under_constraint(rates["sensitivity"],
                                           rates["specificity"])


@builtin(_MODULE)
class PrecisionAtRecall(SensitivitySpecificityBase):
    """Best precision where recall >= `recall`.

    Args:
        recall: Float in `[0, 1]`.
        num_thresholds: Number of thresholds. Defaults to 200.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"precision_at_recall"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = PrecisionAtRecall(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> float(m.result())
    0.5
    """
    _value_name = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None,
                 dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best_under_constraint(rates["sensitivity"],
                                           rates["precision"])


@builtin(_MODULE)
class RecallAtPrecision(SensitivitySpecificityBase):
    """Best recall where precision >= `precision`.

    Args:
        precision: Float in `[0, 1]`.
        num_thresholds: Number of thresholds. Defaults to 200.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"recall_at_precision"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = RecallAtPrecision(0.8)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.5
    """
    _value_name = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None,
                 name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best_under_constraint(rates["precision"],
                                           rates["sensitivity"])
