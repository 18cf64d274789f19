"""`Sum`, `Mean` and `MeanMetricWrapper`: the reducing metrics."""
import numpy as np

from kerasish import ops
from kerasish.backend.tape import stop_recording
from kerasish.backend.tensor import Tensor
from kerasish.losses import loss as loss_module
from kerasish.metrics.metric import Metric
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin
from kerasish.saving import object_registration

_MODULE = "keras.metrics"


def reduce_to_samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Per-sample values (reduced over non-batch axes) times weights."""
    mask = getattr(values, "_keras_mask", None)
    values = ops.cast(values, dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
        if mask is not None:
            sample_weight = loss_module.apply_mask(sample_weight, mask,
                                                   dtype, "sum")
        values, sample_weight = loss_module.squeeze_or_expand_to_same_rank(
            values, sample_weight)
        weight_ndim, values_ndim = len(sample_weight.shape), len(values.shape)
        if values_ndim > weight_ndim:
            values = reduce_fn(values,
                               axis=list(range(weight_ndim, values_ndim)))
        sample_weight = ops.broadcast_to(sample_weight, values.shape)
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce_fn(sample_weight,
                                      axis=list(range(1, weight_ndim)))
    if len(values.shape) > 1:
        values = reduce_fn(values, axis=list(range(1, len(values.shape))))
    return values, sample_weight


def _is_scalar(x):
    return np.ndim(getattr(x, "_value", x)) == 0 and not isinstance(x, str)


@builtin(_MODULE)
class Sum(Metric):
    """Running (weighted) sum of the values given.

    Args:
        name: Metric name. Defaults to `"sum"`.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> m = Sum()
    >>> m.update_state([1.0, 3.0], sample_weight=[1.0, 0.5])
    >>> float(m.result())
    2.5
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype,
                                        name="total")

    def update_state(self, values, sample_weight=None):
        with stop_recording():
            values, _ = reduce_to_samplewise_values(values, sample_weight,
                                                    ops.sum, self.dtype)
            self.total.assign_add(ops.sum(values))

    def result(self):
        return Tensor(np.array(self.total._value, dtype=self.dtype))


@builtin(_MODULE)
class Mean(Metric):
    """Running (weighted) mean of the values given.

    With `sample_weight`, the result is `sum(w * v) / sum(w)`.

    Args:
        name: Metric name. Defaults to `"mean"`.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> m = Mean()
    >>> m.update_state([1.0, 3.0, 5.0, 7.0])
    >>> float(m.result())
    4.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype,
                                        name="total")
        self.count = self.add_variable((), "zeros", dtype=self.dtype,
                                        name="count")

    def update_state(self, values, sample_weight=None):
        if _is_scalar(values) and (sample_weight is None or
                                   _is_scalar(sample_weight)):
            # The loss tracker's case (a scalar weighted by batch size),
            # done directly: total += value * weight; count += weight.
            value = np.asarray(getattr(values, "_value", values),
                               self.dtype)
            weight = np.asarray(1 if sample_weight is None else getattr(
                sample_weight, "_value", sample_weight), self.dtype)
            self.total._value += value * weight
            self.count._value += weight
            return
        with stop_recording():
            values, sample_weight = reduce_to_samplewise_values(
                values, sample_weight, ops.mean, self.dtype)
            self.total.assign_add(ops.sum(values))
            if sample_weight is not None:
                count = ops.sum(sample_weight)
            elif len(values.shape) >= 1:
                count = values.shape[0]
            else:
                count = 1
            self.count.assign_add(count)

    def result(self):
        total, count = self.total._value, self.count._value
        # As Keras's `divide_no_nan`: integer totals divide to float32.
        dtype = total.dtype if total.dtype.kind == "f" else np.float32
        if not count:
            return Tensor(np.zeros((), dtype))
        return Tensor(np.asarray(total / count, dtype=dtype))


@builtin(_MODULE)
class MeanMetricWrapper(Mean):
    """Mean of `fn(y_true, y_pred, **kwargs)` over all samples seen.

    Wrapping a loss function (the same objects as in `kerasish.losses`)
    marks the metric as one to minimise (`_direction = "down"`), which
    callbacks in `mode="auto"` read.

    Args:
        fn: The per-sample function `fn(y_true, y_pred, **kwargs)`.
        name: Metric name.
        dtype: Dtype of the state and result (default floatx).
        **kwargs: Keyword arguments passed to `fn`.

    Example:

    >>> from kerasish import losses
    >>> m = MeanMetricWrapper(losses.mean_absolute_error, name="l1")
    >>> m.update_state([[0.0, 1.0]], [[1.0, 1.0]])
    >>> float(m.result()), m._direction
    (0.5, 'down')
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        losses = object_registration.builtins_of("keras.losses").values()
        if any(fn is obj or type(fn) is obj for obj in losses):
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        with stop_recording():
            mask = getattr(y_pred, "_keras_mask", None)
            values = self._fn(y_true, y_pred, **self._fn_kwargs)
            sample_weight = loss_module.apply_mask(sample_weight, mask,
                                                   self.dtype, "sum")
            super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config = super().get_config()
        config["fn"] = serialization_lib.serialize_keras_object(self._fn)
        config.update(serialization_lib.serialize_keras_object(
            self._fn_kwargs))
        return config

    @classmethod
    def from_config(cls, config):
        if "fn" in config:
            config = serialization_lib.deserialize_keras_object(config)
        return cls(**config)


class BuiltinMeanMetric(MeanMetricWrapper):
    """Base of the built-in wrapper metrics (`Accuracy`, `Hinge`, ...).

    The config is `name`, `dtype` and `_config_keys`; `_optional_keys`
    (argument -> default) are written only when not at their default,
    which keeps default configs identical to Keras's where Keras leaves an
    argument out. `_metric_direction` is `"up"`, `"down"` or None.
    """

    _config_keys = ()
    _optional_keys = {}
    _metric_direction = None

    def __init__(self, fn, name, dtype, **kwargs):
        super().__init__(fn=fn, name=name, dtype=dtype, **kwargs)
        for key in self._config_keys + tuple(self._optional_keys):
            setattr(self, key, kwargs[key])
        if self._metric_direction:
            self._direction = self._metric_direction

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype}
        config.update({key: getattr(self, key) for key in self._config_keys})
        for key, default in self._optional_keys.items():
            if getattr(self, key) != default:
                config[key] = getattr(self, key)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)
