"""`kerasish.quantizers`: `keras.quantizers` (quantizers, quantization
configs, int4 packing and float8 scaling helpers) with `get`,
`serialize` and `deserialize`."""
import inspect

from kerasish.quantizers.quantizers import (  # noqa: F401
    AbsMaxQuantizer, Quantizer, abs_max_quantize,
    abs_max_quantize_grouped_with_zero_point)
from kerasish.quantizers.fake_quant import (  # noqa: F401
    fake_quant_with_min_max_vars)
from kerasish.quantizers.float8 import (  # noqa: F401
    compute_float8_amax_history, compute_float8_scale,
    quantize_and_dequantize)
from kerasish.quantizers.int4_packing import (  # noqa: F401
    pack_int4, unpack_int4)
from kerasish.quantizers.quantization_config import (  # noqa: F401
    Float8QuantizationConfig, Int4QuantizationConfig,
    Int8QuantizationConfig, QuantizationConfig)
from kerasish.quantizers.gptq_config import GPTQConfig  # noqa: F401
from kerasish.quantizers.awq_config import AWQConfig  # noqa: F401
from kerasish.backend.common.naming import to_snake_case as _snake

# Keras registers `Quantizer` at the top level too (`keras.Quantizer`).
from kerasish.saving.object_registration import builtin as _builtin
from kerasish.saving import serialization_lib
_builtin("keras")(Quantizer)

_OBJECTS = (Quantizer, AbsMaxQuantizer, QuantizationConfig,
            Int8QuantizationConfig, Int4QuantizationConfig,
            Float8QuantizationConfig, GPTQConfig, AWQConfig)
ALL_OBJECTS_DICT = {cls.__name__: cls for cls in _OBJECTS}
ALL_OBJECTS_DICT.update({_snake(cls.__name__): cls for cls in _OBJECTS})


def serialize(initializer):
    """The Keras config dict of a quantizer or quantization config.

    Args:
        initializer: The object to serialize (Keras's argument name).

    Example:

    >>> serialize(AbsMaxQuantizer(axis=0))["config"]["axis"]
    (0,)
    """
    return serialization_lib.serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """Rebuild a quantizer or quantization config from its config dict.

    Args:
        config: The output of `serialize`.
        custom_objects: Optional dict of name -> custom class.

    Example:

    >>> config = serialize(Int4QuantizationConfig(block_size=32))
    >>> deserialize(config).block_size
    32
    """
    return serialization_lib.deserialize_keras_object(
        config, module_objects=ALL_OBJECTS_DICT,
        custom_objects=custom_objects)


def get(identifier, **kwargs):
    """Resolve a quantizer identifier.

    Args:
        identifier: `None`, a class name (`"AbsMaxQuantizer"` or
            `"abs_max_quantizer"`, instantiated with `**kwargs`), a config
            dict, or a quantizer object / callable (returned as is).
        **kwargs: Constructor arguments for a named class.

    Example:

    >>> get("abs_max_quantizer", axis=-1).axis
    (-1,)
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj(**kwargs) if inspect.isclass(obj) else obj
    raise ValueError(
        f"Could not interpret quantizer identifier: {identifier}")
