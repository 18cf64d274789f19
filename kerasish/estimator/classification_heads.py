"""`BinaryClassHead` and `MultiClassHead` (TF's classification heads)."""
import numpy as np

from kerasish.estimator.head import (SUM_OVER_BATCH_SIZE, Head, as_array,
                                     labels_2d)
from kerasish.metrics import Mean
from kerasish.metrics import Accuracy
from kerasish import ops
from kerasish.metrics import AUC, Precision, Recall
from kerasish.metrics import BinaryAccuracy, Precision, Recall
from kerasish.losses import sparse_categorical_crossentropy


def _check_vocabulary(label_vocabulary, n_classes):
    if label_vocabulary is None:
        return None
    if not isinstance(label_vocabulary, (list, tuple)):
        raise ValueError("label_vocabulary should be a list or a tuple. "
                         f"Given type: {type(label_vocabulary).__name__}")
    if len(label_vocabulary) != n_classes:
        raise ValueError(f"label_vocabulary must have n_classes={n_classes} "
                         f"entries. Given: {list(label_vocabulary)}")
    if len(set(label_vocabulary)) != len(label_vocabulary):
        raise ValueError("label_vocabulary must not contain duplicates. "
                         f"Given: {list(label_vocabulary)}")
    return tuple(str(v) for v in label_vocabulary)


def _label_ids(labels, n_classes, vocabulary):
    """Class ids `(batch, 1)` int64 of the labels; TF's errors."""
    if vocabulary is not None:
        if labels.dtype.kind not in "USO":
            raise ValueError("Labels must be strings when label_vocabulary "
                             f"is given. Received dtype {labels.dtype}.")
        table = {v: i for i, v in enumerate(vocabulary)}
        values = [v.decode() if isinstance(v, bytes) else str(v)
                  for v in labels.ravel()]
        unknown = sorted({v for v in values if v not in table})
        if unknown:
            raise ValueError(f"Labels {unknown[:5]} are not in "
                             f"label_vocabulary {list(vocabulary)}.")
        return np.array([table[v] for v in values],
                        np.int64).reshape(labels.shape)
    if labels.dtype.kind in "USO":
        raise ValueError("Labels are strings: pass label_vocabulary to map "
                         "them to class ids.")
    ids = labels.astype(np.int64)
    if labels.dtype.kind == "f" and not np.array_equal(ids, labels):
        raise ValueError("Labels dtype should be integer (class ids). "
                         f"Received non-integral values of dtype "
                         f"{labels.dtype}.")
    if ids.size and ids.max() > n_classes - 1:
        raise ValueError(f"Labels must be <= n_classes - 1 = "
                         f"{n_classes - 1}. Received {ids.max()}.")
    if ids.size and ids.min() < 0:
        raise ValueError(f"Labels must be >= 0. Received {ids.min()}.")
    return ids


def _class_names(ids, vocabulary, n_classes):
    """Class names as bytes (TF's `classes`): the vocabulary's, or the
    ids as strings."""
    labels = vocabulary or [str(i) for i in range(n_classes)]
    names = np.empty(len(labels), dtype=object)
    names[:] = [label.encode() for label in labels]
    return names[ids]


class _ClassificationHead(Head):
    def __init__(self, n_classes, weight_column, label_vocabulary,
                 loss_reduction, name):
        super().__init__(weight_column, loss_reduction, name)
        self._n_classes = n_classes
        self._label_vocabulary = _check_vocabulary(label_vocabulary,
                                                   n_classes)

    def processed_labels(self, labels):
        return _label_ids(labels_2d(labels, 1, "classification"),
                          self._n_classes, self._label_vocabulary)

    def _class_predictions(self, class_ids, batch):
        all_ids = np.tile(np.arange(self._n_classes, dtype=np.int64),
                          (batch, 1))
        return {"class_ids": class_ids,
                "classes": _class_names(class_ids, self._label_vocabulary,
                                        self._n_classes),
                "all_class_ids": all_ids,
                "all_classes": _class_names(all_ids, self._label_vocabulary,
                                            self._n_classes)}

    def _accuracy_and_loss(self, labels, predictions, unreduced, weights):
        accuracy = Accuracy(name="accuracy")
        accuracy.update_state(labels, predictions["class_ids"],
                              sample_weight=weights)
        average_loss = Mean(name="average_loss")
        average_loss.update_state(unreduced, sample_weight=weights)
        return {"accuracy": accuracy, "average_loss": average_loss}


class BinaryClassHead(_ClassificationHead):
    """Logistic-regression head (TF's `BinaryClassHead`).

    Predictions: `logits`, `logistic`, `probabilities`, `class_ids`,
    `classes` (bytes), `all_class_ids`, `all_classes`. Eval metrics:
    `accuracy`, `accuracy_baseline`, `auc`, `auc_precision_recall`,
    `average_loss`, `label/mean`, `precision`, `prediction/mean`, `recall`
    (and per threshold `accuracy/positive_threshold_<t>`, ...).

    Args:
        weight_column: Feature key or `numeric_column` of example weights.
        thresholds: Extra thresholds for accuracy/precision/recall.
        label_vocabulary: The two label strings (default: labels are 0/1).
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        name: Optional head name.

    Example:

    >>> head = BinaryClassHead()
    >>> sorted(head.predictions(np.array([[-1.0], [2.0]])))[:3]
    ['all_class_ids', 'all_classes', 'class_ids']
    """

    logits_dimension = 1

    def __init__(self, weight_column=None, thresholds=None,
                 label_vocabulary=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 name=None):
        super().__init__(2, weight_column, label_vocabulary, loss_reduction,
                         name)
        thresholds = tuple(thresholds or ())
        for t in thresholds:
            if not 0 < t < 1:
                raise ValueError(f"thresholds not in (0, 1): {t}.")
        self._thresholds = thresholds

    def processed_labels(self, labels):
        array = labels_2d(labels, 1, "classification")
        if self._label_vocabulary is None and array.dtype.kind == "f":
            # As TF: without a vocabulary, binary labels may be any float
            # in [0, 1] (soft targets of the logistic loss).
            if array.size and (array.min() < 0 or array.max() > 1):
                raise ValueError("Labels must be in [0, 1] for a binary "
                                 f"head. Received values in [{array.min()}, "
                                 f"{array.max()}].")
            return array.astype(np.float32)
        return super().processed_labels(labels)

    def predictions(self, logits):
        values = as_array(logits)
        # sigmoid(x) = exp(-log(1 + exp(-x))): no overflow for any logit.
        logistic = np.exp(-np.logaddexp(0.0, -values))
        class_ids = (values > 0).astype(np.int64)
        out = {"logits": logits, "logistic": logistic,
               "probabilities": np.concatenate([1 - logistic, logistic],
                                               axis=-1)}
        out.update(self._class_predictions(class_ids, len(values)))
        return out

    def unreduced_loss(self, labels, logits):
        return ops.sigmoid_cross_entropy_with_logits(
            labels=labels.astype(np.float32), logits=logits)

    def eval_metrics(self, labels, predictions, unreduced, weights):
        metrics = self._accuracy_and_loss(labels, predictions, unreduced,
                                          weights)
        logistic = predictions["logistic"]
        for key, metric, value in [
                ("label/mean", Mean(name="label_mean"), labels),
                ("prediction/mean", Mean(name="prediction_mean"), logistic),
                ("accuracy_baseline",
                 AccuracyBaseline(name="accuracy_baseline"), labels)]:
            metric.update_state(value.astype(np.float32),
                                sample_weight=weights)
            metrics[key] = metric
        for key, metric in [("auc", AUC(name="auc")),
                            ("auc_precision_recall",
                             AUC(curve="PR", name="auc_precision_recall")),
                            ("precision", Precision(name="precision")),
                            ("recall", Recall(name="recall"))]:
            metric.update_state(labels, logistic, sample_weight=weights)
            metrics[key] = metric
        for t in self._thresholds:
            metrics.update(_threshold_metrics(labels, logistic, weights, t))
        return metrics


def _threshold_metrics(labels, logistic, weights, threshold):
    out = {}
    for key, metric in [
            ("accuracy", BinaryAccuracy(threshold=threshold,
                                        name=f"accuracy_{threshold:g}")),
            ("precision", Precision(thresholds=threshold,
                                    name=f"precision_{threshold:g}")),
            ("recall", Recall(thresholds=threshold,
                              name=f"recall_{threshold:g}"))]:
        metric.update_state(labels, logistic, sample_weight=weights)
        out[f"{key}/positive_threshold_{threshold:g}"] = metric
    return out


class AccuracyBaseline(Mean):
    """`max(label mean, 1 - label mean)`: the accuracy of always predicting
    the majority class (TF's `accuracy_baseline`)."""

    def result(self):
        mean = super().result()
        return ops.maximum(mean, 1.0 - mean)


class MultiClassHead(_ClassificationHead):
    """Softmax cross-entropy head (TF's `MultiClassHead`).

    Predictions: `logits`, `probabilities`, `class_ids`, `classes`,
    `all_class_ids`, `all_classes`. Eval metrics: `accuracy`,
    `average_loss`.

    Args:
        n_classes: Number of classes (> 2).
        weight_column: Feature key or `numeric_column` of example weights.
        label_vocabulary: The label strings (default: labels are ids).
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        name: Optional head name.

    Example:

    >>> head = MultiClassHead(3, label_vocabulary=["a", "b", "c"])
    >>> head.predictions(np.array([[0.0, 5.0, 1.0]]))["classes"]
    array([[b'b']], dtype=object)
    """

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        super().__init__(n_classes, weight_column, label_vocabulary,
                         loss_reduction, name)
        self.logits_dimension = n_classes

    def predictions(self, logits):
        values = as_array(logits).astype(np.float64)
        shifted = np.exp(values - values.max(axis=-1, keepdims=True))
        probabilities = (shifted / shifted.sum(axis=-1, keepdims=True))
        class_ids = np.argmax(values, axis=-1)[:, None].astype(np.int64)
        out = {"logits": logits,
               "probabilities": probabilities.astype(np.float32)}
        out.update(self._class_predictions(class_ids, len(values)))
        return out

    def unreduced_loss(self, labels, logits):
        return ops.expand_dims(sparse_categorical_crossentropy(
            labels[:, 0], logits, from_logits=True), -1)

    def eval_metrics(self, labels, predictions, unreduced, weights):
        return self._accuracy_and_loss(labels, predictions, unreduced,
                                       weights)


def classification_head(n_classes, weight_column=None, label_vocabulary=None,
                        loss_reduction=SUM_OVER_BATCH_SIZE):
    """The head a premade classifier uses for `n_classes`."""
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be >= 2: {n_classes}.")
    if n_classes == 2:
        return BinaryClassHead(weight_column=weight_column,
                               label_vocabulary=label_vocabulary,
                               loss_reduction=loss_reduction)
    return MultiClassHead(n_classes, weight_column=weight_column,
                          label_vocabulary=label_vocabulary,
                          loss_reduction=loss_reduction)

