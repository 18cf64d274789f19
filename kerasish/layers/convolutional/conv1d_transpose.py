"""`Conv1DTranspose`: transposed 1-D convolution."""
from kerasish.layers.convolutional.base_conv_transpose import (
    BaseConvTranspose)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "Convolution1DTranspose")
class Conv1DTranspose(BaseConvTranspose):
    """1D transposed convolution layer ("deconvolution").

    The gradient of a `Conv1D` with respect to its input, used as a layer:
    it maps `steps` positions to `steps * strides` with
    `padding="same"`. Kernel shape `(*kernel_size, filters, in_channels)`.

    Args:
        filters: Positive int, the number of output channels.
        kernel_size: int or tuple of 1 int.
        strides: int or tuple of 1 int. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        output_padding: None (default: inferred) or an int / tuple of 2
            ints, each strictly less than the stride: the amount added to
            one side of each output axis.
        data_format: `"channels_last"` or `"channels_first"`.
        dilation_rate: int or tuple of 1 int. Defaults to 1.
        activation: Activation name or callable; None means linear.
        use_bias: Whether to add a bias. Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer:
            Optional regularizers.
        kernel_constraint, bias_constraint: Optional constraints.

    Example:

    >>> layer = Conv1DTranspose(2, 3, strides=2)
    >>> layer(np.ones((1, 4, 3), "float32")).shape
    (1, 9, 2)
    >>> [tuple(w.shape) for w in layer.weights]
    [(3, 2, 3), (2,)]
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(
            rank=1, filters=filters, kernel_size=kernel_size,
            strides=strides, padding=padding, output_padding=output_padding,
            data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint, **kwargs)
