"""Heads: from logits to the loss, predictions and metrics of a spec.

A head turns a model's `logits` into an `EstimatorSpec` for each mode, as
TF's `tf.estimator.*Head`s: PREDICT gets the predictions dict; EVAL the
loss and TF's eval metrics (`Metric` objects); TRAIN the loss and the train
op, from `optimizer.minimize(loss, trainable_variables)` or
`train_op_fn(loss)`. The training loss is the (weighted) per-example loss
reduced by `loss_reduction` (`"sum_over_batch_size"`: summed and divided by
the number of loss elements; `"sum"`: summed), plus regularization losses.
"""
import numpy as np

from kerasish.estimator.estimator_spec import EstimatorSpec
from kerasish.estimator.mode_keys import ModeKeys
from kerasish.feature_column import DenseFeatures, numeric_column
from kerasish import ops
from kerasish.metrics import Mean

SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
SUM = "sum"
_REDUCTIONS = (SUM_OVER_BATCH_SIZE, SUM)


def as_array(value):
    return np.asarray(getattr(value, "_value", value))


def check_reduction(loss_reduction):
    if loss_reduction not in _REDUCTIONS:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction!r}. "
                         f"Expected one of {_REDUCTIONS}.")
    return loss_reduction


def check_head(head):
    """`head`, or an error naming the argument if it is not a head."""
    if not (callable(getattr(head, "create_estimator_spec", None)) and
            hasattr(head, "logits_dimension")):
        raise ValueError(
            "`head` must be a head such as `BinaryClassHead()`, "
            "`MultiClassHead(n_classes)` or `RegressionHead()`. Received: "
            f"head={head!r:.200}")
    return head


def labels_2d(labels, dimension, name):
    """Labels as `(batch, dimension)`; TF's shape errors."""
    if labels is None:
        raise ValueError(
            "You must provide a labels Tensor. Given: None. Suggested "
            "troubleshooting steps: Check that your data contain your label "
            "feature. Check that your input_fn properly parses and returns "
            "labels.")
    if isinstance(labels, dict):
        raise ValueError(f"Head {name!r} expects labels as one array, not a "
                         f"dict (keys {sorted(labels)}).")
    labels = as_array(labels)
    if labels.ndim == 1 and dimension == 1:
        labels = labels[:, None]
    if labels.ndim != 2 or labels.shape[1] != dimension:
        raise ValueError(
            f"Mismatched label shape. Expected labels dimension={dimension}. "
            f"Received labels of shape {labels.shape} (head {name!r}).")
    return labels


class Head:
    """Base of heads (see module docstring).

    Args:
        weight_column: Feature key (or `numeric_column`) of example weights.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        name: Optional head name.
    """

    logits_dimension = 1

    def __init__(self, weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 name=None):
        self._weight_column = weight_column
        self._loss_reduction = check_reduction(loss_reduction)
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def loss_reduction(self):
        return self._loss_reduction

    def weights(self, features, batch):
        """`(batch, 1)` example weights, or None."""
        if self._weight_column is None:
            return None
        column = self._weight_column
        if isinstance(column, str):
            column = numeric_column(column)
        weights = as_array(DenseFeatures([column])(features))
        if weights.shape != (batch, 1):
            raise ValueError(
                f"Weight column {column.name!r} must give one weight per "
                f"example: shape ({batch}, 1). Received {weights.shape}.")
        return weights

    def training_loss(self, unreduced, weights, regularization_losses=None):
        weighted = unreduced if weights is None else unreduced * weights
        loss = ops.sum(weighted)
        if self._loss_reduction == SUM_OVER_BATCH_SIZE:
            loss = loss / float(np.prod(unreduced.shape))
        for extra in regularization_losses or []:
            loss = loss + extra
        return loss

    def create_estimator_spec(self, features, mode, logits, labels=None,
                              optimizer=None, trainable_variables=None,
                              train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        """The `EstimatorSpec` for `mode` (see module docstring)."""
        predictions = self.predictions(logits)
        if mode == ModeKeys.PREDICT:
            return EstimatorSpec(mode, predictions=predictions,
                                 export_outputs=self.export_outputs(
                                     predictions))
        labels = self.processed_labels(labels)
        weights = self.weights(features, labels.shape[0])
        unreduced = self.unreduced_loss(labels, logits)
        loss = self.training_loss(unreduced, weights, regularization_losses)
        if mode == ModeKeys.EVAL:
            metrics = self.eval_metrics(labels, predictions,
                                        as_array(unreduced), weights)
            return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                 eval_metric_ops=metrics)
        if optimizer is not None:
            if trainable_variables is None:
                raise ValueError("trainable_variables cannot be None when "
                                 "optimizer is given.")
            train_op = optimizer.minimize(loss, trainable_variables)
        elif train_op_fn is not None:
            train_op = train_op_fn(loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        return EstimatorSpec(mode, predictions=predictions, loss=loss,
                             train_op=train_op)

    def export_outputs(self, predictions):
        return {"serving_default": predictions, "predict": predictions}


class RegressionHead(Head):
    """Squared-error regression head (TF's `RegressionHead`).

    Predictions: `{"predictions": logits}`. Eval metrics: `average_loss`,
    `label/mean`, `prediction/mean`.

    Args:
        label_dimension: Number of regression targets. Defaults to 1.
        weight_column: Feature key or `numeric_column` of example weights.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        name: Optional head name.

    Example:

    >>> head = RegressionHead(label_dimension=2)
    >>> head.logits_dimension
    2
    """

    def __init__(self, label_dimension=1, weight_column=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, name=None):
        super().__init__(weight_column, loss_reduction, name)
        if not isinstance(label_dimension, int) or label_dimension < 1:
            raise ValueError("Invalid label_dimension "
                             f"{label_dimension!r}.")
        self.logits_dimension = label_dimension

    def processed_labels(self, labels):
        labels = labels_2d(labels, self.logits_dimension, "regression")
        if labels.dtype.kind not in "biuf":
            raise ValueError(f"Regression labels must be numbers. Received "
                             f"dtype {labels.dtype}.")
        return labels.astype(np.float32)

    def predictions(self, logits):
        return {"predictions": logits}

    def unreduced_loss(self, labels, logits):
        return ops.square(logits - labels)

    def eval_metrics(self, labels, predictions, unreduced, weights):
        values = {"average_loss": unreduced, "label/mean": labels,
                  "prediction/mean": as_array(predictions["predictions"])}
        metrics = {}
        for key, value in values.items():
            metric = Mean(name=key.replace("/", "_"))
            metric.update_state(value, sample_weight=_broadcast(weights,
                                                                value))
            metrics[key] = metric
        return metrics


def _broadcast(weights, values):
    if weights is None:
        return None
    return np.broadcast_to(weights, np.shape(values))
