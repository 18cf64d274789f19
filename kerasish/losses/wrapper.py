"""`LossFunctionWrapper`: a `Loss` that calls a plain loss function.

Every built-in loss class is a wrapper around the function of the same
name (`MeanSquaredError` around `mean_squared_error`), as in Keras. The
classes list their configurable arguments in `_config_keys`; Keras omits a
few constructor arguments from `get_config` (`Huber.delta`,
`CosineSimilarity.axis`, `SparseCategoricalCrossentropy.axis`), so a saved
`Huber(delta=2.0)` reloads as `Huber(delta=1.0)` there. kerasish writes
those arguments only when they differ from the default: default configs are
exactly Keras's, and a non-default value survives a save/load round trip
(Keras reads the extra key back without complaint).
"""
from kerasish import tree
from kerasish.losses.loss import Loss, squeeze_or_expand_to_same_rank
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin

MODULE = "keras.losses"


@builtin(MODULE)
class LossFunctionWrapper(Loss):
    """A `Loss` computing `fn(y_true, y_pred, **kwargs)` per sample.

    Args:
        fn: The loss function, `fn(y_true, y_pred, **kwargs)`.
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        name: Name of the loss.
        dtype: Computation dtype (default floatx).
        **kwargs: Keyword arguments passed to `fn`.

    Example:

    >>> import numpy as np
    >>> def l1(y_true, y_pred):
    ...     return np.abs(np.asarray(y_true) - np.asarray(y_pred)).mean(-1)
    >>> float(LossFunctionWrapper(l1)([[0.0, 2.0]], [[1.0, 1.0]]))
    1.0
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None,
                 dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if not (tree.is_nested(y_true) or tree.is_nested(y_pred)):
            y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
            return self.fn(y_true, y_pred, **self._fn_kwargs)
        flat_true, flat_pred = tree.flatten(y_true), tree.flatten(y_pred)
        if len(flat_true) == len(flat_pred):
            pairs = [squeeze_or_expand_to_same_rank(t, p)
                     for t, p in zip(flat_true, flat_pred)]
            y_true = tree.pack_sequence_as(y_true, [t for t, _ in pairs])
            y_pred = tree.pack_sequence_as(y_pred, [p for _, p in pairs])
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config["fn"] = serialization_lib.serialize_keras_object(self.fn)
        config.update(serialization_lib.serialize_keras_object(
            self._fn_kwargs))
        return config

    @classmethod
    def from_config(cls, config):
        if "fn" in config:
            config = serialization_lib.deserialize_keras_object(config)
        return cls(**config)

    def __repr__(self):
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


class BuiltinLoss(LossFunctionWrapper):
    """Base of the built-in loss classes: config from `_config_keys`.

    `_config_keys` are written always (as Keras does); `_optional_keys`
    maps the arguments Keras leaves out to their defaults, written only
    when they differ.
    """

    _config_keys = ()
    _optional_keys = {}

    def __init__(self, fn, reduction, name, dtype, **kwargs):
        super().__init__(fn, reduction=reduction, name=name, dtype=dtype,
                         **kwargs)
        for key in self._config_keys + tuple(self._optional_keys):
            setattr(self, key, kwargs[key])

    def get_config(self):
        config = Loss.get_config(self)
        config.update({key: getattr(self, key) for key in self._config_keys})
        for key, default in self._optional_keys.items():
            if getattr(self, key) != default:
                config[key] = getattr(self, key)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def check_int_axis(axis):
    """Keras refuses a bool `axis` (a common typo for `from_logits`)."""
    if isinstance(axis, bool):
        raise ValueError("`axis` must be of type `int`. "
                         f"Received: axis={axis} of type {type(axis)}")
