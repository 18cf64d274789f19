"""Quantized dtype policies: `"<mode>_from_<source policy>"`.

A quantized policy keeps the compute and variable dtypes of its source
policy (`"int8_from_mixed_bfloat16"` computes in bfloat16) and records how
the layer's weights are stored. Layers read the mode to pick their
quantized build and call paths.
"""
from kerasish.engine.dtype_policy import (QUANTIZATION_MODES, DTypePolicy,
                                          dtype_policy)
from kerasish.saving.object_registration import builtin


@builtin("keras.dtype_policies")
class QuantizedDTypePolicy(DTypePolicy):
    """Policy of a layer whose weights are quantized.

    Args:
        mode: `"int8"`, `"int4"`, `"float8"`, `"gptq"` or `"awq"`.
        source_name: The float policy the layer had before quantization
            (gives the compute and variable dtypes). Defaults to the global
            policy's name.

    Example:

    >>> policy = QuantizedDTypePolicy("int8", "float32")
    >>> policy.name, policy.quantization_mode, policy.compute_dtype
    ('int8_from_float32', 'int8', 'float32')
    """

    def __init__(self, mode, source_name=None):
        if source_name is None:
            source_name = dtype_policy().name
        self._compute_dtype, self._variable_dtype = self._parse_name(
            source_name)
        _check_mode(mode, self._compute_dtype)
        self._name = f"{mode}_from_{source_name}"
        self._source_name = source_name
        self._quantization_mode = mode

    def __eq__(self, other):
        if super().__eq__(other) is False:
            return False
        return (self._quantization_mode == other._quantization_mode and
                self._source_name == other._source_name)

    __hash__ = object.__hash__

    def get_config(self):
        return {"mode": self._quantization_mode,
                "source_name": self._source_name}


@builtin("keras.dtype_policies")
class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """Policy of a layer trained with float8 (FP8) matmuls.

    Args:
        mode: `"float8"`.
        source_name: The source float policy name.
        amax_history_length: Length of the window of recent absolute
            maxima that sets each float8 scale. Defaults to 1024.

    Example:

    >>> QuantizedFloat8DTypePolicy("float8", "float32", 16).get_config()
    {'mode': 'float8', 'source_name': 'float32', 'amax_history_length': 16}
    """

    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode=mode, source_name=source_name)
        if not isinstance(amax_history_length, int):
            raise TypeError(
                "`amax_history_length` must be an integer. "
                f"Received: amax_history_length={amax_history_length}")
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        """Length of the amax window used to compute float8 scales."""
        return self._amax_history_length

    def __eq__(self, other):
        if super().__eq__(other) is False:
            return False
        return self._amax_history_length == other._amax_history_length

    __hash__ = object.__hash__

    def get_config(self):
        config = super().get_config()
        config["amax_history_length"] = self._amax_history_length
        return config


@builtin("keras.dtype_policies")
class Int4DTypePolicy(QuantizedDTypePolicy):
    """Int4 policy that records the sub-channel block size.

    Args:
        mode: `"int4/<block_size>"`; `-1` means per-channel scales, a
            positive size means one scale and zero point per `block_size`
            input rows.
        source_name: The source float policy name.

    Example:

    >>> policy = Int4DTypePolicy("int4/128", "float32")
    >>> policy.name, policy.block_size
    ('int4/128_from_float32', 128)
    """

    def __init__(self, mode, source_name=None):
        (block_size,) = _parse_mode(mode, "int4", "Int4DTypePolicy",
                                    "'int4/<block_size>'", ("<block_size>",))
        if block_size < -1 or block_size == 0:
            raise ValueError(
                "Invalid block_size in mode. Supported values are -1 "
                "(per-channel) or a positive integer (sub-channel), but got "
                f"{block_size} from '{mode}'.")
        super().__init__(mode="int4", source_name=source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.mode = "int4"
        self.block_size = block_size

    def __eq__(self, other):
        if super().__eq__(other) is False:
            return False
        return self.block_size == other.block_size

    __hash__ = object.__hash__

    def get_config(self):
        config = super().get_config()
        config["mode"] = f"int4/{self.block_size}"
        return config


class _BitsGroupPolicy(QuantizedDTypePolicy):
    """`"<mode>/<weight_bits>/<group_size>"` policies (GPTQ, AWQ)."""

    _mode = ""
    _bits = ()

    def __init__(self, mode, source_name=None):
        cls = type(self).__name__
        bits, group_size = _parse_mode(
            mode, self._mode, cls,
            f"'{self._mode}/<weight_bits>/<group_size>'",
            ("<weight_bits> and", "<group_size>"))
        self._check_bits(bits, mode)
        if group_size < -1 or group_size == 0:
            raise ValueError(
                "Invalid group_size in mode. Supported values are -1 "
                f"({self._whole}) or a positive integer, but got "
                f"{group_size} from '{mode}'.")
        super().__init__(mode=self._mode, source_name=source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.mode = self._mode
        self.weight_bits = bits
        self.group_size = group_size

    def __eq__(self, other):
        if super().__eq__(other) is False:
            return False
        return (self.weight_bits == other.weight_bits and
                self.group_size == other.group_size)

    __hash__ = object.__hash__

    def get_config(self):
        config = super().get_config()
        config["mode"] = f"{self.mode}/{self.weight_bits}/{self.group_size}"
        return config


@builtin("keras.dtype_policies")
class GPTQDTypePolicy(_BitsGroupPolicy):
    """Policy of a GPTQ-quantized layer: `"gptq/<bits>/<group_size>"`.

    Args:
        mode: E.g. `"gptq/4/128"`: 2, 3, 4 or 8 weight bits; group size -1
            (whole columns) or positive.
        source_name: The source float policy name.

    Example:

    >>> GPTQDTypePolicy("gptq/4/128", "float32").get_config()
    {'mode': 'gptq/4/128', 'source_name': 'float32'}
    """

    _mode, _whole = "gptq", "whole-tensor"

    def _check_bits(self, bits, mode):
        if bits not in (2, 3, 4, 8):
            raise ValueError(
                "Invalid weight_bits in mode. Supported values are 2, 3, 4, "
                f"and 8, but got {bits} from '{mode}'.")


@builtin("keras.dtype_policies")
class AWQDTypePolicy(_BitsGroupPolicy):
    """Policy of an AWQ-quantized layer: `"awq/4/<group_size>"`.

    Args:
        mode: E.g. `"awq/4/128"` (AWQ supports 4 weight bits only).
        source_name: The source float policy name.

    Example:

    >>> AWQDTypePolicy("awq/4/-1", "float32").group_size
    -1
    """

    _mode, _whole = "awq", "per-channel"

    def _check_bits(self, bits, mode):
        if bits != 4:
            raise ValueError(
                "Invalid weight_bits in mode. AWQ only supports 4-bit "
                f"quantization, but got {bits} from '{mode}'.")


def _check_mode(mode, compute_dtype):
    if mode not in QUANTIZATION_MODES:
        raise ValueError(
            "Invalid quantization mode. Expected one of "
            f"{QUANTIZATION_MODES}. Received: mode={mode}")
    if compute_dtype == "float16" and mode == "int8":
        raise ValueError(
            f"Quantization mode='{mode}' doesn't work well with "
            "compute_dtype='float16'.")


def _parse_mode(mode, base, cls, expected, labels):
    """The integers of `"<base>/<a>[/<b>]"`, with Keras's messages."""
    parts = mode.split("/")
    if len(parts) != len(labels) + 1 or parts[0] != base:
        raise ValueError(
            f"Invalid mode for {cls}. Expected format {expected}, but got "
            f"'{mode}'.")
    try:
        return tuple(int(p) for p in parts[1:])
    except ValueError:
        verb = "must be integers" if len(labels) > 1 else "must be an integer"
        raise ValueError(
            f"Invalid mode for {cls}. {' '.join(labels)} {verb}. Expected "
            f"format {expected}, but got '{mode}'.") from None


def policy_from_name(policy):
    """The quantized policy named `"<mode>_from_<source>"`."""
    if not isinstance(policy, str):
        raise TypeError(
            f"`policy` must be a string. Received: policy={policy}")
    if not policy.startswith(QUANTIZATION_MODES):
        raise ValueError("`policy` is incompatible with the current "
                         "supported quantization.")
    parts = policy.split("_from_")
    if len(parts) != 2:
        raise ValueError(
            "Cannot convert `policy` into a valid pair (`mode`, "
            "`source_name`) to instantiate `QuantizedDTypePolicy`. "
            f"Received: policy={policy}")
    mode, source_name = parts
    if policy.startswith("int4") and "/" in mode:
        return Int4DTypePolicy(mode, source_name)
    if policy.startswith(("int8", "int4")):
        return QuantizedDTypePolicy(mode, source_name)
    if policy.startswith("gptq"):
        return GPTQDTypePolicy(mode, source_name)
    if policy.startswith("awq"):
        return AWQDTypePolicy(mode, source_name)
    return QuantizedFloat8DTypePolicy(mode, source_name)
