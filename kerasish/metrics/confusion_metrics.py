"""Confusion-count metrics (`keras.metrics`): TruePositives, FalsePositives,
TrueNegatives, FalseNegatives, Precision and Recall."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.metrics import confusion_utils as cu
from kerasish.metrics.metric import Metric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


class _ConditionCount(Metric):
    """Weighted count of one confusion condition at each threshold."""

    _condition = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = cu.parse_init_thresholds(thresholds)
        self._evenly = cu.is_evenly_distributed_thresholds(self.thresholds)
        self.accumulator = self.add_variable((len(self.thresholds),),
                                             "zeros", name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's counts (`sample_weight` weighs each sample)."""
        cu.update_confusion_variables(
            {self._condition: self.accumulator}, y_true, y_pred,
            self.thresholds, sample_weight=sample_weight,
            evenly_distributed=self._evenly)

    def result(self):
        value = self.accumulator._value
        return Tensor(np.array(value[0] if len(self.thresholds) == 1 else
                               value))

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


_COUNT_DOC = """Weighted number of {what}.

    Args:
        thresholds: Float or list of floats in `[0, 1]`; a prediction is
            positive above a threshold. Defaults to 0.5. With a list, the
            result has one count per threshold.
        name: Metric name.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = {cls}()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> float(m.result())
    {value}
    """


@builtin(_MODULE)
class TruePositives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="true positives", cls="TruePositives",
                                value="2.0")
    _condition = "tp"


@builtin(_MODULE)
class FalsePositives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="false positives",
                                cls="FalsePositives", value="1.0")
    _condition = "fp"


@builtin(_MODULE)
class TrueNegatives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="true negatives", cls="TrueNegatives",
                                value="0.0")
    _condition = "tn"


@builtin(_MODULE)
class FalseNegatives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="false negatives",
                                cls="FalseNegatives", value="1.0")
    _condition = "fn"


class _PrecisionRecall(Metric):
    """Shared state of Precision and Recall: tp plus one other count."""

    _other = None

    def __init__(self, thresholds=None, top_k=None, class_id=None,
                 name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        self.init_thresholds = thresholds
        self.top_k, self.class_id = top_k, class_id
        default = 0.5 if top_k is None else cu.NEG_INF
        self.thresholds = cu.parse_init_thresholds(thresholds, default)
        self._evenly = cu.is_evenly_distributed_thresholds(self.thresholds)
        shape = (len(self.thresholds),)
        self.true_positives = self.add_variable(shape, "zeros",
                                                name="true_positives")
        other = {"fp": "false_positives", "fn": "false_negatives"}
        self._other_variable = self.add_variable(shape, "zeros",
                                                 name=other[self._other])
        setattr(self, other[self._other], self._other_variable)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's counts (`sample_weight` weighs each sample)."""
        cu.update_confusion_variables(
            {"tp": self.true_positives, self._other: self._other_variable},
            y_true, y_pred, self.thresholds, top_k=self.top_k,
            class_id=self.class_id, sample_weight=sample_weight,
            evenly_distributed=self._evenly)

    def result(self):
        tp = self.true_positives._value
        value = cu.divide_no_nan(tp, tp + self._other_variable._value)
        return Tensor(np.asarray(value[0] if len(self.thresholds) == 1
                                 else value))

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


@builtin(_MODULE)
class Precision(_PrecisionRecall):
    """Precision `tp / (tp + fp)` of the predictions.

    Args:
        thresholds: Float or list of floats in `[0, 1]`; a prediction is
            positive above a threshold. Defaults to 0.5 (or, with
            `top_k`, every top-k prediction counts as positive).
        top_k: Only the k largest predictions per sample count.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"precision"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = Precision()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> round(float(m.result()), 4)
    0.6667
    """
    _other = "fp"


@builtin(_MODULE)
class Recall(_PrecisionRecall):
    """Recall `tp / (tp + fn)` of the predictions.

    Args:
        thresholds: Float or list of floats in `[0, 1]`; a prediction is
            positive above a threshold. Defaults to 0.5 (or, with
            `top_k`, every top-k prediction counts as positive).
        top_k: Only the k largest predictions per sample count.
        class_id: Compute the metric for this class column only.
        name: Metric name. Defaults to `"recall"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = Recall()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> round(float(m.result()), 4)
    0.6667
    """
    _other = "fn"

