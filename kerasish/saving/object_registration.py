"""Registries of serializable objects: kerasish's built-ins and the user's.

Deserialization resolves names only through these registries (and
`custom_objects`); nothing is ever imported by a module path found in a
file. Built-ins register with the Keras module they mirror
(`@builtin("keras.layers")`), so a config written by Keras
(`{"module": "keras.layers", "class_name": "Dense"}`) maps to kerasish's.
"""
import contextlib
import threading

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


def builtins_of(module):
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
    """The registered `"package>name"` of `obj`, else its `__name__`."""
    return _CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """Look `name` up in scoped, passed, registered, then module objects."""
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
    """Make `custom_objects` resolvable by name inside the `with` block."""
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
    """The global dict of registered custom objects (mutable, as in Keras)."""
    return _CUSTOM
