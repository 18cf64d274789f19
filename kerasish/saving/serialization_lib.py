"""Keras 3's object serialization format, both ways, without imports.

    {"module": "keras.layers", "class_name": "Dense",
     "config": {...}, "registered_name": null, "build_config": {...}}

`deserialize_keras_object` resolves `class_name` only through kerasish's
built-in registries, objects the caller registered or passed as
`custom_objects`; a module path in a config is never imported.
"""
import numpy as np

from kerasish.saving import object_registration as registry

_PLAIN = (str, int, float, bool)


class SafeModeError(ValueError):
    """Loading would run code from the file; refused in safe mode."""


def serialize_keras_object(obj):
    """Serialize `obj` to Keras 3's JSON-friendly dict format."""
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (np.ndarray,)) or hasattr(obj, "_value"):
        arr = np.asarray(obj)
        return {"class_name": "__numpy__",
                "config": {"value": arr.tolist(), "dtype": str(arr.dtype)}}
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__",
                "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, tuple):
        return tuple(serialize_keras_object(x) for x in obj)
    if isinstance(obj, list):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, type):
        return {"class_name": "__typespec__", "config": obj.__name__}
    if callable(obj) and not hasattr(obj, "get_config"):
        return _serialize_function(obj)
    return _serialize_object(obj)


def _serialize_function(fn):
    name = getattr(fn, "__name__", None)
    if name == "<lambda>":
        from kerasish.saving import lambda_code
        return lambda_code.serialize_lambda(fn)
    registered = registry._CUSTOM_NAMES.get(fn)
    if registered:
        return {"module": None, "class_name": "function",
                "config": registered, "registered_name": "function"}
    return {"module": "builtins", "class_name": "function", "config": name,
            "registered_name": "function"}


def _serialize_object(obj):
    cls = type(obj)
    registered = registry._CUSTOM_NAMES.get(cls)
    if registered:
        module, registered_name = None, registered
    elif hasattr(cls, "_keras_module") and \
            registry.builtins_of(cls._keras_module).get(cls.__name__) is cls:
        module, registered_name = cls._keras_module, None
    else:
        module, registered_name = cls.__module__, cls.__name__
    config = {"module": module, "class_name": cls.__name__,
              "config": serialize_keras_object(obj.get_config()),
              "registered_name": registered_name}
    if hasattr(obj, "get_build_config"):
        build_config = obj.get_build_config()
        if build_config is not None:
            config["build_config"] = serialize_keras_object(build_config)
    if hasattr(obj, "get_compile_config"):
        compile_config = obj.get_compile_config()
        if compile_config is not None:
            config["compile_config"] = serialize_keras_object(compile_config)
    return config


def deserialize_keras_object(config, custom_objects=None, safe_mode=True,
                             module_objects=None, printable_module_name=None,
                             **kwargs):
    """Rebuild an object from `serialize_keras_object` output.

    Args:
        config: The serialized form (dict, list, string or number).
        custom_objects: Dict of user classes/functions by name.
        safe_mode: Refuse Lambda code and unregistered functions.
        module_objects: Extra name -> object table for plain names.
    """
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, str):
        if module_objects and config in module_objects:
            return module_objects[config]
        return config
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(c, custom_objects, safe_mode,
                                         module_objects) for c in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config!r:.200}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects, safe_mode)
                if isinstance(v, (dict, list)) else v
                for k, v in config.items()}
    special = _deserialize_special(config, custom_objects, safe_mode)
    if special is not _NOT_SPECIAL:
        return special
    if config["class_name"] == "function":
        return _resolve_function(config, custom_objects, safe_mode,
                                 module_objects)
    cls = resolve_class(config, custom_objects, module_objects)
    return instantiate(cls, config, custom_objects, safe_mode)


_NOT_SPECIAL = object()


def _deserialize_special(config, custom_objects, safe_mode):
    name, inner = config["class_name"], config["config"]
    if name == "__tuple__":
        return tuple(deserialize_keras_object(v, custom_objects, safe_mode)
                     for v in inner["value"])
    if name == "__numpy__":
        return np.asarray(inner["value"], dtype=inner["dtype"])
    if name == "__bytes__":
        return inner["value"].encode("utf-8")
    if name == "__lambda__":
        from kerasish.saving import lambda_code
        return lambda_code.deserialize_lambda(inner, safe_mode)
    if name == "__typespec__":
        raise ValueError("Type specs cannot be deserialized by kerasish. "
                         f"Received: {config!r:.200}")
    return _NOT_SPECIAL


def _resolve_function(config, custom_objects, safe_mode, module_objects):
    name = config["config"]
    obj = registry.get_registered_object(name, custom_objects,
                                         module_objects)
    if obj is None:
        for table in registry._BUILTINS.values():
            candidate = table.get(name)
            if candidate is not None and not isinstance(candidate, type):
                obj = candidate
                break
    if obj is None:
        raise ValueError(
            f"Could not locate function '{name}'. Make sure custom "
            "functions are decorated with "
            "`@kerasish.saving.register_keras_serializable()` or passed in "
            "`custom_objects`. kerasish never imports code named in a file. "
            f"Full object config: {config}")
    return obj


def resolve_class(config, custom_objects=None, module_objects=None):
    """Find the class a serialized config names, in registries only."""
    name = config["class_name"]
    registered = config.get("registered_name")
    for key in (registered, name):
        if key:
            obj = registry.get_registered_object(key, custom_objects,
                                                 module_objects)
            if obj is not None:
                return obj
    module = config.get("module") or ""
    table = registry.builtins_of(module)
    if name in table:
        return table[name]
    if module.startswith("keras") or not module:
        for table in registry._BUILTINS.values():
            obj = table.get(name)
            if isinstance(obj, type):
                return obj
    raise TypeError(
        f"Could not locate class '{name}'. Make sure custom classes are "
        "decorated with `@kerasish.saving.register_keras_serializable()` "
        "or passed in `custom_objects`; kerasish never imports modules "
        f"named in a file. Full object config: {config!r:.500}")


def instantiate(cls, config, custom_objects=None, safe_mode=True):
    """`cls.from_config(config["config"])`, then build/compile configs."""
    inner = config["config"]
    from kerasish.saving.object_registration import custom_object_scope
    with custom_object_scope(custom_objects or {}), \
            _safe_mode_scope(safe_mode):
        if isinstance(inner, dict) and _accepts_custom_objects(cls):
            obj = cls.from_config(inner, custom_objects=custom_objects)
        else:
            obj = cls.from_config(inner)
        build_config = config.get("build_config")
        if build_config and hasattr(obj, "build_from_config") and \
                not getattr(obj, "built", True):
            obj.build_from_config(build_config)
    return obj


def _accepts_custom_objects(cls):
    import inspect
    try:
        return "custom_objects" in inspect.signature(
            cls.from_config).parameters
    except (TypeError, ValueError):
        return False


_SAFE_MODE = [True]


class _safe_mode_scope:
    def __init__(self, value):
        self.value = value

    def __enter__(self):
        self.saved = _SAFE_MODE[0]
        if self.value is not None:
            _SAFE_MODE[0] = bool(self.value)

    def __exit__(self, *exc):
        _SAFE_MODE[0] = self.saved


def in_safe_mode():
    """Whether loading currently refuses code execution (default True)."""
    return _SAFE_MODE[0]


def enable_unsafe_deserialization():
    """Allow Lambda code to load (same as `safe_mode=False` everywhere)."""
    _SAFE_MODE[0] = False
