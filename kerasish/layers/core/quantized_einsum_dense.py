"""EinsumDense's quantized modes: int8, int4 (packed), float8, GPTQ, AWQ.

Per-channel scales live in the layout of the output (reduced kernel axes
become size-1 axes placed where the output has axes the kernel lacks), as
Keras lays them out, so Keras files load unchanged.
"""
import math

import numpy as np

from kerasish import ops
from kerasish.backend.tensor import Tensor
from kerasish.layers.core.quantized_base import (
    CalibratedKernelMixin, QuantizedLayerMixin, float8_contract,
    float8_variables, parent_scope, read, read_array)
from kerasish.layers.core.quantized_dense import _SPEC
from kerasish.layers.core.quantized_einsum_info import \
    analyze_quantization_info


class EinsumDenseQuantization(QuantizedLayerMixin, CalibratedKernelMixin):
    """`quantize` and the `_<mode>_call` paths of `EinsumDense`."""

    @property
    def variable_serialization_spec(self):
        """Variable names per quantization mode, in saved order."""
        return {mode: list(names) for mode, names in _SPEC.items()}

    def _set_quantization_info(self):
        if hasattr(self, "_input_reduced_axes"):
            return
        info = analyze_quantization_info(self.equation, self.input_spec.ndim)
        for name, value in info.items():
            object.__setattr__(self, f"_{name}", value)

    def _frozen(self, name, shape, dtype=None, initializer="zeros"):
        with parent_scope(self):
            return self.add_weight(name=name, shape=tuple(shape),
                                   initializer=initializer, dtype=dtype,
                                   trainable=False)

    # -- building -------------------------------------------------------------
    def quantized_build(self, kernel_shape, mode, config=None):
        """Create the variables of quantization `mode`."""
        builders = {"int8": self._int8_build, "int4": self._int4_build,
                    "float8": self._float8_build, "gptq": self._gptq_build,
                    "awq": self._awq_build}
        if mode not in builders:
            raise self._quantization_mode_error(mode)
        builders[mode](tuple(kernel_shape), config)
        self._is_quantized = True

    def _int8_build(self, kernel_shape, config=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import AbsMaxQuantizer, QuantizationConfig
        self._set_quantization_info()
        self.inputs_quantizer = \
            QuantizationConfig.activation_quantizer_or_default(
                config, AbsMaxQuantizer())
        self.quantization_axis = tuple(self._input_reduced_axes)
        self._kernel = self._frozen("kernel", kernel_shape, "int8")
        self.kernel_scale = self._frozen(
            "kernel_scale", self._kernel_scale_shape(kernel_shape),
            initializer="ones")

    def _kernel_scale_shape(self, kernel_shape):
        shape = np.array(kernel_shape)
        shape[self._kernel_reduced_axes] = 1
        shape = shape[self._kernel_transpose_axes].tolist()
        for axis in sorted(self._kernel_expand_axes):
            shape.insert(axis, 1)
        for axis in sorted(self._kernel_squeeze_axes, reverse=True):
            shape.pop(axis)
        return tuple(shape)

    def _rows_columns(self, kernel_shape):
        rows = int(np.prod([d for i, d in enumerate(kernel_shape)
                            if i in self._kernel_reduced_axes]))
        columns = int(np.prod([d for i, d in enumerate(kernel_shape)
                               if i not in self._kernel_reduced_axes]))
        return rows, columns

    def _int4_build(self, kernel_shape, config=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantization_config import (
            QuantizationConfig, get_block_size_for_layer)
        self._set_quantization_info()
        self.inputs_quantizer = \
            QuantizationConfig.activation_quantizer_or_default(config, None)
        self.quantization_axis = tuple(self._input_reduced_axes)
        self.original_kernel_shape = kernel_shape
        rows, columns = self._rows_columns(kernel_shape)
        block_size = get_block_size_for_layer(self, config)
        grouped = block_size is not None and block_size != -1
        self._int4_block_size = block_size if grouped else None
        self._int4_unpacked_column_size = columns
        self._int4_rows = rows
        self._kernel = self._frozen("kernel", (rows, (columns + 1) // 2),
                                    "int8")
        shape = ((math.ceil(rows / block_size), columns) if grouped
                 else (columns,))
        self.kernel_scale = self._frozen("kernel_scale", shape,
                                         initializer="ones")
        if grouped:
            self.kernel_zero = self._frozen("kernel_zero", shape, "int8")
            self.g_idx = self._frozen("g_idx", (rows,), "float32")
            self.g_idx.assign(np.floor_divide(
                np.arange(rows, dtype="float32"), block_size))

    def _float8_build(self, kernel_shape=None, config=None):
        float8_variables(self)

    def _calibrated_build(self, kernel_shape, config, mode):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import calibration
        self.original_kernel_shape = kernel_shape
        if len(kernel_shape) == 2:
            rows, columns = kernel_shape
        elif len(kernel_shape) == 3:
            rows, columns = calibration.split_3d(kernel_shape)
        else:
            raise ValueError(f"{mode.upper()} quantization only supports 2D "
                             "or 3D kernels.")
        group_size = calibration.group_size_for_layer(self, config, mode)
        bits = calibration.weight_bits_for_layer(self, config, mode)
        n_groups = 1 if group_size == -1 else math.ceil(rows / group_size)
        setattr(self, f"{mode}_unpacked_column_size", columns)
        self._set_quantization_info()
        self._calibrated = not hasattr(self, "_kernel")
        packed = (columns + 1) // 2 if bits == 4 else columns
        self.quantized_kernel = self._frozen("kernel", (packed, rows),
                                             "uint8")
        self.kernel_scale = self._frozen("kernel_scale",
                                         (columns, n_groups),
                                         initializer="ones")
        self.kernel_zero = self._frozen("zero_point", (columns, n_groups),
                                        "uint8")
        if mode == "awq":
            self.awq_scales = self._frozen("awq_scales", (rows,),
                                           initializer="ones")
        self.g_idx = self._frozen("g_idx", (rows,), "float32")

    # -- scale layouts ---------------------------------------------------------
    def _adjust_scale_for_quant(self, scale, tensor_type="kernel"):
        prefix = "_kernel" if tensor_type == "kernel" else "_input"
        scale = np.asarray(getattr(scale, "_value", scale))
        transpose = getattr(self, f"{prefix}_transpose_axes")
        expand = getattr(self, f"{prefix}_expand_axes")
        squeeze = getattr(self, f"{prefix}_squeeze_axes")
        if transpose:
            scale = np.transpose(scale, transpose)
        if expand:
            scale = np.expand_dims(scale, tuple(expand))
        if squeeze:
            scale = np.squeeze(scale, tuple(squeeze))
        return scale

    def _adjust_scale_for_dequant(self, scale):
        if self._kernel_squeeze_axes:
            scale = np.expand_dims(scale, tuple(self._kernel_squeeze_axes))
        if self._kernel_expand_axes:
            scale = np.squeeze(scale, tuple(self._kernel_expand_axes))
        if self._kernel_transpose_axes:
            order = self._kernel_transpose_axes
            scale = np.transpose(scale, sorted(range(len(order)),
                                               key=order.__getitem__))
        return scale

    # -- the kernel seen by users ---------------------------------------------
    def _quantized_kernel_value(self):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import unpack_int4
        mode = self.quantization_mode
        if mode == "int4":
            kernel = unpack_int4(self._kernel,
                                 self._int4_unpacked_column_size, axis=-1)
            return ops.reshape(kernel, self.original_kernel_shape)
        if mode in ("gptq", "awq") and self._calibrated:
            return self._unpacked_calibrated_kernel()
        return self._kernel

    def _unpacked_calibrated_kernel(self):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import calibration, unpack_int4
        mode = self.quantization_mode
        if calibration.weight_bits_for_layer(self, None, mode) != 4:
            return self.quantized_kernel
        return unpack_int4(self.quantized_kernel,
                           getattr(self, f"{mode}_unpacked_column_size"),
                           axis=0, dtype="uint8")

    # -- calls ----------------------------------------------------------------
    def _finish(self, x):
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def _quantized_einsum(self, inputs, kernel, kernel_scale, dq_scale):
        """`einsum(quantized inputs, kernel) / scales` with Keras's
        gradient (through the dequantized kernel)."""
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantized_ops import quantized_contract
        x_q, out_scale = inputs, kernel_scale
        if self.inputs_quantizer:
            x_q, inputs_scale = self.inputs_quantizer(
                inputs, axis=self.quantization_axis)
            inputs_scale = self._adjust_scale_for_quant(inputs_scale,
                                                        "input")
            out_scale = ops.multiply(inputs_scale, kernel_scale)
        return quantized_contract(
            inputs, x_q, out_scale, kernel, dq_scale,
            dtype=self.compute_dtype, equation=self.equation,
            grad_equation=self._custom_gradient_equation)

    def _int8_call(self, inputs, training=None):
        scale = read_array(self.kernel_scale)
        return self._finish(self._quantized_einsum(
            inputs, self._kernel._value, Tensor(scale),
            self._adjust_scale_for_dequant(scale)))

    def _int4_call(self, inputs, training=None):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.int4_packing import unpack_array
        kernel = unpack_array(self._kernel._value,
                              self._int4_unpacked_column_size, axis=-1)
        dtype = self.compute_dtype
        if self._int4_block_size is None:
            float_kernel = kernel.astype(dtype) / read_array(
                self.kernel_scale)
        else:
            # lazy: kept out of `import kerasish`
            from kerasish.quantizers.zero_point import dequantize_array
            float_kernel = dequantize_array(
                kernel, read_array(self.kernel_scale),
                read_array(self.kernel_zero), read_array(self.g_idx),
                group_axis=0).astype(dtype)
        float_kernel = float_kernel.reshape(self.original_kernel_shape)
        if self._int4_block_size is None and self.inputs_quantizer:
            ones = np.ones((), float_kernel.dtype)
            return self._finish(self._quantized_einsum(
                inputs, float_kernel, Tensor(ones), ones))
        return self._finish(ops.einsum(self.equation, inputs,
                                       Tensor(float_kernel)))

    def _float8_call(self, inputs, training=None):
        def contract(x, kernel):
            return ops.einsum(self.equation, x, kernel)
        return self.activation(float8_contract(self, inputs, contract,
                                               training))

    def _calibrated_kernel(self):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.zero_point import dequantize_array
        values = np.asarray(self._unpacked_calibrated_kernel()._value)
        kernel = dequantize_array(values, read_array(self.kernel_scale),
                                  read_array(self.kernel_zero),
                                  read_array(self.g_idx)).T
        if self.quantization_mode == "awq":
            kernel = kernel / read_array(self.awq_scales)[:, None]
        return Tensor(np.ascontiguousarray(kernel).reshape(
            self.original_kernel_shape))

    def _gptq_call(self, inputs, training=False):
        kernel = self._calibrated_kernel() if self._calibrated else \
            self._kernel
        return self._finish(ops.einsum(self.equation, inputs, kernel))

    _awq_call = _gptq_call

    # -- quantize -------------------------------------------------------------
    def quantize(self, mode=None, type_check=True, config=None):
        """Replace the float kernel by its quantized form.

        Args:
            mode: `"int8"`, `"int4"`, `"float8"`, `"gptq"` or `"awq"`.
            type_check: Refuse subclasses (their calls may differ).
            config: A `QuantizationConfig`.
        """
        # lazy: a top-level import would close an import circle
        from kerasish.layers.core.einsum_dense import EinsumDense
        if type_check:
            self._check_quantizable(EinsumDense)
        self.quantization_config = config
        kernel_shape = tuple(self._kernel.shape)
        if mode in ("int8", "int4", "gptq", "awq"):
            self._set_quantization_info()
        if mode == "int8":
            values, scale, zero = self._int8_values(config)
        elif mode == "int4":
            values, scale, zero = self._int4_values(kernel_shape, config)
        elif mode not in ("float8", "gptq", "awq"):
            raise self._quantization_mode_error(mode)
        if mode in ("int8", "int4"):
            del self._kernel
        self.quantized_build(kernel_shape, mode, config)
        if mode in ("int8", "int4"):
            self._kernel.assign(values)
            self.kernel_scale.assign(scale)
            if zero is not None:
                self.kernel_zero.assign(zero)
        self._set_quantized_policy(mode, config)

    def _int8_values(self, config):
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers import AbsMaxQuantizer, QuantizationConfig
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, AbsMaxQuantizer(axis=self._kernel_reduced_axes))
        values, scale = quantizer(self._kernel, to_numpy=True)
        return values, self._adjust_scale_for_quant(scale, "kernel"), None

    def _int4_values(self, kernel_shape, config):
        from kerasish import quantizers  # lazy: kept out of `import kerasish`
        block_size = getattr(config, "block_size", None)
        rows, columns = self._rows_columns(kernel_shape)
        flat = self._kernel._value.reshape(rows, columns)
        zero = None
        if block_size is None or block_size == -1:
            values, scale = quantizers.abs_max_quantize(
                flat, axis=0, value_range=(-8, 7), dtype="int8",
                to_numpy=True)
            scale = np.squeeze(scale._value, axis=0)
        else:
            values, scale, zero = \
                quantizers.abs_max_quantize_grouped_with_zero_point(
                    flat, block_size=block_size, to_numpy=True)
        return quantizers.pack_int4(values, axis=-1)[0], scale, zero
