"""`get` / `serialize` / `deserialize` for one family of objects.

Every family (initializers, regularizers, losses, ...) resolves identifiers
the same way: None passes, dicts deserialize, strings are looked up among
the family's built-ins and registered objects, callables pass through.
"""
from kerasish.saving import object_registration as registry
from kerasish.saving import serialization_lib


def make_get(module, kind, base_class=None, instantiate_classes=True):
    """Build `(get, serialize, deserialize)` for the family `module`."""

    def serialize(obj):
        return serialization_lib.serialize_keras_object(obj)

    def deserialize(config, custom_objects=None):
        return serialization_lib.deserialize_keras_object(
            config, custom_objects=custom_objects,
            module_objects=registry.builtins_of(module))

    def get(identifier):
        if identifier is None:
            return None
        if isinstance(identifier, dict):
            return deserialize(identifier)
        if isinstance(identifier, str):
            obj = registry.get_registered_object(
                identifier, module_objects=registry.builtins_of(module))
            if obj is None:
                raise ValueError(
                    f"Could not interpret {kind} identifier: {identifier}")
            if isinstance(obj, type) and instantiate_classes:
                return obj()
            return obj
        if isinstance(identifier, type) and base_class is not None and \
                issubclass(identifier, base_class):
            return identifier()
        if callable(identifier):
            return identifier
        raise ValueError(
            f"Could not interpret {kind} identifier: {identifier}")

    _document(get, serialize, deserialize, module, kind)
    return get, serialize, deserialize


# A built-in of each family for the examples of its get/serialize/
# deserialize docstrings (tests/test_doctests.py runs them).
_EXAMPLES = {"keras.initializers": "zeros", "keras.regularizers": "l2",
             "keras.constraints": "non_neg",
             "keras.losses": "mean_squared_error"}


def _document(get, serialize, deserialize, module, kind):
    family = module.split(".")[-1]
    name = _EXAMPLES.get(module, "")
    example = (f"""

    Example:

    >>> obj = kerasish.{family}.get("{name}")
    >>> config = kerasish.{family}.serialize(obj)
    >>> type(kerasish.{family}.deserialize(config)) is type(obj)
    True
    """ if name else "\n    ")
    get.__doc__ = f"""Resolve a {kind} identifier to a {kind}.

    Args:
        identifier: `None` (returned as is), a built-in or registered
            name, a serialized dict, a class (instantiated) or a
            callable.{example}"""
    serialize.__doc__ = f"""The serialized (JSON-friendly) form of a {kind}.

    Args:
        obj: The {kind}.{example}"""
    deserialize.__doc__ = f"""Rebuild a {kind} from `serialize`'s output.

    Args:
        config: A serialized dict (or a name).
        custom_objects: Optional dict of name -> user class or
            function.{example}"""
