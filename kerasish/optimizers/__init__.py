"""`kerasish.optimizers`: `keras.optimizers` classes and `get`."""
from kerasish.optimizers.base_optimizer import Optimizer  # noqa: F401
from kerasish.optimizers.sgd import SGD  # noqa: F401
from kerasish.optimizers.adam import Adam  # noqa: F401
from kerasish.optimizers import schedules  # noqa: F401
from kerasish.saving import object_registration as _registry
from kerasish.saving import serialization_lib as _serialization


def _table():
    return {name.lower(): obj for name, obj in
            _registry.builtins_of("keras.optimizers").items()}


def serialize(optimizer):
    return _serialization.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """Rebuild an optimizer; built-in class names match case-insensitively."""
    config = dict(config)
    table = _table()
    if config["class_name"].lower() in table:
        config["class_name"] = table[config["class_name"].lower()].__name__
    return _serialization.deserialize_keras_object(
        config, custom_objects=custom_objects, module_objects=table)


def get(identifier):
    """Resolve an optimizer name (`"adam"`), config dict or instance."""
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
