"""Keras's layer quantization protocol, mixed into `Layer`.

A layer that supports quantization implements `quantize(mode,
type_check=True, config=None)` (replacing its float weights) and one
`_<mode>_call` per mode; `Layer.__call__` runs `quantized_call` instead of
`call` while the layer's dtype policy names a quantization mode. Layers
that do not support a mode raise `NotImplementedError`, which
`Model.quantize` turns into a warning, as Keras does.
"""
import functools
from kerasish.engine.dtype_policy import QUANTIZATION_MODES


class QuantizationHooks:
    """Quantization entry points shared by every layer."""

    @property
    def quantization_mode(self):
        """The quantization mode of this layer, `None` if not quantized."""
        return self._own_policy().quantization_mode

    def quantized_build(self, input_shape, mode):
        """Create the quantized variables of `mode` (quantizable layers)."""
        raise self._not_implemented_error(self.quantized_build)

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantize the layer's weights in place (quantizable layers)."""
        raise self._not_implemented_error(self.quantize)

    def quantized_call(self, *args, **kwargs):
        """Run the `_<mode>_call` of the layer's quantization mode."""
        mode = self.quantization_mode
        if mode not in QUANTIZATION_MODES:
            raise self._quantization_mode_error(mode)
        method = getattr(self, f"_{mode}_call", None)
        if method is None:
            raise NotImplementedError(
                f"Layer {type(self).__name__} does not have a "
                f"`_{mode}_call` method implemented.")
        return method(*args, **kwargs)

    def _check_quantize_args(self, mode, compute_dtype):
        if not self.built:
            raise ValueError(
                "Cannot quantize a layer that isn't yet built. Layer "
                f"'{self.name}' (of type '{type(self).__name__}') is not "
                "built yet.")
        if getattr(self, "_is_quantized", False):
            raise ValueError(
                f"Layer '{self.name}' is already quantized with "
                f"dtype_policy='{self.dtype_policy.name}'. "
                f"Received: mode={mode}")
        if getattr(self, "lora_enabled", False):
            raise ValueError(
                f"Layer '{self.name}' has LoRA enabled; kerasish quantizes "
                "float layers only: load its saved weights (they hold the "
                "merged kernel) into a model without LoRA and quantize "
                "that. "
                f"Received: mode={mode}")
        if mode not in QUANTIZATION_MODES:
            raise ValueError(
                "Invalid quantization mode. Expected one of "
                f"{QUANTIZATION_MODES}. Received: mode={mode}")
        if mode == "int8" and compute_dtype == "float16":
            raise ValueError(
                f"Quantization mode='{mode}' doesn't work well with "
                "compute_dtype='float16'. Consider loading model/layer with "
                "another dtype policy such as 'mixed_bfloat16' or "
                "'mixed_float16' before calling `quantize()`.")

    def _not_implemented_error(self, attr, msg=None):
        if callable(attr):
            name, kind = attr.__name__, "method"
        else:
            name, kind = str(attr), "attribute"
        msg = f" {msg}" if msg is not None else ""
        return NotImplementedError(
            f"Layer {type(self).__name__} does not have a `{name}` {kind} "
            f"implemented.{msg}")

    def _quantization_mode_error(self, mode):
        return NotImplementedError(
            f"Invalid quantization mode. Expected one of "
            f"{QUANTIZATION_MODES}. Received: quantization_mode={mode}")


def wrap_quantize(layer):
    """Validate `quantize`'s arguments (and resolve its config) first.

    Only layers whose class defines `quantize` get the wrapper, so other
    layers pay nothing.
    """
    # lazy: a top-level import would close an import circle
    from kerasish.engine.layer import Layer
    method = type(layer).quantize
    if method is Layer.quantize or getattr(method, "_passes_config", False):
        return
    original = layer.quantize

    @functools.wraps(original)
    def quantize(mode=None, config=None, **kwargs):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantization_config import \
            validate_and_resolve_config
        config = validate_and_resolve_config(mode, config)
        layer._check_quantize_args(config.mode, layer.compute_dtype)
        return original(mode=config.mode, config=config, **kwargs)
    object.__setattr__(layer, "quantize", quantize)
