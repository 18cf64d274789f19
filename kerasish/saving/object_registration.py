"""Registries of serializable objects: kerasish's built-ins and the user's.

Deserialization resolves names only through these registries (and
`custom_objects`); nothing is ever imported by a module path found in a
file. Built-ins register with the Keras module they mirror
(`@builtin("keras.layers")`), so a config written by Keras
(`{"module": "keras.layers", "class_name": "Dense"}`) maps to kerasish's.
"""
import contextlib
import threading
import importlib

# {keras_module: {name: object}}; names include snake_case aliases.
_BUILTINS = {}
_CUSTOM = {}          # "package>name" -> object
_CUSTOM_NAMES = {}    # object -> "package>name"
_scope = threading.local()


def builtin(module, *aliases):
    """Class/function decorator registering a kerasish built-in."""
    def register(obj):
        table = _BUILTINS.setdefault(module, {})
        table[obj.__name__] = obj
        for alias in aliases:
            table[alias] = obj
        if "_keras_module" not in getattr(obj, "__dict__", {}):
            obj._keras_module = module
        return obj
    return register


# Keras modules whose kerasish package loads lazily (not at `import
# kerasish`): imported, by this fixed table only, when a config names them.
_LAZY_PACKAGES = {"keras.distillation": "kerasish.distillation"}


def builtins_of(module):
    if module in _LAZY_PACKAGES and module not in _BUILTINS:
        importlib.import_module(_LAZY_PACKAGES[module])
    return _BUILTINS.get(module, {})


def register_keras_serializable(package="Custom", name=None):
    """Register a user class or function so it can be saved and loaded.

    Args:
        package: Namespace of the registered name (default `"Custom"`).
        name: Name within the package (default: the object's `__name__`).

    Example:

    >>> import kerasish
    >>> @kerasish.saving.register_keras_serializable(package="demo")
    ... def my_activation(x):
    ...     return x
    >>> kerasish.saving.get_registered_name(my_activation)
    'demo>my_activation'
    """
    def decorator(obj):
        key = f"{package}>{name or obj.__name__}"
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError(
                "Cannot register a class that does not have a "
                "get_config() method.")
        _CUSTOM[key] = obj
        _CUSTOM_NAMES[obj] = key
        return obj
    return decorator


def get_registered_name(obj):
    """The registered `"package>name"` of `obj`, else its `__name__`.

    Args:
        obj: A class or function.

    Example:

    >>> import kerasish
    >>> kerasish.saving.get_registered_name(kerasish.layers.Dense)
    'Dense'
    """
    return _CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered under `name`, or None.

    Looks in the enclosing `custom_object_scope`s, then `custom_objects`,
    then the objects registered with `register_keras_serializable`, then
    `module_objects`.

    Args:
        name: The registered name (`"package>name"`) or a custom name.
        custom_objects: Optional dict of name -> object.
        module_objects: Optional dict of built-ins to look in last.

    Example:

    >>> import kerasish
    >>> @kerasish.saving.register_keras_serializable(package="docs")
    ... def double(x):
    ...     return 2 * x
    >>> kerasish.saving.get_registered_object("docs>double") is double
    True
    """
    for table in (_scoped(), custom_objects or {}, _CUSTOM,
                  module_objects or {}):
        if name in table:
            return table[name]
    return None


def _scoped():
    merged = {}
    for objects in getattr(_scope, "stack", []):
        merged.update(objects)
    return merged


def scoped_objects():
    """Objects made available by enclosing `custom_object_scope`s."""
    return _scoped()


@contextlib.contextmanager
def custom_object_scope(custom_objects):
    """Make `custom_objects` resolvable by name inside the `with` block.

    Loading functions (`load_model`, `model_from_json`,
    `deserialize_keras_object`) called inside the block find these
    classes and functions by name, as if passed in `custom_objects`.

    Args:
        custom_objects: Dict of name -> class or function.

    Example:

    >>> import kerasish
    >>> class Twice(kerasish.layers.Layer):
    ...     def call(self, x):
    ...         return 2 * x
    >>> config = {"class_name": "Twice", "config": {"name": "t"}}
    >>> with kerasish.saving.custom_object_scope({"Twice": Twice}):
    ...     layer = kerasish.saving.deserialize_keras_object(config)
    >>> type(layer).__name__
    'Twice'
    """
    stack = getattr(_scope, "stack", None)
    if stack is None:
        stack = _scope.stack = []
    stack.append(dict(custom_objects or {}))
    try:
        yield
    finally:
        stack.pop()


CustomObjectScope = custom_object_scope


def get_custom_objects():
    """The global dict of registered custom objects (mutable, as in Keras).

    Adding an entry (`get_custom_objects()["MyLayer"] = MyLayer`) makes
    the object resolvable by that name, like registering it.

    Example:

    >>> import kerasish
    >>> isinstance(kerasish.saving.get_custom_objects(), dict)
    True
    """
    return _CUSTOM
