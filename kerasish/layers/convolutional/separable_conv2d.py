"""`SeparableConv2D`: depthwise then pointwise 2-D convolution."""
from kerasish.layers.convolutional.base_separable_conv import (
    BaseSeparableConv)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "SeparableConvolution2D")
class SeparableConv2D(BaseSeparableConv):
    """2D separable convolution layer.

    A depthwise convolution (each input channel with `depth_multiplier`
    filters of its own) followed by a pointwise 1x1 convolution mixing the
    channels into `filters` outputs, then the bias and activation.

    Args:
        filters: Positive int, the number of output channels.
        kernel_size: int or tuple of 2 ints, the depthwise window size.
        strides: int or tuple of 2 ints. Defaults to `(1, 1)`.
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` or `"channels_first"`.
        dilation_rate: int or tuple of 2 ints. Defaults to `(1, 1)`.
        depth_multiplier: Depthwise filters per input channel. Defaults to 1.
        activation: Activation name or callable; None means linear.
        use_bias: Whether to add a bias. Defaults to `True`.
        depthwise_initializer, pointwise_initializer: Default
            `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        depthwise_regularizer, pointwise_regularizer, bias_regularizer,
            activity_regularizer: Optional regularizers.
        depthwise_constraint, pointwise_constraint, bias_constraint:
            Optional constraints.

    Example:

    >>> layer = SeparableConv2D(5, 3, depth_multiplier=2)
    >>> layer(np.ones((1, 6, 6, 4), "float32")).shape
    (1, 4, 4, 5)
    >>> [tuple(w.shape) for w in layer.weights]
    [(3, 3, 4, 2), (1, 1, 8, 5), (5,)]
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1), depth_multiplier=1,
                 activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(
            rank=2, depth_multiplier=depth_multiplier, filters=filters,
            kernel_size=kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint,
            bias_constraint=bias_constraint, **kwargs)
