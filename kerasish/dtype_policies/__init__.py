"""`kerasish.dtype_policies`: `keras.dtype_policies` (float, quantized and
per-path policies) with `get`, `serialize` and `deserialize`."""
from kerasish.engine.dtype_policy import (  # noqa: F401
    QUANTIZATION_MODES, DTypePolicy, FloatDTypePolicy)
from kerasish.dtype_policies.quantized_policies import (  # noqa: F401
    AWQDTypePolicy, GPTQDTypePolicy, Int4DTypePolicy, QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy)
from kerasish.dtype_policies.dtype_policy_map import (  # noqa: F401
    DTypePolicyMap)
from kerasish.engine import dtype_policy as _core
from kerasish.saving import serialization_lib

ALL_OBJECTS_DICT = {cls.__name__: cls for cls in (
    DTypePolicy, FloatDTypePolicy, QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy, Int4DTypePolicy, GPTQDTypePolicy,
    AWQDTypePolicy, DTypePolicyMap)}


def serialize(dtype_policy):
    """The Keras config dict of a dtype policy.

    Args:
        dtype_policy: A `DTypePolicy` (or subclass) instance.

    Example:

    >>> serialize(QuantizedDTypePolicy("int8", "float32"))["config"]
    {'mode': 'int8', 'source_name': 'float32'}
    """
    return serialization_lib.serialize_keras_object(dtype_policy)


def deserialize(config, custom_objects=None):
    """Rebuild a dtype policy from its config dict.

    Args:
        config: The output of `serialize`.
        custom_objects: Optional dict of name -> custom policy class.

    Example:

    >>> policy = deserialize(serialize(DTypePolicy("mixed_float16")))
    >>> policy.compute_dtype
    'float16'
    """
    return serialization_lib.deserialize_keras_object(
        config, module_objects=ALL_OBJECTS_DICT,
        custom_objects=custom_objects)


def get(identifier):
    """Resolve None / a name / a config dict / a policy to a `DTypePolicy`.

    Args:
        identifier: `None` (the global policy), a policy name such as
            `"mixed_bfloat16"` or `"int4/128_from_float32"`, a serialized
            policy or a `DTypePolicy`.

    Example:

    >>> get("int8_from_float32")
    <QuantizedDTypePolicy "int8_from_float32">
    >>> get({"class_name": "DTypePolicy", "config": {"name": "float16"}})
    <DTypePolicy "float16">
    """
    return _core.get(identifier)
