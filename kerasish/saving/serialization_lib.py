"""Keras 3's object serialization format, both ways, without imports.

    {"module": "keras.layers", "class_name": "Dense",
     "config": {...}, "registered_name": null, "build_config": {...}}

`deserialize_keras_object` resolves `class_name` only through kerasish's
built-in registries, objects the caller registered or passed as
`custom_objects`; a module path in a config is never imported, and Python
code stored in a config (a lambda) loads only outside safe mode.
"""
import types

import numpy as np

from kerasish.saving import errors, legacy_config
from kerasish.saving import object_registration as registry
from kerasish.saving import safe_mode as _safe
from kerasish.saving.safe_mode import (  # noqa: F401 - public names
    SafeModeError, SafeModeScope, in_safe_mode,
    enable_unsafe_deserialization)
from kerasish.saving.sharing import ObjectSharingScope  # noqa: F401
from kerasish.saving import sharing
from kerasish.backend.tensor import Tensor
from kerasish.saving import lambda_code
from kerasish.ops import convert_to_tensor
import inspect

_PLAIN = (str, int, float, bool)


def serialize_keras_object(obj):
    """Serialize `obj` to Keras 3's JSON-friendly dict format.

    Layers, losses, metrics, optimizers, initializers and the like become
    `{"module", "class_name", "config", "registered_name"}` dicts (plus
    `build_config` / `compile_config` when the object has them); functions
    become references by name; plain values pass through.

    Args:
        obj: The object to serialize.

    Returns:
        A JSON-friendly structure that `deserialize_keras_object` reads.

    Example:

    >>> import kerasish
    >>> config = kerasish.saving.serialize_keras_object(
    ...     kerasish.initializers.Constant(2.0))
    >>> config["module"], config["class_name"], config["config"]
    ('keras.initializers', 'Constant', {'value': 2.0})
    """
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    special = _serialize_value(obj)
    if special is not None:
        return special
    if isinstance(obj, type):
        return {"class_name": "__typespec__", "config": obj.__name__}
    if callable(obj) and not hasattr(obj, "get_config"):
        return _serialize_function(obj)
    return _serialize_object(obj)


def _serialize_value(obj):
    """Containers, arrays, tensors, slices...; None for anything else."""
    if isinstance(obj, tuple):
        return tuple(serialize_keras_object(x) for x in obj)
    if isinstance(obj, list):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        if "class_name" in obj and "config" in obj:
            # Already serialized (a get_config() calling `serialize`): keep
            # the very dict, so a later `shared_object_id` reaches it.
            return obj
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, (np.generic, np.ndarray)) and np.ndim(obj) == 0:
        return np.asarray(obj).item()
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__",
                "config": {"value": obj.tolist(), "dtype": str(obj.dtype)}}
    if isinstance(obj, Tensor):
        arr = np.asarray(obj)
        return {"class_name": "__tensor__",
                "config": {"value": arr.tolist(), "dtype": str(arr.dtype)}}
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__",
                "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        return {"class_name": "__slice__",
                "config": {"start": obj.start, "stop": obj.stop,
                           "step": obj.step}}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    return None


def _serialize_function(fn):
    if getattr(fn, "__name__", None) == "<lambda>":
        return lambda_code.serialize_lambda(fn)
    # Keras 3 writes every function this way: a name to look up among the
    # built-ins or the registered custom objects, never a module to import.
    name = registry._CUSTOM_NAMES.get(fn) or getattr(fn, "__name__", None)
    return {"module": "builtins", "class_name": "function", "config": name,
            "registered_name": "function"}


def _serialize_object(obj):
    cls = type(obj)
    registered = registry._CUSTOM_NAMES.get(cls)
    if registered:
        module, registered_name = _module_of(cls), registered
    elif hasattr(cls, "_keras_module") and \
            registry.builtins_of(cls._keras_module).get(cls.__name__) is cls:
        # Keras names classes outside its public API (`keras.src....`,
        # e.g. Functional) by their class name.
        module = cls._keras_module
        registered_name = cls.__name__ if module.startswith("keras.src.") \
            else None
    else:
        module, registered_name = _module_of(cls), cls.__name__
    # `_keras_class_name`: Keras's exported name where it differs from the
    # class's (GroupedQueryAttention is `keras.layers.GroupQueryAttention`).
    class_name = cls.__dict__.get("_keras_class_name", cls.__name__)
    config = {"module": module, "class_name": class_name,
              "config": _object_config(obj),
              "registered_name": registered_name}
    for key, getter in (("build_config", "get_build_config"),
                        ("compile_config", "get_compile_config")):
        extra = getattr(obj, getter)() if hasattr(obj, getter) else None
        if extra is not None:
            config[key] = serialize_keras_object(extra)
    sharing.record_serialized(obj, config)
    return config


def _module_of(cls):
    return None if cls.__module__ == "__main__" else cls.__module__


def _object_config(obj):
    if not hasattr(obj, "get_config"):
        raise TypeError(
            f"Cannot serialize object {obj!r} of type {type(obj)}. To be "
            "serializable, a class must implement the `get_config()` "
            "method.")
    config = obj.get_config()
    if not isinstance(config, dict):
        raise TypeError(
            f"The `get_config()` method of {obj!r} should return a dict. "
            f"It returned: {config!r}")
    return serialize_keras_object(config)


def deserialize_keras_object(config, custom_objects=None, safe_mode=True,
                             module_objects=None, printable_module_name=None,
                             **kwargs):
    """Rebuild an object from `serialize_keras_object` output.

    Classes and functions are looked up by name in `custom_objects`, the
    enclosing `custom_object_scope`s, the objects registered with
    `register_keras_serializable`, then kerasish's built-ins. A `module`
    named in the config is never imported.

    Args:
        config: The serialized form (dict, list, string or number).
        custom_objects: Optional dict of user classes/functions by name.
        safe_mode: Whether to refuse Python code stored in the config (a
            lambda). Defaults to `True`. An enclosing `SafeModeScope` (as
            set up by `load_model`) takes precedence.
        module_objects: Optional extra name -> object table used for plain
            names (each family's `deserialize` passes its built-ins).
        printable_module_name: Accepted for Keras compatibility; unused.

    Returns:
        The rebuilt object.

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.Dense(3, name="d")
    >>> config = kerasish.saving.serialize_keras_object(layer)
    >>> kerasish.saving.deserialize_keras_object(config).units
    3
    """
    safe_mode = _safe.effective(safe_mode)
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, str):
        return _deserialize_name(config, custom_objects, module_objects)
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
    if "module" not in config:
        config = legacy_config.upgrade(config)
    if config["class_name"] == "function":
        return _resolve_function(config, custom_objects, module_objects)
    shared = sharing.lookup(config)
    if shared is not None:
        return shared
    cls = resolve_class(config, custom_objects, module_objects)
    if isinstance(cls, types.FunctionType):
        return cls
    obj = instantiate(cls, config, custom_objects, safe_mode)
    sharing.record_deserialized(config, obj)
    return obj


def _deserialize_name(name, custom_objects, module_objects):
    """A plain name, as Keras reads one: a custom or registered object as
    it is (legacy formats store plain functions by name only); a family's
    built-in function as it is and its built-in class as a default
    instance (`metrics.deserialize("mae")` is a `MeanAbsoluteError()`);
    an unknown name stays a string."""
    obj = registry.get_registered_object(name, custom_objects)
    if obj is not None:
        return obj
    obj = (module_objects or {}).get(name)
    if obj is None:
        return name
    if isinstance(obj, type):
        return obj.from_config({})
    return obj


_NOT_SPECIAL = object()


def _deserialize_special(config, custom_objects, safe_mode):
    name, inner = config["class_name"], config["config"]
    if name == "__tuple__":
        return tuple(deserialize_keras_object(v, custom_objects, safe_mode)
                     for v in inner["value"])
    if name == "__numpy__":
        return np.asarray(inner["value"], dtype=_plain_dtype(inner))
    if name == "__tensor__":
        return convert_to_tensor(np.asarray(inner["value"],
                                            dtype=_plain_dtype(inner)))
    if name == "__bytes__":
        return inner["value"].encode("utf-8")
    if name == "__slice__":
        return slice(inner["start"], inner["stop"], inner["step"])
    if name == "__ellipsis__":
        return Ellipsis
    if name == "__lambda__":
        return lambda_code.deserialize_lambda(inner, safe_mode)
    if name == "__typespec__":
        raise ValueError("Type specs cannot be deserialized by kerasish. "
                         f"Received: {config!r:.200}")
    return _NOT_SPECIAL


def _plain_dtype(inner):
    dtype = np.dtype(inner.get("dtype") or "float32")
    if dtype.kind not in "biufcUS":
        # Object/void dtypes could smuggle arbitrary Python objects in.
        raise ValueError(
            "Arrays in a config must have a numeric, boolean or string "
            f"dtype. Received: dtype={inner.get('dtype')!r}")
    return dtype


def _resolve_function(config, custom_objects, module_objects):
    name = config["config"]
    if not isinstance(name, str):
        raise TypeError(
            "Expected 'config' to be a function name (str) for class_name "
            f"'function'. Full object config: {config!r:.500}")
    obj = registry.get_registered_object(name, custom_objects,
                                         module_objects)
    if obj is None and ">" not in name:
        obj = _builtin_function(name)
    if obj is None:
        raise errors.UnknownObjectError(
            f"Could not locate function '{name}'. Make sure custom "
            "functions are decorated with "
            "`@kerasish.saving.register_keras_serializable()` or passed in "
            "`custom_objects`. kerasish never imports code named in a file "
            f"(module {config.get('module')!r} was not imported). Full "
            f"object config: {config!r:.500}")
    return obj


def _builtin_function(name):
    for table in registry._BUILTINS.values():
        candidate = table.get(name)
        if candidate is not None and not isinstance(candidate, type):
            return candidate
    return None


def resolve_class(config, custom_objects=None, module_objects=None):
    """Find the class a serialized config names, in registries only."""
    name = config["class_name"]
    for key in (config.get("registered_name"), name):
        if key:
            obj = registry.get_registered_object(key, custom_objects,
                                                 module_objects)
            if obj is not None:
                return obj
    if ">" in name:
        # A registered name ("package>Name") written by another program
        # whose user passes the class by its bare name.
        obj = registry.get_registered_object(name.split(">", 1)[1],
                                             custom_objects)
        if obj is not None:
            return obj
    module = config.get("module") or ""
    table = registry.builtins_of(module)
    if name in table:
        return table[name]
    if module == "keras" or module.startswith("keras.") or not module:
        for table in _fallback_tables():
            obj = table.get(name)
            if isinstance(obj, type):
                return obj
    raise errors.UnknownObjectError(
        f"Could not locate class '{name}'. Make sure custom classes are "
        "decorated with `@kerasish.saving.register_keras_serializable()` "
        "or passed in `custom_objects`; kerasish never imports modules "
        f"named in a file. Full object config: {config!r:.500}")


# Legacy configs name layers without a module, and the families that are
# not layers pass their own tables; so a bare name means a layer or model
# first (`Identity` is also an initializer).
_FIRST = ("keras.layers", "keras", "keras.src.models.functional",
          "keras.src.models.model")


def _fallback_tables():
    yield from (registry.builtins_of(m) for m in _FIRST)
    yield from (table for module, table in registry._BUILTINS.items()
                if module not in _FIRST)


def instantiate(cls, config, custom_objects=None, safe_mode=True):
    """`cls.from_config(config["config"])`, then build/compile configs."""
    inner = config["config"]
    if not isinstance(inner, dict):
        raise TypeError(
            f"Expected 'config' to be a dict for {config['class_name']},\n"
            f"instead got {type(inner)}\nFull config: {config!r:.500}")
    if not hasattr(cls, "from_config"):
        raise TypeError(
            f"Unable to reconstruct an instance of '{config['class_name']}' "
            "because the class is missing a `from_config()` method. Full "
            f"object config: {config!r:.500}")
    with registry.custom_object_scope(custom_objects or {}), \
            SafeModeScope(safe_mode):
        if isinstance(inner, dict) and _accepts_custom_objects(cls):
            obj = cls.from_config(inner, custom_objects=custom_objects)
        else:
            obj = cls.from_config(inner)
        build_config = config.get("build_config")
        if build_config and hasattr(obj, "build_from_config") and \
                not getattr(obj, "built", True):
            obj.build_from_config(build_config)
        # As Keras: a compiled model's config compiles it again
        # (`model_from_json`, `deserialize_keras_object`).
        compile_config = config.get("compile_config")
        if compile_config and hasattr(obj, "compile_from_config"):
            obj.compile_from_config(compile_config)
    return obj


def _accepts_custom_objects(cls):
    try:
        return "custom_objects" in inspect.signature(
            cls.from_config).parameters
    except (TypeError, ValueError):
        return False
