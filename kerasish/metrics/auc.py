"""`AUC`: area under the ROC or precision-recall curve, approximated by a
Riemann sum over confusion counts at fixed thresholds (as Keras does)."""
import numpy as np

from kerasish.backend import config
from kerasish.backend.tensor import Tensor
from kerasish.metrics import confusion_utils as cu
from kerasish.metrics.metric import Metric
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin

_CURVES = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
_SUMMATIONS = ("interpolation", "majoring", "minoring")


def _curve(curve):
    value = getattr(curve, "value", curve)
    if str(value).lower() not in _CURVES:
        raise ValueError(
            f'Invalid AUC curve value: "{curve}". Expected values are '
            '["PR", "ROC", "PRGAIN"]')
    return _CURVES[str(value).lower()]


def _summation(method):
    value = str(getattr(method, "value", method))
    if value.lower() not in _SUMMATIONS:
        raise ValueError(
            f'Invalid AUC summation method value: "{method}". Expected '
            'values are ["interpolation", "majoring", "minoring"]')
    return value.lower()


@builtin("keras.metrics")
class AUC(Metric):
    """Area under the ROC (or PR) curve.

    Args:
        num_thresholds: Number of evenly spaced thresholds (> 1) used to
            discretise the curve. Defaults to 200.
        curve: `"ROC"` (default), `"PR"` (precision-recall) or
            `"PRGAIN"`.
        summation_method: `"interpolation"` (default; for PR the
            Davis & Goadrich interpolation), `"majoring"` or `"minoring"`.
        name: Metric name. Defaults to `"auc"`.
        dtype: Dtype of the state and result (default floatx).
        thresholds: Optional explicit thresholds in `[0, 1]` (overrides
            `num_thresholds`; 0 - eps and 1 + eps are added).
        multi_label: Treat the last axis as independent labels, averaging
            their AUCs. Defaults to False.
        num_labels: Number of labels, if known before the first update.
        label_weights: Per-label weights of the average (multi-label) or
            of the counts (single-label).
        from_logits: Whether predictions are logits. Defaults to False.

    Example:

    >>> m = AUC(num_thresholds=3)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.75
    """

    def __init__(self, num_thresholds=200, curve="ROC",
                 summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        self.curve = _curve(curve)
        self.summation_method = _summation(summation_method)
        self._init_from_thresholds = thresholds is not None
        inner = self._inner_thresholds(num_thresholds, thresholds)
        eps = config.epsilon()
        self._thresholds = np.array([0.0 - eps] + inner + [1.0 + eps])
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        self.multi_label, self.num_labels = multi_label, num_labels
        self.label_weights = None if label_weights is None else \
            np.asarray(label_weights, dtype=self.dtype)
        self._from_logits = from_logits
        self._built = False
        if multi_label and num_labels:
            self._build((None, num_labels))
        elif not multi_label:
            if num_labels:
                raise ValueError("`num_labels` is needed only when "
                                 "`multi_label` is True.")
            self._build(None)

    def _inner_thresholds(self, num_thresholds, thresholds):
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
            self._evenly = cu.is_evenly_distributed_thresholds(
                np.array([0.0] + inner + [1.0]))
            return inner
        if num_thresholds <= 1:
            raise ValueError("Argument `num_thresholds` must be an integer "
                             f"> 1. Received: num_thresholds={num_thresholds}")
        self.num_thresholds, self._evenly = num_thresholds, True
        return [(i + 1) * 1.0 / (num_thresholds - 1)
                for i in range(num_thresholds - 2)]

    @property
    def thresholds(self):
        """The thresholds, including the added 0 - eps and 1 + eps."""
        return list(self._thresholds)

    def _build(self, shape):
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError(
                    "`y_pred` must have rank 2 when `multi_label=True`. "
                    f"Found rank {len(shape)}. Full shape received for "
                    f"`y_pred`: {shape}")
            self._num_labels = shape[1]
            variable_shape = (self.num_thresholds, self._num_labels)
        else:
            variable_shape = (self.num_thresholds,)
        self._build_input_shape = shape
        for attr in ("true_positives", "false_positives", "true_negatives",
                     "false_negatives"):
            setattr(self, attr,
                    self.add_variable(variable_shape, "zeros", name=attr))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's confusion counts at every threshold."""
        y_pred = np.asarray(y_pred, dtype=self.dtype)
        if not self._built:
            self._build(y_pred.shape)
        if self._from_logits:
            y_pred = 1.0 / (1.0 + np.exp(-y_pred))
        cu.update_confusion_variables(
            {"tp": self.true_positives, "tn": self.true_negatives,
             "fp": self.false_positives, "fn": self.false_negatives},
            y_true, y_pred, self._thresholds, sample_weight=sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
            evenly_distributed=self._evenly)

    def _counts(self):
        return (self.true_positives._value, self.false_positives._value,
                self.true_negatives._value, self.false_negatives._value)

    def interpolate_pr_auc(self):
        """PR-AUC with Davis & Goadrich's interpolation between points."""
        tp, fp, _, fn = self._counts()
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = cu.divide_no_nan(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        both = (p[:-1] > 0) & (p[1:] > 0)
        ratio = np.where(both, cu.divide_no_nan(p[:-1], np.maximum(p[1:], 0)),
                         np.ones_like(p[1:]))
        with np.errstate(divide="ignore"):
            log_ratio = np.log(ratio)
        increment = cu.divide_no_nan(slope * (dtp + intercept * log_ratio),
                                     np.maximum(tp[1:] + fn[1:], 0))
        return self._aggregate(increment)

    def _aggregate(self, terms):
        if not self.multi_label:
            return np.sum(terms)
        by_label = np.sum(terms, axis=0)
        if self.label_weights is None:
            return np.mean(by_label)
        return cu.divide_no_nan(np.sum(by_label * self.label_weights),
                                np.sum(self.label_weights))

    def _curve_points(self):
        tp, fp, tn, fn = self._counts()
        recall = cu.divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            return cu.divide_no_nan(fp, fp + tn), recall
        if self.curve == "PR":
            return recall, cu.divide_no_nan(tp, tp + fp)
        scale = cu.divide_no_nan(tp + fn, tn + fp)
        recall_gain = 1.0 - scale * cu.divide_no_nan(fn, tp)
        precision_gain = 1.0 - scale * cu.divide_no_nan(fp, tp)
        recall_gain = np.maximum(np.where(tp == 0, 0.0, recall_gain), 0.0)
        precision_gain = np.where(tp == 0, 1.0, precision_gain)
        return recall_gain, precision_gain

    def result(self):
        if not self._built:
            return Tensor(np.zeros((), config.floatx()))
        if self.curve == "PR" and self.summation_method == "interpolation":
            value = self.interpolate_pr_auc()
        else:
            x, y = self._curve_points()
            if self.summation_method == "interpolation":
                heights = (y[:-1] + y[1:]) / 2.0
            elif self.summation_method == "minoring":
                heights = np.minimum(y[:-1], y[1:])
            else:
                heights = np.maximum(y[:-1], y[1:])
            value = self._aggregate((x[:-1] - x[1:]) * heights)
        # The counts are floatx; only multi-label weights (of the metric's
        # dtype) can promote the result, as in Keras.
        dtype = self.true_positives.dtype
        if self.multi_label and self.label_weights is not None:
            dtype = np.result_type(dtype, self.label_weights.dtype)
        return Tensor(np.asarray(value, dtype=dtype))

    def get_config(self):
        label_weights = None if self.label_weights is None else \
            self.label_weights.tolist()
        config = {**super().get_config(),
                  "num_thresholds": self.num_thresholds,
                  "curve": self.curve,
                  "summation_method": self.summation_method,
                  "multi_label": self.multi_label,
                  "num_labels": self.num_labels,
                  "label_weights": label_weights,
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config

    @classmethod
    def from_config(cls, config):
        # Keras writes `label_weights` as a serialized tensor; read it back.
        weights = config.get("label_weights")
        if isinstance(weights, dict):
            config = {**config, "label_weights":
                      serialization_lib.deserialize_keras_object(weights)}
        return cls(**config)
