"""Loss functions and classes (`keras.losses`).

Each function computes per-sample losses, averaged over the last axis where
Keras does; each class wraps its function with the reduction and
`sample_weight` handling of `Loss`.
"""
import warnings

from kerasish import ops, tree
from kerasish.losses.loss import Loss, squeeze_or_expand_to_same_rank
from kerasish.saving.object_registration import builtin
from kerasish.saving import serialization_lib

_MODULE = "keras.losses"


@builtin(_MODULE)
class LossFunctionWrapper(Loss):
    """A `Loss` computing `fn(y_true, y_pred, **kwargs)`."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None,
                 dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        pairs = tree.map_structure(squeeze_or_expand_to_same_rank, y_true,
                                   y_pred) if not tree.is_nested(y_true) \
            else None
        if pairs is not None:
            y_true, y_pred = pairs
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


def check_broadcastable(y_true, y_pred, name):
    """Raise a clear error when labels and predictions cannot broadcast."""
    a, b = tuple(y_true.shape), tuple(y_pred.shape)
    for d1, d2 in zip(a[::-1], b[::-1]):
        if d1 != d2 and d1 != 1 and d2 != 1:
            raise ValueError(
                f"Loss '{name}': `y_true` and `y_pred` have incompatible "
                f"shapes. Received: y_true.shape={a}, y_pred.shape={b}")


@builtin(_MODULE, "mse", "MSE")
def mean_squared_error(y_true, y_pred):
    """`mean(square(y_true - y_pred), axis=-1)`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "mean_squared_error")
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


@builtin(_MODULE)
def binary_crossentropy(y_true, y_pred, from_logits=False,
                        label_smoothing=0.0, axis=-1):
    """Binary cross-entropy averaged over `axis`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return ops.mean(ops.binary_crossentropy(y_true, y_pred,
                                            from_logits=from_logits),
                    axis=axis)


@builtin(_MODULE)
def categorical_crossentropy(y_true, y_pred, from_logits=False,
                             label_smoothing=0.0, axis=-1):
    """Cross-entropy with one-hot (or soft) labels."""
    if isinstance(axis, bool):
        raise ValueError("`axis` must be of type `int`. "
                         f"Received: axis={axis} of type {type(axis)}")
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if y_pred.shape[-1] == 1:
        warnings.warn(
            "In loss categorical_crossentropy, expected y_pred.shape to be "
            "(batch_size, num_classes) with num_classes > 1. Received: "
            f"y_pred.shape={y_pred.shape}. Consider using "
            "'binary_crossentropy' if you only have 2 classes.",
            SyntaxWarning, stacklevel=2)
    if label_smoothing:
        num_classes = y_true.shape[-1]
        y_true = y_true * (1.0 - label_smoothing) + \
            label_smoothing / num_classes
    return ops.categorical_crossentropy(y_true, y_pred,
                                        from_logits=from_logits, axis=axis)


@builtin(_MODULE)
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False,
                                    ignore_class=None, axis=-1):
    """Cross-entropy with integer class labels."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[axis] == 1:
        y_true = ops.squeeze(y_true, axis=axis)
    valid = None
    if ignore_class is not None:
        class_axis = axis % len(y_pred.shape)
        res_shape = tuple(d for i, d in enumerate(y_pred.shape)
                          if i != class_axis)
        valid = ops.not_equal(y_true, ignore_class)
        y_true = ops.where(valid, y_true, 0)
        y_pred = ops.where(ops.expand_dims(valid, axis), y_pred, 0.0)
    res = ops.sparse_categorical_crossentropy(y_true, y_pred,
                                              from_logits=from_logits,
                                              axis=axis)
    if valid is not None:
        valid = ops.reshape(valid, res_shape)
        res = ops.where(valid, res, 0.0)
        res._keras_mask = valid
    return res


def _loss_class(name, fn, doc, params, defaults_name):
    """Build a `LossFunctionWrapper` subclass with Keras's signature."""
    names = [p for p, _ in params]

    def __init__(self, *args, reduction="sum_over_batch_size",
                 name=defaults_name, dtype=None, **kwargs):
        values = dict(params)
        values.update(zip(names, args))
        for key in list(kwargs):
            if key in values:
                values[key] = kwargs.pop(key)
        if kwargs:
            raise TypeError(f"{type(self).__name__} got unexpected keyword "
                            f"arguments: {sorted(kwargs)}")
        LossFunctionWrapper.__init__(self, fn, reduction=reduction,
                                     name=name, dtype=dtype, **values)
        for key, value in values.items():
            setattr(self, key, value)

    def get_config(self):
        config = Loss.get_config(self)
        config.update({k: getattr(self, k) for k in names})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)
    cls = type(name, (LossFunctionWrapper,), {
        "__init__": __init__, "get_config": get_config,
        "from_config": from_config, "__doc__": doc, "__module__": __name__})
    return builtin(_MODULE)(cls)


MeanSquaredError = _loss_class(
    "MeanSquaredError", mean_squared_error,
    "Mean of squared errors over the last axis.", [],
    "mean_squared_error")
BinaryCrossentropy = _loss_class(
    "BinaryCrossentropy", binary_crossentropy,
    "Binary cross-entropy (`from_logits`, `label_smoothing`, `axis`).",
    [("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)],
    "binary_crossentropy")
CategoricalCrossentropy = _loss_class(
    "CategoricalCrossentropy", categorical_crossentropy,
    "Cross-entropy for one-hot labels (`from_logits`, `label_smoothing`).",
    [("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)],
    "categorical_crossentropy")
SparseCategoricalCrossentropy = _loss_class(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "Cross-entropy for integer labels (`from_logits`, `ignore_class`).",
    [("from_logits", False), ("ignore_class", None)],
    "sparse_categorical_crossentropy")
