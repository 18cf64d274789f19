"""F-scores (`keras.metrics`): FBetaScore and F1Score over multi-class or
multi-label predictions of shape `(batch_size, num_classes)`."""
import numpy as np

from kerasish.backend import config
from kerasish.backend.tensor import Tensor
from kerasish.metrics.metric import Metric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"
_AVERAGES = (None, "micro", "macro", "weighted")


def _check_args(average, beta, threshold):
    if average not in _AVERAGES:
        raise ValueError(
            "Invalid `average` argument value. Expected one of: {None, "
            f"'micro', 'macro', 'weighted'}}. Received: average={average}")
    if not isinstance(beta, float):
        raise ValueError(
            "Invalid `beta` argument value. It should be a Python float. "
            f"Received: beta={beta} of type '{type(beta)}'")
    if beta <= 0.0:
        raise ValueError("Invalid `beta` argument value. It should be > 0. "
                         f"Received: beta={beta}")
    if threshold is not None and not isinstance(threshold, float):
        raise ValueError(
            "Invalid `threshold` argument value. It should be a Python "
            f"float. Received: threshold={threshold} of type "
            f"'{type(threshold)}'")
    if threshold is not None and not 0.0 < threshold <= 1.0:
        raise ValueError(
            "Invalid `threshold` argument value. It should verify 0 < "
            f"threshold <= 1. Received: threshold={threshold}")


@builtin(_MODULE)
class FBetaScore(Metric):
    """F-beta score: `(1 + b^2) * P * R / (b^2 * P + R)`.

    Args:
        average: None (one score per class), `"micro"` (global counts),
            `"macro"` (unweighted mean over classes) or `"weighted"`
            (mean weighted by the classes' support). Defaults to None.
        beta: Weight of recall relative to precision. Defaults to 1.0.
        threshold: Predictions above it count as positive; None (default)
            marks each row's maximum as positive.
        name: Metric name. Defaults to `"fbeta_score"`.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> m = FBetaScore(beta=2.0, threshold=0.5, average="micro")
    >>> m.update_state([[1, 0], [1, 1]], [[0.9, 0.6], [0.2, 0.8]])
    >>> round(float(m.result()), 4)
    0.6667
    """

    def __init__(self, average=None, beta=1.0, threshold=None,
                 name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        _check_args(average, beta, threshold)
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape "
                "(batch_size, output_dim). Received input shapes: "
                f"y_pred.shape={pred_shape} and y_true.shape={true_shape}.")
        shape = () if self.average == "micro" else (pred_shape[-1],)
        for attr in ("true_positives", "false_positives", "false_negatives",
                     "intermediate_weights"):
            setattr(self, attr, self.add_variable(shape, "zeros",
                                                  dtype=self.dtype,
                                                  name=attr))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's weighted tp, fp, fn and support."""
        y_true = np.asarray(y_true, dtype=self.dtype)
        y_pred = np.asarray(y_pred, dtype=self.dtype)
        if not self._built:
            self._build(y_true.shape, y_pred.shape)
        if self.threshold is None:
            top = np.max(y_pred, axis=-1, keepdims=True)
            y_pred = (y_pred >= top) & (np.abs(y_pred) > 1e-9)
        else:
            y_pred = y_pred > self.threshold
        y_pred = y_pred.astype(self.dtype)
        weight = None if sample_weight is None else \
            np.asarray(sample_weight, self.dtype).reshape(-1, 1)
        for variable, value in (
                (self.true_positives, y_pred * y_true),
                (self.false_positives, y_pred * (1 - y_true)),
                (self.false_negatives, (1 - y_pred) * y_true),
                (self.intermediate_weights, y_true)):
            if weight is not None:
                value = value * weight
            variable._value += np.sum(value, axis=self.axis)

    def result(self):
        if not self._built:
            return Tensor(np.zeros((), self.dtype))
        eps = config.epsilon()
        tp = self.true_positives._value
        precision = tp / (tp + self.false_positives._value + eps)
        recall = tp / (tp + self.false_negatives._value + eps)
        beta2 = self.beta ** 2
        score = precision * recall / (beta2 * precision + recall + eps)
        score = score * (1 + beta2)
        if self.average == "weighted":
            support = self.intermediate_weights._value
            score = np.sum(score * support / (np.sum(support) + eps))
        elif self.average is not None:
            score = np.mean(score)
        return Tensor(np.asarray(score, dtype=self.dtype))

    def get_config(self):
        return {**super().get_config(), "average": self.average,
                "beta": self.beta, "threshold": self.threshold}


@builtin(_MODULE)
class F1Score(FBetaScore):
    """F1 score: the harmonic mean of precision and recall.

    Args:
        average: None (per class), `"micro"`, `"macro"` or `"weighted"`.
            Defaults to None.
        threshold: Predictions above it count as positive; None (default)
            marks each row's maximum as positive.
        name: Metric name. Defaults to `"f1_score"`.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> m = F1Score(threshold=0.5)
    >>> m.update_state([[1, 0], [1, 1]], [[0.9, 0.6], [0.2, 0.8]])
    >>> [round(v, 4) for v in m.result().numpy().tolist()]
    [0.6667, 0.6667]
    """

    def __init__(self, average=None, threshold=None, name="f1_score",
                 dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold,
                         name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
