"""What Dense, EinsumDense and Embedding share once quantized.

* the order of variables in weights files (`variable_serialization_spec`,
  Keras's per-mode lists), so quantized files load across Keras and
  kerasish;
* the quantized dtype policy a layer takes after `quantize`;
* reading a variable as the layer's computation sees it (autocast).
"""
import contextlib

from kerasish import ops
from kerasish.backend.common import naming


class QuantizedLayerMixin:
    """Shared quantization plumbing (the layer classes define the modes)."""

    # The float weight replaced by quantization ("kernel", "embeddings").
    _quantized_weight = "kernel"

    def _serialized_variables(self):
        """Own variables in Keras's saved order for the current mode."""
        mode = self.quantization_mode
        spec = self.variable_serialization_spec
        if mode not in spec:
            raise self._quantization_mode_error(mode)
        out = []
        for name in spec[mode]:
            attr = f"_{name}" if name == self._quantized_weight else name
            variable = getattr(self, attr, None)
            if variable is not None:
                out.append(variable)
        return out

    def _set_quantized_policy(self, mode, config):
        """`<mode>_from_<policy>`, unless the policy is already quantized."""
        if self.dtype_policy.quantization_mode is not None:
            return
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.quantization_config import \
            get_block_size_for_layer
        name = mode
        if mode in ("gptq", "awq"):
            name = config.dtype_policy_string()
        elif mode == "int4":
            block_size = get_block_size_for_layer(self, config)
            name = f"int4/{-1 if block_size is None else block_size}"
        self.dtype_policy = f"{name}_from_{self.dtype_policy.name}"

    def _check_quantizable(self, cls):
        if type(self) is not cls:
            # Subclasses may compute differently: Keras refuses them.
            raise self._not_implemented_error(self.quantize)


class CalibratedKernelMixin:
    """GPTQ/AWQ modes of a layer with a 2-D-like kernel (Dense,
    EinsumDense): `_calibrated_build(kernel_shape, config, mode)` is the
    layer's; these entry points and flags are shared."""

    def _gptq_build(self, kernel_shape, config=None):
        self._calibrated_build(kernel_shape, config, "gptq")

    def _awq_build(self, kernel_shape, config=None):
        self._calibrated_build(kernel_shape, config, "awq")

    @property
    def is_gptq_calibrated(self):
        """Whether GPTQ has replaced the float kernel (GPTQ mode)."""
        return self.quantization_mode == "gptq" and self._calibrated

    @property
    def is_awq_calibrated(self):
        """Whether AWQ has replaced the float kernel (AWQ mode)."""
        return self.quantization_mode == "awq" and self._calibrated


@contextlib.contextmanager
def parent_scope(layer):
    """The name scopes around `layer` when it was built, so variables made
    later (by `quantize`) get the same paths (`"model/dense/kernel"`)."""
    path = layer.path or ""
    if naming.current_path() == path:
        # Inside the layer's own build (a quantized layer loaded from a
        # config): the add_weight scope already gives the path.
        parents = []
    else:
        parents = path.split("/")[:-1]
    with contextlib.ExitStack() as stack:
        for name in parents:
            stack.enter_context(naming.name_scope(name))
        yield


def read(variable):
    """A variable as the layer computes with it (cast under autocast)."""
    return ops.convert_to_tensor(variable)


def read_array(variable):
    """`read(variable)` as a numpy array."""
    return read(variable)._value


def float8_variables(layer):
    """Create the six float8 scale/amax variables, Keras's names/order."""
    # lazy: kept out of `import kerasish`
    from kerasish.dtype_policies import QuantizedFloat8DTypePolicy
    length = getattr(layer.dtype_policy, "amax_history_length",
                     QuantizedFloat8DTypePolicy.default_amax_history_length)
    with parent_scope(layer):
        _add_float8_variables(layer, length)


def _add_float8_variables(layer, length):
    for prefix in ("inputs", "kernel", "outputs_grad"):
        # Trainable so their "gradients" (the next values) reach them.
        setattr(layer, f"{prefix}_scale", layer.add_weight(
            name=f"{prefix}_scale", shape=(), initializer="ones",
            dtype="float32", trainable=True, autocast=False,
            overwrite_with_gradient=True))
        setattr(layer, f"{prefix}_amax_history", layer.add_weight(
            name=f"{prefix}_amax_history", shape=(length,),
            initializer="zeros", dtype="float32", trainable=True,
            autocast=False, overwrite_with_gradient=True))


def float8_contract(layer, inputs, contract, training):
    """`contract(qdq(inputs), qdq(kernel))` with the float8 round trips."""
    # lazy: kept out of `import kerasish`
    from kerasish.quantizers.quantized_ops import (float8_grad_qdq,
                                                   float8_qdq)
    dtype = layer.compute_dtype
    x = float8_qdq(inputs, layer.inputs_scale, layer.inputs_amax_history,
                   training=bool(training), compute_dtype=dtype)
    kernel = float8_qdq(read(layer._kernel), layer.kernel_scale,
                        layer.kernel_amax_history, training=bool(training),
                        compute_dtype=dtype)
    y = contract(x, kernel)
    y = float8_grad_qdq(y, layer.outputs_grad_scale,
                        layer.outputs_grad_amax_history, compute_dtype=dtype)
    if layer.bias is not None:
        bias = read(layer.bias)
        if dtype == "float32":
            # Keras rounds a float32 bias through bfloat16 here (for XLA's
            # fused bias add); the numbers follow it.
            # lazy: kept out of `import kerasish`
            from kerasish.quantizers.quantized_ops import bfloat16_round
            bias = bfloat16_round(bias)
        y = ops.add(y, bias)
    return y
