"""`DepthwiseConv1D`: each input channel convolved with its own filters."""
from kerasish.layers.convolutional.base_depthwise_conv import (
    BaseDepthwiseConv)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class DepthwiseConv1D(BaseDepthwiseConv):
    """1D depthwise convolution layer.

    Each input channel is convolved with `depth_multiplier` filters of its
    own (a grouped convolution with one group per channel); the outputs are
    concatenated, channel `c * depth_multiplier + m` coming from input
    channel `c`. Kernel shape `(*kernel_size, in_channels,
    depth_multiplier)`, bias `(in_channels * depth_multiplier,)`.

    Args:
        kernel_size: int or tuple of 1 int, the window size.
        strides: int or tuple of 1 int. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        depth_multiplier: Filters per input channel. Defaults to 1.
        data_format: `"channels_last"` or `"channels_first"`.
        dilation_rate: int or tuple of 1 int. Defaults to 1.
        activation: Activation name or callable; None means linear.
        use_bias: Whether to add a bias. Defaults to `True`.
        depthwise_initializer: Defaults to `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        depthwise_regularizer, bias_regularizer, activity_regularizer:
            Optional regularizers.
        depthwise_constraint, bias_constraint: Optional constraints.

    Example:

    >>> layer = DepthwiseConv1D(3, depth_multiplier=2)
    >>> layer(np.ones((1, 6, 4), "float32")).shape
    (1, 4, 8)
    >>> [tuple(w.shape) for w in layer.weights]
    [(3, 4, 2), (8,)]
    """

    def __init__(self, kernel_size, strides=1, padding="valid",
                 depth_multiplier=1, data_format=None, dilation_rate=1,
                 activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(
            rank=1, depth_multiplier=depth_multiplier,
            kernel_size=kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            bias_constraint=bias_constraint, **kwargs)
