"""Probabilistic metrics (`keras.metrics`): KL divergence, Poisson and the
cross-entropies, as running means of the loss functions."""
from kerasish.losses.crossentropy import (
    binary_crossentropy, categorical_crossentropy,
    sparse_categorical_crossentropy)
from kerasish.losses.probabilistic import kl_divergence, poisson
from kerasish.metrics.reduction_metrics import BuiltinMeanMetric
from kerasish.saving.object_registration import builtin

_MODULE = "keras.metrics"


@builtin(_MODULE)
class KLDivergence(BuiltinMeanMetric):
    """Mean Kullback-Leibler divergence between labels and predictions.

    Args:
        name: Metric name. Defaults to `"kl_divergence"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = KLDivergence()
    >>> m.update_state([[0.5, 0.5]], [[0.25, 0.75]])
    >>> round(float(m.result()), 4)
    0.1438
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name, dtype)


@builtin(_MODULE)
class Poisson(BuiltinMeanMetric):
    """Mean Poisson loss between counts and predicted rates.

    Args:
        name: Metric name. Defaults to `"poisson"`.
        dtype: Dtype of the result (default floatx).

    Example:

    >>> m = Poisson()
    >>> m.update_state([[1.0, 2.0]], [[1.0, 1.0]])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(poisson, name, dtype)


@builtin(_MODULE)
class BinaryCrossentropy(BuiltinMeanMetric):
    """Mean binary cross-entropy between labels and predictions.

    Args:
        name: Metric name. Defaults to `"binary_crossentropy"`.
        dtype: Dtype of the result (default floatx).
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.

    Example:

    >>> m = BinaryCrossentropy()
    >>> m.update_state([[0.0, 1.0]], [[0.4, 0.6]])
    >>> round(float(m.result()), 4)
    0.5108
    """
    _config_keys = ("from_logits", "label_smoothing")
    _metric_direction = "down"

    def __init__(self, name="binary_crossentropy", dtype=None,
                 from_logits=False, label_smoothing=0):
        super().__init__(binary_crossentropy, name, dtype,
                         from_logits=from_logits,
                         label_smoothing=label_smoothing)


@builtin(_MODULE)
class CategoricalCrossentropy(BuiltinMeanMetric):
    """Mean cross-entropy between one-hot labels and predictions.

    Args:
        name: Metric name. Defaults to `"categorical_crossentropy"`.
        dtype: Dtype of the result (default floatx).
        from_logits: Whether `y_pred` are logits. Defaults to False.
        label_smoothing: Float in `[0, 1]`. Defaults to 0.
        axis: The class axis. Defaults to -1.

    Example:

    >>> m = CategoricalCrossentropy()
    >>> m.update_state([[0, 1, 0]], [[0.05, 0.95, 0.0]])
    >>> round(float(m.result()), 4)
    0.0513
    """
    _config_keys = ("from_logits", "label_smoothing", "axis")
    _metric_direction = "down"

    def __init__(self, name="categorical_crossentropy", dtype=None,
                 from_logits=False, label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name, dtype,
                         from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


@builtin(_MODULE)
class SparseCategoricalCrossentropy(BuiltinMeanMetric):
    """Mean cross-entropy between integer labels and predictions.

    Args:
        name: Metric name. Defaults to `"sparse_categorical_crossentropy"`.
        dtype: Dtype of the result (default floatx).
        from_logits: Whether `y_pred` are logits. Defaults to False.
        ignore_class: Optional label value to ignore. Defaults to None.
        axis: The class axis. Defaults to -1.

    Example:

    >>> m = SparseCategoricalCrossentropy()
    >>> m.update_state([1], [[0.05, 0.95, 0.0]])
    >>> round(float(m.result()), 4)
    0.0513
    """
    _config_keys = ("from_logits", "ignore_class", "axis")
    _metric_direction = "down"

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None,
                 from_logits=False, ignore_class=None, axis=-1):
        super().__init__(sparse_categorical_crossentropy, name, dtype,
                         from_logits=from_logits, ignore_class=ignore_class,
                         axis=axis)
