"""`BaseSeparableConv`: shared body of SeparableConv1D and SeparableConv2D.

A depthwise convolution (`depthwise_kernel`, `(*kernel_size, in,
depth_multiplier)`) followed by a pointwise one (`pointwise_kernel`,
`(*ones, in * depth_multiplier, filters)`), then the bias `(filters,)` and
the activation. The pointwise step, bias and ReLU share one fused
primitive.
"""
from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.convolutional.base_conv import (
    check_input, conv_output_shape,
    layer_geometry, positive_int, run_conv, spatial_args)
from kerasish.ops.conv import standardize_padding


class BaseSeparableConv(Layer):
    """Abstract separable convolution; see `SeparableConv2D`."""

    def __init__(self, rank, depth_multiplier, filters, kernel_size,
                 strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls = type(self)
        self.rank = rank
        self.depth_multiplier = positive_int(cls, "depth_multiplier",
                                             depth_multiplier)
        self.filters = positive_int(cls, "filters", filters)
        self.kernel_size, self.strides, self.dilation_rate = spatial_args(
            cls, rank, kernel_size=kernel_size, strides=strides,
            dilation_rate=dilation_rate)
        try:
            self.padding = standardize_padding(padding)
        except ValueError as e:
            raise ValueError(f"{cls.__name__}: {e}") from None
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        for part in ("depthwise", "pointwise", "bias"):
            init = locals()[f"{part}_initializer"]
            setattr(self, f"{part}_initializer", initializers.get(init))
            reg = locals()[f"{part}_regularizer"]
            setattr(self, f"{part}_regularizer", regularizers.get(reg))
            con = locals()[f"{part}_constraint"]
            setattr(self, f"{part}_constraint", constraints.get(con))
        # Keras allows strides with dilation here (only its plain and
        # transposed convolutions refuse the pair).
        self.input_spec = InputSpec(min_ndim=rank + 2)

    def build(self, input_shape):
        channels = check_input(self, input_shape)
        self.compute_output_shape(input_shape)
        axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={axis: channels})
        self.depthwise_kernel = self._weight(
            "depthwise", self.kernel_size + (channels, self.depth_multiplier))
        self.pointwise_kernel = self._weight(
            "pointwise", (1,) * self.rank +
            (channels * self.depth_multiplier, self.filters))
        self.bias = self._weight("bias", (self.filters,)) \
            if self.use_bias else None

    def _weight(self, part, shape):
        name = part if part == "bias" else f"{part}_kernel"
        return self.add_weight(
            name=name, shape=shape,
            initializer=getattr(self, f"{part}_initializer"),
            regularizer=getattr(self, f"{part}_regularizer"),
            constraint=getattr(self, f"{part}_constraint"))

    def call(self, inputs):
        depthwise = ops.cast(self.depthwise_kernel, inputs.dtype)
        flat = ops.reshape(depthwise, self.kernel_size + (1, -1))
        geometry = layer_geometry(self, inputs.shape, flat.shape,
                                  self.strides, self.padding,
                                  self.dilation_rate)
        mid = run_conv(self, inputs, flat, None, activations.linear,
                       geometry)
        pointwise = ops.cast(self.pointwise_kernel, inputs.dtype)
        ones = (1,) * self.rank
        geometry = layer_geometry(self, mid.shape, pointwise.shape, ones,
                                  "valid", ones)
        return run_conv(self, mid, pointwise, self.bias, self.activation,
                        geometry)

    def compute_output_shape(self, input_shape):
        check_input(self, input_shape)
        return conv_output_shape(self, input_shape, self.filters)

    def get_config(self):
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
        })
        for kind in ("initializer", "regularizer"):
            module = initializers if kind == "initializer" else regularizers
            for part in ("depthwise", "pointwise", "bias"):
                config[f"{part}_{kind}"] = module.serialize(
                    getattr(self, f"{part}_{kind}"))
        config["activity_regularizer"] = regularizers.serialize(
            self.activity_regularizer)
        for part in ("depthwise", "pointwise", "bias"):
            config[f"{part}_constraint"] = constraints.serialize(
                getattr(self, f"{part}_constraint"))
        return config
