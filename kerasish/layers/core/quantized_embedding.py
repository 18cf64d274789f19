"""Embedding's quantized modes: int8 and int4 (packed), as Keras 3.15.

Scales are per row (vocabulary entry): rows are what a lookup reads, and
usually outnumber the output dimension.
"""
import math

import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.layers.core.quantized_base import (QuantizedLayerMixin,
                                                 parent_scope, read_array)

_SPEC = {None: ["embeddings"],
         "int8": ["embeddings", "embeddings_scale"],
         "int4": ["embeddings", "embeddings_scale", "embeddings_zero",
                  "g_idx"]}


class EmbeddingQuantization(QuantizedLayerMixin):
    """`quantize` and the `_<mode>_call` paths of `Embedding`."""

    _quantized_weight = "embeddings"

    @property
    def variable_serialization_spec(self):
        """Variable names per quantization mode, in saved order."""
        return {mode: list(names) for mode, names in _SPEC.items()}

    def _quantization_mode_error(self, mode):
        return NotImplementedError(
            "Invalid quantization mode. Expected one of ('int8', 'int4'). "
            f"Received: quantization_mode={mode}")

    def _frozen(self, name, shape, dtype=None, initializer="zeros"):
        with parent_scope(self):
            return self.add_weight(name=name, shape=shape,
                                   initializer=initializer, dtype=dtype,
                                   trainable=False)

    def quantized_build(self, embeddings_shape, mode, config=None):
        """Create the variables of quantization `mode`."""
        if mode == "int8":
            self._int8_build(embeddings_shape, config)
        elif mode == "int4":
            self._int4_build(embeddings_shape, config)
        else:
            raise self._quantization_mode_error(mode)
        self._is_quantized = True

    def _int8_build(self, embeddings_shape, config=None):
        self._embeddings = self._frozen("embeddings", embeddings_shape,
                                        "int8")
        self.embeddings_scale = self._frozen(
            "embeddings_scale", (self.input_dim,), initializer="ones")

    def _int4_build(self, embeddings_shape, config=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantization_config import \
            get_block_size_for_layer
        input_dim, output_dim = embeddings_shape
        self._embeddings = self._frozen(
            "embeddings", (input_dim, (output_dim + 1) // 2), "int8")
        block_size = get_block_size_for_layer(self, config)
        self._int4_block_size = block_size
        grouped = block_size is not None and block_size > 0
        shape = ((input_dim, math.ceil(output_dim / block_size)) if grouped
                 else (input_dim,))
        self.embeddings_scale = self._frozen("embeddings_scale", shape,
                                             initializer="ones")
        if grouped:
            self.embeddings_zero = self._frozen("embeddings_zero", shape,
                                                "int8")
            self.g_idx = self._frozen("g_idx", (output_dim,), "float32")
            self.g_idx.assign(np.floor_divide(
                np.arange(output_dim, dtype="float32"), block_size))
        self._orig_output_dim = output_dim

    def _quantized_embeddings_value(self):
        if self.quantization_mode == "int4":
            # lazy: kept out of `import kerasish`
            from kerasish.quantizers import unpack_int4
            return unpack_int4(self._embeddings, self._orig_output_dim,
                               axis=-1)
        return self._embeddings

    def _ids(self, inputs):
        # lazy: a top-level import would close an import circle
        from kerasish.layers.core.embedding import _checked_ids
        return _checked_ids(inputs, input_dim=self.input_dim,
                            name=self.name)._value

    def _int8_call(self, inputs, training=None):
        ids = self._ids(inputs)
        scale = np.take(read_array(self.embeddings_scale), ids, axis=0)
        values = np.take(self._embeddings._value, ids, axis=0)
        dtype = self.compute_dtype
        return Tensor(np.divide(values.astype(dtype), scale[..., None]))

    def _int4_call(self, inputs, training=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.int4_packing import unpack_array
        ids = self._ids(inputs)
        dtype = self.compute_dtype
        table = unpack_array(self._embeddings._value, self._orig_output_dim,
                             axis=-1)
        values = np.take(table, ids, axis=0).astype(dtype)
        scale = np.take(read_array(self.embeddings_scale), ids, axis=0)
        if self._int4_block_size is None or self._int4_block_size == -1:
            return Tensor(np.divide(values, scale[..., None]))
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.zero_point import dequantize_array
        zero = np.take(read_array(self.embeddings_zero), ids, axis=0)
        return Tensor(dequantize_array(values, scale, zero,
                                       read_array(self.g_idx), -1))

    def quantize(self, mode=None, type_check=True, config=None):
        """Replace the float table by its quantized form.

        Args:
            mode: `"int8"` or `"int4"`.
            type_check: Refuse subclasses (their calls may differ).
            config: A `QuantizationConfig`.
        """
        # lazy: a top-level import would close an import circle
        from kerasish.layers.core.embedding import Embedding
        if type_check:
            self._check_quantizable(Embedding)
        self.quantization_config = config
        shape = (self.input_dim, self.output_dim)
        if mode == "int8":
            values, scale, zero = self._int8_values(config)
        elif mode == "int4":
            values, scale, zero = self._int4_values(config)
        else:
            raise self._quantization_mode_error(mode)
        del self._embeddings
        self.quantized_build(shape, mode, config)
        self._embeddings.assign(values)
        self.embeddings_scale.assign(scale)
        if zero is not None:
            self.embeddings_zero.assign(zero)
        self._set_quantized_policy(mode, config)

    def _int8_values(self, config):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import AbsMaxQuantizer, QuantizationConfig
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, AbsMaxQuantizer(axis=-1))
        values, scale = quantizer(self._embeddings, to_numpy=True)
        return values, np.squeeze(scale._value, axis=-1), None

    def _int4_values(self, config):
        from kerasish import quantizers  # lazy: kept out of `import kerasish`
        block_size = getattr(config, "block_size", None)
        zero = None
        if block_size is None or block_size == -1:
            quantizer = quantizers.QuantizationConfig \
                .weight_quantizer_or_default(
                    config, quantizers.AbsMaxQuantizer(
                        axis=-1, value_range=(-8, 7), output_dtype="int8"))
            values, scale = quantizer(self._embeddings, to_numpy=True)
            scale = np.squeeze(scale._value, axis=-1)
        else:
            # Groups run along the output axis: quantize the transpose.
            values, scale, zero = \
                quantizers.abs_max_quantize_grouped_with_zero_point(
                    self._embeddings._value.T, block_size=block_size,
                    value_range=(-8, 7), dtype="int8", to_numpy=True)
            values = values._value.T
            scale, zero = scale._value.T, zero._value.T
        return quantizers.pack_int4(np.ascontiguousarray(values),
                                    axis=-1)[0], scale, zero
