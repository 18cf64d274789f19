"""Keras 2's serialization format (`keras.utils.legacy`, `keras.legacy.saving`).

An object becomes `{"class_name": <registered name>, "config": <its
get_config()>}` -- no `"module"` or `"registered_name"` -- and a function
its registered name. Config values that are objects (not already
serialized) are serialized the same way and flagged
`"__passive_serialization__"`, so deserialization knows to rebuild them.
Names are resolved through the enclosing `custom_object_scope`s,
`custom_objects`, the registered custom objects and `module_objects`,
never by importing a module.
"""
import copy
import inspect

from kerasish.saving import object_registration as registry

_PASSIVE = "__passive_serialization__"
_UNKNOWN = ("Unknown {what}: '{name}'. Please ensure you are using a "
            "`keras.utils.custom_object_scope` and that this object is "
            "included in the scope. See https://www.tensorflow.org/guide/"
            "keras/save_and_serialize#registering_the_custom_object for "
            "details.")


def serialize_keras_object(instance):
    """Serialize an object to Keras 2's `{"class_name", "config"}` format.

    Args:
        instance: An object with `get_config()` (layer, loss, optimizer,
            initializer, ...), a function, or None.

    Returns:
        A JSON-friendly dict, the function's registered name, or None.

    Example:

    >>> kerasish.utils.legacy.serialize_keras_object(
    ...     kerasish.initializers.Constant(2.0))
    {'class_name': 'Constant', 'config': {'value': 2.0}}
    >>> kerasish.utils.legacy.serialize_keras_object(
    ...     kerasish.activations.relu)
    'relu'
    """
    instance = inspect.unwrap(instance)
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        config = {key: _serialize_item(item)
                  for key, item in instance.get_config().items()}
        return {"class_name": registry.get_registered_name(type(instance)),
                "config": config}
    if hasattr(instance, "__name__"):
        return registry.get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't "
                     "implement `get_config()`.")


def _serialize_item(item):
    # Strings stay as they are; what cannot be serialized (numbers, lists,
    # already-serialized dicts) is kept as it is, as Keras 2 did.
    if isinstance(item, str):
        return item
    try:
        serialized = serialize_keras_object(item)
    except ValueError:
        return item
    if isinstance(serialized, dict) and not isinstance(item, dict):
        serialized[_PASSIVE] = True
    return serialized


def deserialize_keras_object(identifier, module_objects=None,
                             custom_objects=None,
                             printable_module_name="object"):
    """Rebuild an object from Keras 2's serialized form.

    Unlike `keras.saving.deserialize_keras_object`, built-ins are not known
    here: pass them in `module_objects` (this is how Keras 2's
    `layers.deserialize` & co were written).

    Args:
        identifier: A `{"class_name", "config"}` dict, a name, a function
            or None.
        module_objects: Dict of name -> built-in class or function, looked
            up last. Defaults to `None`.
        custom_objects: Dict of name -> user class or function. Defaults
            to `None`.
        printable_module_name: What the object is, for error messages.
            Defaults to `"object"`.

    Returns:
        The object (a class named by a string is instantiated without
        arguments; a function is returned as is).

    Example:

    >>> layer = kerasish.utils.legacy.deserialize_keras_object(
    ...     {"class_name": "Dense", "config": {"units": 3}},
    ...     module_objects={"Dense": kerasish.layers.Dense})
    >>> type(layer).__name__, layer.units
    ('Dense', 3)
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, config = _class_and_config(identifier, module_objects,
                                        custom_objects, printable_module_name)
        return _instantiate(cls, config, custom_objects)
    if isinstance(identifier, str):
        obj = _lookup(identifier, module_objects, custom_objects,
                      printable_module_name)
        return obj() if inspect.isclass(obj) else obj
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized "
                     f"{printable_module_name}: {identifier}")


def _lookup(name, module_objects, custom_objects, what):
    obj = registry.get_registered_object(name, custom_objects,
                                         module_objects)
    if obj is None:
        raise ValueError(_UNKNOWN.format(what=what, name=name))
    return obj


def _class_and_config(config, module_objects, custom_objects, what):
    if not isinstance(config, dict) or "class_name" not in config or \
            "config" not in config:
        raise ValueError(
            f"Improper config format for {config}. Expecting python dict "
            "contains `class_name` and `config` as keys")
    cls = _lookup(config["class_name"], module_objects, custom_objects, what)
    inner = copy.copy(config["config"])
    if isinstance(inner, list):
        # Keras 2.0's Sequential config: a bare list of layer configs.
        return cls, inner
    for key, item in inner.items():
        if key == "name":
            continue    # a name is a name, even if a function shares it
        if isinstance(item, dict) and _PASSIVE in item:
            item = {k: v for k, v in item.items() if k != _PASSIVE}
            inner[key] = deserialize_keras_object(
                item, module_objects, custom_objects, "config_item")
        elif isinstance(item, str):
            found = registry.get_registered_object(item, custom_objects,
                                                   module_objects)
            if inspect.isfunction(found):
                inner[key] = found
    return cls, inner


def _instantiate(cls, config, custom_objects):
    custom_objects = custom_objects or {}
    if not hasattr(cls, "from_config"):
        # A function returning an object: its config holds the kwargs.
        with registry.custom_object_scope(custom_objects):
            return cls(**config)
    if "custom_objects" in inspect.signature(cls.from_config).parameters:
        merged = {**registry.get_custom_objects(), **custom_objects}
        return cls.from_config(config, custom_objects=merged)
    with registry.custom_object_scope(custom_objects):
        return cls.from_config(config)
