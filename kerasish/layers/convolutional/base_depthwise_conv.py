"""`BaseDepthwiseConv`: shared body of DepthwiseConv1D and DepthwiseConv2D.

The kernel is `(*kernel_size, in_channels, depth_multiplier)` and the bias
`(in_channels * depth_multiplier,)`; output channel `c * depth_multiplier
+ m` is input channel `c` convolved with its `m`-th filter. It runs as a
grouped convolution with one group per input channel, through the same
fused primitive as `Conv2D`.
"""
from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.convolutional.base_conv import (
    check_input, common_config,
    conv_output_shape, layer_geometry, positive_int, run_conv, spatial_args)
from kerasish.ops.conv import standardize_padding


class BaseDepthwiseConv(Layer):
    """Abstract depthwise convolution; see `DepthwiseConv2D`."""

    def __init__(self, rank, depth_multiplier, kernel_size, strides=1,
                 padding="valid", data_format=None, dilation_rate=1,
                 activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls = type(self)
        self.rank = rank
        self.depth_multiplier = positive_int(cls, "depth_multiplier",
                                             depth_multiplier)
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
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        # Keras allows strides with dilation here (only its plain and
        # transposed convolutions refuse the pair).
        self.input_spec = InputSpec(min_ndim=rank + 2)

    def build(self, input_shape):
        channels = check_input(self, input_shape)
        self.compute_output_shape(input_shape)
        axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={axis: channels})
        self.kernel = self.add_weight(
            name="kernel",
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(channels * self.depth_multiplier,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)

    def call(self, inputs):
        kernel = ops.cast(self.kernel, inputs.dtype)
        flat = ops.reshape(kernel, self.kernel_size + (1, -1))
        geometry = layer_geometry(self, inputs.shape, flat.shape,
                                  self.strides, self.padding,
                                  self.dilation_rate)
        return run_conv(self, inputs, flat, self.bias, self.activation,
                        geometry)

    def compute_output_shape(self, input_shape):
        channels = check_input(self, input_shape)
        return conv_output_shape(self, input_shape,
                                 channels * self.depth_multiplier)

    def get_config(self):
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
        })
        config.update(common_config(self, "depthwise"))
        return config
