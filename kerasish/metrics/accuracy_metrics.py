"""Accuracy metrics (`keras.metrics`): exact, binary, categorical, sparse."""
from kerasish import ops
from kerasish.backend import config
from kerasish.losses.loss import squeeze_or_expand_to_same_rank
from kerasish.metrics.reduction_metrics import MeanMetricWrapper
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


@builtin(_MODULE)
def accuracy(y_true, y_pred):
    """1.0 where `y_true == y_pred`, else 0.0."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.cast(ops.equal(y_true, y_pred), config.floatx())


@builtin(_MODULE)
def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Match of `y_true` with `y_pred > threshold`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    y_pred = ops.cast(ops.greater(y_pred, threshold), y_true.dtype)
    return ops.cast(ops.equal(y_true, y_pred), config.floatx())


@builtin(_MODULE)
def categorical_accuracy(y_true, y_pred):
    """Match of `argmax(y_true)` with `argmax(y_pred)` (one-hot labels)."""
    y_true = ops.argmax(y_true, axis=-1)
    reshape_matches = False
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    original_shape = y_true.shape
    if len(y_true.shape) == len(y_pred.shape):
        y_true = ops.squeeze(y_true, -1)
        reshape_matches = True
    y_pred = ops.cast(ops.argmax(y_pred, axis=-1), y_true.dtype)
    matches = ops.cast(ops.equal(y_true, y_pred), config.floatx())
    if reshape_matches:
        matches = ops.reshape(matches, original_shape)
    return matches


@builtin(_MODULE)
def sparse_categorical_accuracy(y_true, y_pred):
    """Match of integer `y_true` with `argmax(y_pred)`."""
    reshape_matches = False
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    original_shape = y_true.shape
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
        reshape_matches = True
    y_pred = ops.cast(ops.argmax(y_pred, axis=-1), y_true.dtype)
    matches = ops.cast(ops.equal(y_true, y_pred), config.floatx())
    if reshape_matches:
        matches = ops.reshape(matches, original_shape)
    if len(matches.shape) > 1 and matches.shape[-1] == 1:
        matches = ops.squeeze(matches, -1)
    return matches


class _AccuracyMetric(MeanMetricWrapper):
    _fn_default = None

    def __init__(self, name=None, dtype=None, **kwargs):
        super().__init__(fn=type(self)._fn_default, name=name, dtype=dtype,
                         **kwargs)
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, **self._fn_kwargs}


@builtin(_MODULE)
class Accuracy(_AccuracyMetric):
    """How often predictions equal labels."""
    _fn_default = staticmethod(accuracy)

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(name=name, dtype=dtype)


@builtin(_MODULE)
class BinaryAccuracy(_AccuracyMetric):
    """How often `y_pred > threshold` matches binary labels."""
    _fn_default = staticmethod(binary_accuracy)

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold


@builtin(_MODULE)
class CategoricalAccuracy(_AccuracyMetric):
    """How often the arg-max matches one-hot labels."""
    _fn_default = staticmethod(categorical_accuracy)

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(name=name, dtype=dtype)


@builtin(_MODULE)
class SparseCategoricalAccuracy(_AccuracyMetric):
    """How often the arg-max matches integer labels."""
    _fn_default = staticmethod(sparse_categorical_accuracy)

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(name=name, dtype=dtype)
