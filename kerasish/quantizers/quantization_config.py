"""Quantization configs: which quantizers `Model.quantize` uses, per mode."""
from kerasish.engine.dtype_policy import QUANTIZATION_MODES
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import deserialize_keras_object
from kerasish.quantizers.quantizers import AbsMaxQuantizer
from kerasish.dtype_policies import DTypePolicyMap, Int4DTypePolicy


def _serialize(obj):
    return serialize_keras_object(obj)


def _deserialize(config):
    return deserialize_keras_object(config)


@builtin("keras.quantizers")
class QuantizationConfig:
    """Base class of quantization configs (`mode` names the scheme).

    Args:
        weight_quantizer: Quantizer of the weights, or `None` for the
            layer's default.
        activation_quantizer: Quantizer of the layer inputs, or `None`
            for weight-only quantization.

    Example:

    >>> config = Int8QuantizationConfig()
    >>> config.mode, type(config.activation_quantizer).__name__
    ('int8', 'AbsMaxQuantizer')
    """

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        """The quantization mode this config is for."""
        raise NotImplementedError(
            "Subclasses must implement this property. Do not instantiate "
            "QuantizationConfig directly.")

    def get_config(self):
        return {"weight_quantizer": _serialize(self.weight_quantizer),
                "activation_quantizer": _serialize(
                    self.activation_quantizer)}

    @classmethod
    def from_config(cls, config):
        return cls(weight_quantizer=_deserialize(
            config.get("weight_quantizer")),
            activation_quantizer=_deserialize(
                config.get("activation_quantizer")))

    @staticmethod
    def weight_quantizer_or_default(config, default):
        """The config's weight quantizer, else `default`."""
        if config is not None and config.weight_quantizer is not None:
            return config.weight_quantizer
        return default

    @staticmethod
    def activation_quantizer_or_default(config, default):
        """The config's activation quantizer (may be None), else `default`.
        """
        if config is not None:
            return config.activation_quantizer
        return default


@builtin("keras.quantizers")
class Int8QuantizationConfig(QuantizationConfig):
    """Int8 quantization: int8 weights, and by default int8 activations.

    Args:
        weight_quantizer: Quantizer of the weights (output dtype int8);
            `None` for per-output-channel `AbsMaxQuantizer`.
        activation_quantizer: Quantizer of the inputs. `"default"` (the
            default) is an `AbsMaxQuantizer` over the last axis; `None`
            keeps float inputs (weight-only quantization).

    Example:

    >>> Int8QuantizationConfig(activation_quantizer=None).get_config()
    {'weight_quantizer': None, 'activation_quantizer': None}
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        if activation_quantizer == "default":
            activation_quantizer = AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if weight_quantizer is not None and \
                weight_quantizer.output_dtype != "int8":
            raise ValueError(
                "Int8QuantizationConfig requires a weight_quantizer with "
                "output_dtype='int8'. Received: "
                f"output_dtype={weight_quantizer.output_dtype}")

    @property
    def mode(self):
        return "int8"


@builtin("keras.quantizers")
class Int4QuantizationConfig(QuantizationConfig):
    """Int4 quantization: weights packed two per byte.

    Args:
        weight_quantizer: Quantizer with `value_range=(-8, 7)` and int8
            output (per-channel mode only); `None` for the default.
        activation_quantizer: Quantizer of the inputs; `"default"` means
            none (weight-only).
        block_size: Input rows per scale/zero-point group (sub-channel,
            asymmetric); `None` or -1 for one symmetric scale per output
            channel. Defaults to 128.

    Example:

    >>> Int4QuantizationConfig(block_size=64).get_config()["block_size"]
    64
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default",
                 block_size=128):
        if activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and block_size != -1 and block_size <= 0:
            raise ValueError(
                "block_size must be None, -1, or a positive integer. "
                f"Received: block_size={block_size}")
        self.block_size = block_size
        sub_channel = block_size is not None and block_size > 0
        if sub_channel and (weight_quantizer is not None or
                            activation_quantizer is not None):
            raise ValueError(
                "Int4 sub-channel quantization (block_size > 0) does not "
                "support custom quantizers. Either set block_size to None "
                "or -1 for per-channel quantization, or remove the custom "
                f"quantizer arguments. Received: block_size={block_size}")
        if weight_quantizer is not None:
            _check_int4_quantizer(weight_quantizer)

    @property
    def mode(self):
        return "int4"

    def get_config(self):
        config = super().get_config()
        config["block_size"] = self.block_size
        return config

    @classmethod
    def from_config(cls, config):
        # Configs written before `block_size` existed were per-channel.
        return cls(weight_quantizer=_deserialize(
            config.get("weight_quantizer")),
            activation_quantizer=_deserialize(
                config.get("activation_quantizer")),
            block_size=config.get("block_size", None))


def _check_int4_quantizer(quantizer):
    if tuple(quantizer.value_range) != (-8, 7):
        raise ValueError(
            "Int4QuantizationConfig requires a weight_quantizer with "
            f"value_range=(-8, 7). Received: "
            f"value_range={quantizer.value_range}")
    if quantizer.output_dtype != "int8":
        raise ValueError(
            "Int4QuantizationConfig requires a weight_quantizer with "
            "output_dtype='int8'. Received: "
            f"output_dtype={quantizer.output_dtype}")


@builtin("keras.quantizers")
class Float8QuantizationConfig(QuantizationConfig):
    """Float8 (FP8) training: inputs and kernels rounded through float8.

    Takes no quantizers: the scales come from each layer's amax history.

    Example:

    >>> Float8QuantizationConfig().mode
    'float8'
    """

    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        return "float8"

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls()


def validate_and_resolve_config(mode, config):
    """The config to quantize with, given `mode` and/or `config`.

    A string `config` is a mode (older call style); a missing config gets
    the mode's default (GPTQ and AWQ need one); a config contradicting
    `mode` is an error.
    """
    if isinstance(config, str):
        mode, config = config, None
    _validate_mode(mode)
    if config is None:
        config = _default_config(mode)
    elif not isinstance(config, QuantizationConfig):
        raise ValueError(
            "Argument `config` must be an instance of `QuantizationConfig`. "
            f"Received: config={config} (of type {type(config)})")
    if mode is not None and config.mode != mode:
        raise ValueError(f"Contradictory arguments: mode='{mode}' but "
                         f"config.mode='{config.mode}'")
    _validate_mode(config.mode)
    _check_calibrated_config(config)
    return config


def _default_config(mode):
    defaults = {"int8": Int8QuantizationConfig,
                "int4": Int4QuantizationConfig,
                "float8": Float8QuantizationConfig}
    if mode in defaults:
        return defaults[mode]()
    if mode in ("gptq", "awq"):
        name = "GPTQConfig" if mode == "gptq" else "AWQConfig"
        raise ValueError(f"For {mode.upper()}, you must pass a `{name}` "
                         "object in the `config` argument.")
    raise ValueError(
        "You must provide either `mode` or `config` to `quantize`.")


def _check_calibrated_config(config):
    # lazy: a top-level import would close an import circle
    from kerasish.quantizers.awq_config import AWQConfig
    # lazy: a top-level import would close an import circle
    from kerasish.quantizers.gptq_config import GPTQConfig
    expected = {"gptq": GPTQConfig, "awq": AWQConfig}.get(config.mode)
    if expected is not None and not isinstance(config, expected):
        raise ValueError(
            f"Mode '{config.mode}' requires a valid `config` argument of "
            f"type `{expected.__name__}`. Received: {type(config)}")


def _validate_mode(mode):
    if mode is not None and mode not in QUANTIZATION_MODES:
        raise ValueError(
            "Invalid quantization mode. Expected one of "
            f"{QUANTIZATION_MODES}. Received: mode={mode}")


def get_block_size_for_layer(layer, config):
    """The int4 block size from `config`, else from the layer's policy.

    Returns `None` for per-channel quantization.
    """
    if isinstance(config, Int4QuantizationConfig):
        return config.block_size
    policy = layer.dtype_policy
    if isinstance(policy, DTypePolicyMap):
        policy = policy[layer.path]
    if isinstance(policy, Int4DTypePolicy):
        return None if policy.block_size == -1 else policy.block_size
    return None
