"""`kerasish.activations`: `keras.activations` functions, `get`, `serialize`."""
import types

from kerasish.activations.activations import *  # noqa: F401,F403
from kerasish.activations.activations import linear, silu, hard_silu
from kerasish.saving import object_registration as registry
from kerasish.saving import serialization_lib

ALL_OBJECTS_DICT = dict(registry.builtins_of("keras.activations"))
ALL_OBJECTS_DICT["swish"] = silu
ALL_OBJECTS_DICT["hard_swish"] = hard_silu


def get(identifier):
    """Resolve None (linear), a name, a config dict or a callable.

    Example:

    >>> kerasish.activations.get("relu") is kerasish.activations.relu
    True
    >>> kerasish.activations.get(None) is kerasish.activations.linear
    True
    """
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        obj = serialization_lib.deserialize_keras_object(
            identifier, module_objects=ALL_OBJECTS_DICT)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj
    raise ValueError(
        f"Could not interpret activation function identifier: {identifier}")


def serialize(activation):
    """A built-in's name, or the full config of a custom activation.

    Example:

    >>> kerasish.activations.serialize(kerasish.activations.gelu)
    'gelu'
    """
    if isinstance(activation, types.FunctionType) and \
            ALL_OBJECTS_DICT.get(activation.__name__) is activation:
        return activation.__name__
    return serialization_lib.serialize_keras_object(activation)


def deserialize(config, custom_objects=None):
    """The activation function named or described by `config`.

    Args:
        config: A built-in's name or a serialized activation dict.
        custom_objects: Optional dict of name -> user function.

    Example:

    >>> kerasish.activations.deserialize("relu") is kerasish.activations.relu
    True
    """
    return serialization_lib.deserialize_keras_object(
        config, custom_objects=custom_objects,
        module_objects=ALL_OBJECTS_DICT)
