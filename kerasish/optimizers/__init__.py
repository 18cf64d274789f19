"""`kerasish.optimizers`: `keras.optimizers` classes, schedules and `get`."""
from kerasish.optimizers.base_optimizer import Optimizer  # noqa: F401
from kerasish.optimizers.sgd import SGD  # noqa: F401
from kerasish.optimizers.adam import Adam  # noqa: F401
from kerasish.optimizers.adamw import AdamW  # noqa: F401
from kerasish.optimizers.adamax import Adamax  # noqa: F401
from kerasish.optimizers.nadam import Nadam  # noqa: F401
from kerasish.optimizers.rmsprop import RMSprop  # noqa: F401
from kerasish.optimizers.adagrad import Adagrad  # noqa: F401
from kerasish.optimizers.adadelta import Adadelta  # noqa: F401
from kerasish.optimizers.ftrl import Ftrl  # noqa: F401
from kerasish.optimizers.lion import Lion  # noqa: F401
from kerasish.optimizers.lamb import Lamb  # noqa: F401
from kerasish.optimizers.adafactor import Adafactor  # noqa: F401
from kerasish.optimizers.muon import Muon  # noqa: F401
from kerasish.optimizers.loss_scale_optimizer import (  # noqa: F401
    LossScaleOptimizer)
from kerasish.optimizers.schedule_free_adamw import (  # noqa: F401
    ScheduleFreeAdamW)
from kerasish.optimizers.multi_optimizer import (  # noqa: F401
    MultiOptimizer, OptimizerMap)
from kerasish.optimizers import schedules, legacy  # noqa: F401
from kerasish.saving import object_registration as _registry
from kerasish.saving import serialization_lib as _serialization


def _table():
    return {name.lower(): obj for name, obj in
            _registry.builtins_of("keras.optimizers").items()}


def serialize(optimizer):
    """Serialize an optimizer to Keras's config format.

    Example:

    >>> serialize(SGD())["class_name"]
    'SGD'
    """
    return _serialization.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """Rebuild an optimizer; built-in class names match case-insensitively.

    Example:

    >>> deserialize({"class_name": "adam", "config": {}}).name[:4]
    'adam'
    """
    config = dict(config)
    table = _table()
    if config["class_name"].lower() in table:
        config["class_name"] = table[config["class_name"].lower()].__name__
    return _serialization.deserialize_keras_object(
        config, custom_objects=custom_objects, module_objects=table)


def get(identifier):
    """Resolve an optimizer name (`"adam"`), config dict or instance.

    Example:

    >>> type(get("rmsprop")).__name__
    'RMSprop'
    """
    if identifier is None:
        return None
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        obj = _table().get(identifier.lower()) or \
            _registry.get_registered_object(identifier)
        if obj is not None:
            return obj()
    raise ValueError(
        f"Could not interpret optimizer identifier: {identifier}")
