"""`BaseConvTranspose`: shared body of Conv1D/2D/3DTranspose.

The kernel is `(*kernel_size, filters, in_channels)` (Keras's layout: the
last two axes swapped relative to a convolution), the bias `(filters,)`.
"""
from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.convolutional.base_conv import (
    bias_and_activation, check_input, check_rank,
    check_strides_and_dilation,
    common_config, layer_error, positive_int, spatial_args)
from kerasish.ops.conv import (
    spatial_tuple, standardize_padding, transpose_padding)


class BaseConvTranspose(Layer):
    """Abstract N-D transposed convolution; see `Conv2DTranspose`."""

    def __init__(self, rank, filters, kernel_size, strides=1,
                 padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls = type(self)
        self.rank = rank
        self.filters = positive_int(cls, "filters", filters)
        self.kernel_size, self.strides, self.dilation_rate = spatial_args(
            cls, rank, kernel_size=kernel_size, strides=strides,
            dilation_rate=dilation_rate)
        try:
            self.padding = standardize_padding(padding)
            self.output_padding = None if output_padding is None else \
                spatial_tuple(output_padding, rank,
                                       "output_padding", allow_zero=True)
        except ValueError as e:
            raise ValueError(f"{cls.__name__}: {e}") from None
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self._check_arguments()
        self.input_spec = InputSpec(min_ndim=rank + 2)

    def _check_arguments(self):
        name = type(self).__name__
        if self.output_padding is not None:
            for i, (op, s) in enumerate(zip(self.output_padding,
                                            self.strides)):
                if op >= s:
                    raise ValueError(
                        f"{name}: `output_padding` must be strictly less "
                        f"than `strides` for all dimensions. At dimension "
                        f"{i}, `output_padding` is {op} but `strides` is "
                        f"{s}. Received: output_padding="
                        f"{self.output_padding}, strides={self.strides}")
        check_strides_and_dilation(self)

    def build(self, input_shape):
        channels = check_input(self, input_shape)
        self.compute_output_shape(input_shape)
        axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={axis: channels})
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + (self.filters, channels),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.filters,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)

    def call(self, inputs):
        kernel = ops.cast(self.kernel, inputs.dtype)
        outputs = ops.conv_transpose(
            inputs, kernel, strides=self.strides, padding=self.padding,
            output_padding=self.output_padding,
            data_format=self.data_format, dilation_rate=self.dilation_rate)
        return bias_and_activation(outputs, self.bias, self.activation,
                                   self.data_format)

    def compute_output_shape(self, input_shape):
        input_shape = check_rank(self, input_shape)
        last = self.data_format == "channels_last"
        sizes = input_shape[1:-1] if last else input_shape[2:]
        out = tuple(None if n is None else self._out_size(i, n, input_shape)
                    for i, n in enumerate(sizes))
        if last:
            return (input_shape[0],) + out + (self.filters,)
        return (input_shape[0], self.filters) + out

    def _out_size(self, i, n, input_shape):
        op = None if self.output_padding is None else self.output_padding[i]
        lo, hi = transpose_padding(
            self.kernel_size[i], self.strides[i], self.dilation_rate[i],
            self.padding, op)
        k = (self.kernel_size[i] - 1) * self.dilation_rate[i] + 1
        size = (n - 1) * self.strides[i] + lo + hi - k + 2
        if size <= 0:
            raise layer_error(self, (
                "computed output size would be zero or negative. Received: "
                f"input shape={input_shape}, kernel_size={self.kernel_size},"
                f" strides={self.strides}, output_padding="
                f"{self.output_padding}"))
        return size

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "output_padding": self.output_padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
        })
        config.update(common_config(self, "kernel"))
        return config
