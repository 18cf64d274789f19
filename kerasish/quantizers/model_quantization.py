"""`Model.quantize`: quantize every leaf layer that supports it."""
import warnings

from kerasish.quantizers.utils import should_quantize_layer
from kerasish.quantizers.gptq import gptq_quantize
from kerasish.quantizers.awq import awq_quantize


def quantize_model(model, mode=None, config=None, filters=None, **kwargs):
    """Quantize `model`'s layers in place (see `Model.quantize`)."""
    type_check = kwargs.pop("type_check", True)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments passed to "
                         f"{type(model).__name__}: {kwargs}")
    if filters is not None and not (isinstance(filters, (str, list, tuple))
                                    or callable(filters)):
        raise ValueError(
            "The `filters` argument must be a regex string, a list of regex "
            f"strings, or a callable. Received: {type(filters)}")
    for layer in model._flatten_layers():
        if not should_quantize_layer(layer, filters) or \
                len(layer._flatten_layers()) != 1:
            continue
        try:
            layer.quantize(mode, type_check=type_check, config=config)
        except NotImplementedError as e:
            # Layers without quantized variants are left as they are.
            warnings.warn(str(e), stacklevel=3)
        except AttributeError:
            pass
    if mode is None and config is not None and not isinstance(config, str):
        mode = config.mode
    if mode in ("gptq", "awq"):
        _calibrate(model, mode, config, filters)


def _calibrate(model, mode, config, filters):
    structure = config.quantization_layer_structure
    if structure is None:
        structure = model.get_quantization_layer_structure(mode)
    if structure is None:
        raise ValueError(
            f"For mode='{mode}', a valid quantization structure must be "
            "provided either via `config.quantization_layer_structure` or "
            "by overriding `model.get_quantization_layer_structure(mode)`. "
            "The structure should be a dictionary with keys "
            "'pre_block_layers' and 'sequential_blocks'.")
    if mode == "gptq":
        gptq_quantize(config, structure, filters=filters)
    else:
        awq_quantize(config, structure, filters=filters)
