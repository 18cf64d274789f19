"""Dense's quantized modes: int8, int4 (packed), float8, GPTQ and AWQ.

Weights are named, shaped and ordered as Keras 3.15 keeps them, so the
`.keras` / `.weights.h5` files of quantized models load both ways.
"""
import math

import numpy as np

from kerasish import ops
from kerasish.backend.tensor import Tensor
from kerasish.layers.core.quantized_base import (
    CalibratedKernelMixin, QuantizedLayerMixin, float8_contract,
    float8_variables, parent_scope, read, read_array)

_SPEC = {
    None: ["kernel", "bias"],
    "int8": ["kernel", "bias", "kernel_scale"],
    "int4": ["kernel", "bias", "kernel_scale", "kernel_zero", "g_idx"],
    "float8": ["kernel", "bias", "inputs_scale", "inputs_amax_history",
               "kernel_scale", "kernel_amax_history", "outputs_grad_scale",
               "outputs_grad_amax_history"],
    "gptq": ["bias", "quantized_kernel", "kernel_scale", "kernel_zero",
             "g_idx"],
    "awq": ["bias", "quantized_kernel", "kernel_scale", "kernel_zero",
            "awq_scales", "g_idx"],
}


class DenseQuantization(QuantizedLayerMixin, CalibratedKernelMixin):
    """`quantize` and the `_<mode>_call` paths of `Dense`."""

    @property
    def variable_serialization_spec(self):
        """Variable names per quantization mode, in saved order."""
        return {mode: list(names) for mode, names in _SPEC.items()}

    # -- building ---------------------------------------------------------
    def quantized_build(self, kernel_shape, mode, config=None):
        """Create the variables of quantization `mode`."""
        builders = {"int8": self._int8_build, "int4": self._int4_build,
                    "float8": self._float8_build, "gptq": self._gptq_build,
                    "awq": self._awq_build}
        if mode not in builders:
            raise self._quantization_mode_error(mode)
        builders[mode](tuple(kernel_shape), config)
        self._is_quantized = True

    def _frozen(self, name, shape, dtype=None, initializer="zeros"):
        with parent_scope(self):
            return self.add_weight(name=name, shape=shape,
                                   initializer=initializer, dtype=dtype,
                                   trainable=False)

    def _int8_build(self, kernel_shape, config=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import (AbsMaxQuantizer,
                                         QuantizationConfig)
        self.inputs_quantizer = \
            QuantizationConfig.activation_quantizer_or_default(
                config, AbsMaxQuantizer())
        self._kernel = self._frozen("kernel", kernel_shape, "int8")
        self.kernel_scale = self._frozen("kernel_scale", (self.units,),
                                         initializer="ones")

    def _int4_build(self, kernel_shape, config=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantization_config import (
            QuantizationConfig, get_block_size_for_layer)
        self.inputs_quantizer = \
            QuantizationConfig.activation_quantizer_or_default(config, None)
        input_dim, output_dim = kernel_shape
        # Packed along the output axis: [input_dim, ceil(units / 2)].
        self._kernel = self._frozen("kernel",
                                    (input_dim, (output_dim + 1) // 2),
                                    "int8")
        block_size = get_block_size_for_layer(self, config)
        self._int4_block_size = block_size
        grouped = block_size is not None and block_size > 0
        shape = ((math.ceil(input_dim / block_size), self.units) if grouped
                 else (self.units,))
        self.kernel_scale = self._frozen("kernel_scale", shape,
                                         initializer="ones")
        if grouped:
            self.kernel_zero = self._frozen("kernel_zero", shape, "int8")
            self.g_idx = self._frozen("g_idx", (input_dim,), "float32")
            self.g_idx.assign(np.floor_divide(
                np.arange(input_dim, dtype="float32"), block_size))
        self._orig_input_dim, self._orig_output_dim = input_dim, output_dim

    def _float8_build(self, kernel_shape=None, config=None):
        float8_variables(self)

    def _calibrated_build(self, kernel_shape, config, mode):
        """GPTQ/AWQ variables: transposed, optionally packed uint8 kernel."""
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import calibration
        bits = calibration.weight_bits_for_layer(self, config, mode)
        group_size = calibration.group_size_for_layer(self, config, mode)
        rows, columns = kernel_shape
        n_groups = 1 if group_size == -1 else math.ceil(rows / group_size)
        packed = (columns + 1) // 2 if bits == 4 else columns
        # Before calibration the layer still computes with the float kernel.
        self._calibrated = not hasattr(self, "_kernel")
        self.kernel_shape = kernel_shape
        self.quantized_kernel = self._frozen("kernel", (packed, rows),
                                             "uint8")
        self.kernel_scale = self._frozen("kernel_scale",
                                         (columns, n_groups),
                                         initializer="ones")
        self.kernel_zero = self._frozen("kernel_zero", (columns, n_groups),
                                        "uint8")
        if mode == "awq":
            self.awq_scales = self._frozen("awq_scales", (rows,),
                                           initializer="ones")
        self.g_idx = self._frozen("g_idx", (rows,), "float32")

    # -- the kernel seen by users ---------------------------------------------
    def _quantized_kernel_value(self):
        mode = self.quantization_mode
        if mode == "int4":
            # lazy: kept out of `import kerasish`
            from kerasish.quantizers import unpack_int4
            return unpack_int4(self._kernel, self._orig_output_dim, axis=-1)
        if mode in ("gptq", "awq") and self._calibrated:
            return self._unpacked_calibrated_kernel()
        return self._kernel

    def _unpacked_calibrated_kernel(self):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import calibration, unpack_int4
        bits = calibration.weight_bits_for_layer(self, None,
                                                 self.quantization_mode)
        if bits != 4:
            return self.quantized_kernel
        return unpack_int4(self.quantized_kernel, self.units, axis=0,
                           dtype="uint8")

    # -- calls ----------------------------------------------------------------
    def _finish(self, x):
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def _int_matmul(self, inputs, kernel):
        """`inputs @ kernel / scales`, with the inputs quantized if set."""
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantized_ops import quantized_contract
        scale = read(self.kernel_scale)
        x_q, out_scale = inputs, scale
        if self.inputs_quantizer:
            x_q, inputs_scale = self.inputs_quantizer(inputs, axis=-1)
            out_scale = ops.multiply(scale, inputs_scale)
        return quantized_contract(inputs, x_q, out_scale, kernel, scale,
                                  dtype=self.compute_dtype)

    def _int8_call(self, inputs, training=None):
        return self._finish(self._int_matmul(inputs, self._kernel._value))

    def _int4_call(self, inputs, training=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.int4_packing import unpack_array
        kernel = unpack_array(self._kernel._value, self._orig_output_dim,
                              axis=-1)
        if self._int4_block_size is None or self._int4_block_size == -1:
            return self._finish(self._int_matmul(inputs, kernel))
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.zero_point import dequantize_array
        float_kernel = dequantize_array(
            kernel, read_array(self.kernel_scale),
            read_array(self.kernel_zero), read_array(self.g_idx),
            group_axis=0).astype(self.compute_dtype)
        return self._finish(ops.matmul(inputs, Tensor(float_kernel)))

    def _float8_call(self, inputs, training=None):
        return self.activation(float8_contract(self, inputs, ops.matmul,
                                               training))

    def _calibrated_kernel(self):
        """The dequantized `[input_dim, units]` GPTQ/AWQ kernel."""
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.zero_point import dequantize_array
        values = self._unpacked_calibrated_kernel()
        kernel = dequantize_array(
            np.asarray(values._value), read_array(self.kernel_scale),
            read_array(self.kernel_zero), read_array(self.g_idx)).T
        if self.quantization_mode == "awq":
            kernel = kernel / read_array(self.awq_scales)[:, None]
        return Tensor(np.ascontiguousarray(kernel))

    def _gptq_call(self, inputs, training=False):
        kernel = self._calibrated_kernel() if self._calibrated else \
            self._kernel
        return self._finish(ops.matmul(inputs, kernel))

    _awq_call = _gptq_call

    # -- quantize -------------------------------------------------------------
    def quantize(self, mode=None, type_check=True, config=None):
        """Replace the float kernel by its quantized form.

        Args:
            mode: `"int8"`, `"int4"`, `"float8"`, `"gptq"` or `"awq"`.
            type_check: Refuse subclasses (their calls may differ).
            config: A `QuantizationConfig` (resolved from `mode` when
                called through `Layer`'s checks).
        """
        # lazy: a top-level import would close an import circle
        from kerasish.layers.core.dense import Dense
        if type_check:
            self._check_quantizable(Dense)
        self.quantization_config = config
        kernel_shape = tuple(self._kernel.shape)
        if mode == "int8":
            self._quantize_int8(kernel_shape, config)
        elif mode == "int4":
            self._quantize_int4(kernel_shape, config)
        elif mode in ("gptq", "awq", "float8"):
            self.quantized_build(kernel_shape, mode, config)
        else:
            raise self._quantization_mode_error(mode)
        self._set_quantized_policy(mode, config)

    def _quantize_int8(self, kernel_shape, config):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import AbsMaxQuantizer, QuantizationConfig
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, AbsMaxQuantizer(axis=0))
        values, scale = quantizer(self._kernel, to_numpy=True)
        del self._kernel
        self.quantized_build(kernel_shape, "int8", config)
        self._kernel.assign(values)
        self.kernel_scale.assign(np.squeeze(scale._value, axis=0))

    def _quantize_int4(self, kernel_shape, config):
        from kerasish import quantizers  # lazy: kept out of `import kerasish`
        block_size = getattr(config, "block_size", None)
        zero = None
        if block_size is None or block_size == -1:
            quantizer = quantizers.QuantizationConfig \
                .weight_quantizer_or_default(
                    config, quantizers.AbsMaxQuantizer(
                        axis=0, value_range=(-8, 7), output_dtype="int8"))
            values, scale = quantizer(self._kernel, to_numpy=True)
            scale = np.squeeze(scale._value, axis=0)
        else:
            values, scale, zero = \
                quantizers.abs_max_quantize_grouped_with_zero_point(
                    self._kernel, block_size=block_size, to_numpy=True)
        packed, _, _ = quantizers.pack_int4(values, axis=-1)
        del self._kernel
        self.quantized_build(kernel_shape, "int4", config)
        self._kernel.assign(packed)
        self.kernel_scale.assign(scale)
        if zero is not None:
            self.kernel_zero.assign(zero)
