"""`Dense`: `activation(inputs @ kernel + bias)`."""
from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend.linalg import affine
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.core.lora import LoraMixin
from kerasish.layers.core.quantized_dense import DenseQuantization
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object


@builtin("keras.layers")
class Dense(LoraMixin, DenseQuantization, Layer):
    """Densely-connected layer: `activation(inputs @ kernel + bias)`.

    The kernel has shape `(input_dim, units)`; inputs of rank > 2 are
    contracted on their last axis.

    Args:
        units: Positive int, size of the last output axis.
        activation: Name or callable; `None` means linear.
        use_bias: Whether to add a bias vector. Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, bias_regularizer: Optional regularizers.
        activity_regularizer: Optional regularizer of the output.
        kernel_constraint, bias_constraint: Optional constraints.
        lora_rank: Optional int: build with LoRA of this rank
            (`enable_lora`): the kernel is frozen and a low-rank update
            of it is trained.
        lora_alpha: Optional scale of the LoRA update (`lora_alpha /
            lora_rank`). As in Keras, a `Dense` built with `lora_rank`
            uses `lora_alpha = lora_rank`; pass `lora_alpha` to
            `enable_lora` to change it.
        quantization_config: Optional `kerasish.quantizers`
            `QuantizationConfig` of a quantized layer (set by `quantize`;
            read back from configs).

    `quantize("int8" | "int4" | "float8" | "gptq" | "awq")` replaces the
    float kernel by Keras's quantized variables (`kernel` then reads the
    int8 values, or the unpacked int4 ones).

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.Dense(3)
    >>> layer(np.ones((2, 4), "float32")).shape
    (2, 3)
    >>> [w.shape for w in layer.weights]
    [(4, 3), (3,)]
    """

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None,
                 lora_rank=None, lora_alpha=None, quantization_config=None,
                 **kwargs):
        if not isinstance(units, int) or isinstance(units, bool) or \
                units <= 0:
            raise ValueError(
                "Received an invalid value for `units`, expected a positive "
                f"integer. Received: units={units}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.quantization_config = quantization_config
        self._init_lora(lora_rank, lora_alpha)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"Layer '{self.name}' (Dense) needs a known last input "
                f"dimension. Received input shape {tuple(input_shape)}")
        kernel_shape = (input_dim, self.units)
        mode = self.quantization_mode
        if mode:
            self.quantized_build(kernel_shape, mode,
                                 self.quantization_config)
        if mode not in ("int8", "int4", "gptq", "awq"):
            self._kernel = self.add_weight(
                name="kernel", shape=kernel_shape,
                initializer=self.kernel_initializer,
                regularizer=self.kernel_regularizer,
                constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.units,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True
        if self.lora_rank:
            # Keras's Dense drops `lora_alpha` here (alpha = rank).
            self.enable_lora(self.lora_rank)

    @property
    def kernel(self):
        """The kernel variable (its quantized values once quantized)."""
        if not self.built:
            raise AttributeError(
                "You must build the layer before accessing `kernel`.")
        if self.quantization_mode is not None:
            return self._quantized_kernel_value()
        if self.lora_enabled:
            return self._merged_lora(self._kernel)
        return self._kernel

    def call(self, inputs, training=None):
        kernel = self.kernel
        if self.bias is not None and inputs.dtype == kernel.dtype:
            relu = self.activation is activations.relu
            x = affine(inputs, kernel, self.bias, relu=relu)
            return x if relu else self.activation(x)
        x = ops.matmul(inputs, kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer":
                initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer":
                regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint":
                constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "quantization_config": serialize_keras_object(
                self.quantization_config),
        })
        return self._lora_config(config)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("quantization_config") is not None:
            # lazy: kept out of `import kerasish`
            from kerasish import quantizers
            config["quantization_config"] = quantizers.deserialize(
                config["quantization_config"])
        return super().from_config(config)
