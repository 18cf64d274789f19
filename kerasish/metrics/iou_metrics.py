"""Intersection-over-union metrics (`keras.metrics`): IoU, MeanIoU,
BinaryIoU, OneHotIoU and OneHotMeanIoU, from an accumulated confusion
matrix (rows: true class, columns: predicted class)."""
import warnings

import numpy as np

from kerasish.backend import config
from kerasish.backend.tensor import Tensor
from kerasish.metrics.metric import Metric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


def confusion_matrix(labels, predictions, num_classes, weights=None,
                     dtype="int32"):
    """`(num_classes, num_classes)` counts of (label, prediction) pairs."""
    labels = np.asarray(labels).astype(np.int64).reshape(-1)
    predictions = np.asarray(predictions).astype(np.int64).reshape(-1)
    flat = labels * num_classes + predictions
    counts = np.bincount(flat, weights=weights, minlength=num_classes ** 2)
    return counts.reshape(num_classes, num_classes).astype(dtype)


class _IoUBase(Metric):
    """Accumulates the confusion matrix; subclasses define `result`."""

    def __init__(self, num_classes, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        super().__init__(name=name, dtype=_int_dtype(dtype))
        self._direction = "up"
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable((num_classes, num_classes),
                                          "zeros", dtype=self.dtype,
                                          name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the batch's (weighted) label/prediction pairs."""
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        if not self.sparse_y_true:
            y_true = np.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = np.argmax(y_pred, axis=self.axis)
        y_true = y_true.astype(self.dtype).reshape(-1)
        y_pred = y_pred.astype(self.dtype).reshape(-1)
        weight = self._weights(sample_weight, y_true.shape)
        valid = (y_true >= 0) & (y_true < self.num_classes) & \
            (y_pred >= 0) & (y_pred < self.num_classes)
        if self.ignore_class is not None:
            valid &= y_true != self.ignore_class
        weight = np.where(valid, weight, 0)
        cm = confusion_matrix(np.where(valid, y_true, 0),
                              np.where(valid, y_pred, 0), self.num_classes,
                              weights=weight, dtype=self.dtype)
        self.total_cm._value += cm

    def _weights(self, sample_weight, shape):
        if sample_weight is None:
            return np.ones(shape, self.dtype)
        sample_weight = np.asarray(sample_weight)
        if sample_weight.dtype.kind == "f" and "int" in self.dtype:
            warnings.warn(
                "You are passing weight as `float`, but dtype is `int`. "
                "This may result in an incorrect weight due to type casting "
                "Consider using integer weights.", stacklevel=3)
        weight = sample_weight.astype(self.dtype)
        return np.broadcast_to(weight.reshape(-1) if weight.ndim > 1
                               else weight, shape)


def _int_dtype(dtype):
    return "int32" if dtype in (None, "int") else dtype


@builtin(_MODULE)
class IoU(_IoUBase):
    """Mean intersection-over-union over the `target_class_ids`.

    `IoU = TP / (TP + FP + FN)` per class, from the confusion matrix
    accumulated over all batches; classes that never occur are left out
    of the mean.

    Args:
        num_classes: Number of classes.
        target_class_ids: Classes whose IoU is averaged.
        name: Metric name. Defaults to `"io_u"`.
        dtype: Dtype of the confusion matrix. Defaults to `"int32"`.
        ignore_class: Label value to ignore. Defaults to None.
        sparse_y_true: Whether labels are class ids (else one-hot).
            Defaults to True.
        sparse_y_pred: Whether predictions are class ids (else scores,
            arg-maxed over `axis`). Defaults to True.
        axis: Class axis for non-sparse inputs. Defaults to -1.

    Example:

    >>> m = IoU(num_classes=2, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype,
                         ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(
                f"Target class id {max(target_class_ids)} is out of range, "
                f"which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        cm = self.total_cm._value
        true_pos = np.diag(cm).astype("float32")
        denominator = cm.sum(axis=0) + cm.sum(axis=1) - np.diag(cm)
        ids = np.asarray(self.target_class_ids)
        true_pos = true_pos[ids]
        denominator = denominator[ids].astype("float32")
        valid = denominator > 1e-9
        eps = config.epsilon()
        iou = np.where(valid, true_pos / (denominator + eps), 0.0)
        value = np.sum(iou) / (np.sum(valid) + eps)
        return Tensor(np.asarray(value, dtype="float32"))

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids,
                "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@builtin(_MODULE)
class BinaryIoU(IoU):
    """IoU of binary predictions thresholded at `threshold`.

    Args:
        target_class_ids: Classes (0 and/or 1) averaged. Defaults to
            `(0, 1)`.
        threshold: Predictions `>= threshold` are class 1. Defaults to 0.5.
        name: Metric name. Defaults to `"binary_io_u"`.
        dtype: Dtype of the confusion matrix. Defaults to `"int32"`.

    Example:

    >>> m = BinaryIoU(target_class_ids=[1])
    >>> m.update_state([0, 1, 1, 1], [0.2, 0.7, 0.4, 0.9])
    >>> round(float(m.result()), 4)
    0.6667
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None,
                 dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids,
                         name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Threshold the predictions, then add the pairs."""
        y_pred = np.asarray(y_pred, dtype="float32") >= self.threshold
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids,
                "threshold": self.threshold, "name": self.name,
                "dtype": self.dtype}


@builtin(_MODULE)
class MeanIoU(IoU):
    """IoU averaged over all `num_classes` classes.

    Args:
        num_classes: Number of classes.
        name: Metric name. Defaults to `"mean_io_u"`.
        dtype: Dtype of the confusion matrix. Defaults to `"int32"`.
        ignore_class: Label value to ignore. Defaults to None.
        sparse_y_true: Whether labels are class ids. Defaults to True.
        sparse_y_pred: Whether predictions are class ids. Defaults to True.
        axis: Class axis for non-sparse inputs. Defaults to -1.

    Example:

    >>> m = MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name,
                         dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@builtin(_MODULE)
class OneHotIoU(IoU):
    """IoU for one-hot labels and score predictions.

    Args:
        num_classes: Number of classes.
        target_class_ids: Classes whose IoU is averaged.
        name: Metric name. Defaults to `"one_hot_io_u"`.
        dtype: Dtype of the confusion matrix. Defaults to `"int32"`.
        ignore_class: Label value to ignore. Defaults to None.
        sparse_y_pred: Whether predictions are class ids. Defaults to
            False.
        axis: Class axis. Defaults to -1.

    Example:

    >>> m = OneHotIoU(num_classes=2, target_class_ids=[1])
    >>> m.update_state([[1, 0], [0, 1], [0, 1]],
    ...                [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    >>> round(float(m.result()), 4)
    0.5
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name,
                         dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred,
                         axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids,
                "name": self.name, "dtype": self.dtype,
                "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


@builtin(_MODULE)
class OneHotMeanIoU(MeanIoU):
    """Mean IoU for one-hot labels and score predictions.

    Args:
        num_classes: Number of classes.
        name: Metric name. Defaults to `"one_hot_mean_io_u"`.
        dtype: Dtype of the confusion matrix. Defaults to `"int32"`.
        ignore_class: Label value to ignore. Defaults to None.
        sparse_y_pred: Whether predictions are class ids. Defaults to
            False.
        axis: Class axis. Defaults to -1.

    Example:

    >>> m = OneHotMeanIoU(num_classes=2)
    >>> m.update_state([[1, 0], [0, 1], [0, 1]],
    ...                [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    >>> round(float(m.result()), 4)
    0.5
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
