"""`Conv3D`: 3-D convolution over volumes."""
from kerasish.layers.convolutional.base_conv import BaseConv
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "Convolution3D")
class Conv3D(BaseConv):
    """3D convolution layer (spatial convolution over volumes).

    Convolves (cross-correlates) a kernel of shape
    `(*kernel_size, channels // groups, filters)` with the input, adds a
    bias of shape `(filters,)` if `use_bias`, then applies `activation`.

    Args:
        filters: Positive int, the number of output channels.
        kernel_size: int or tuple of 3 ints, the window size.
        strides: int or tuple of 3 ints. Defaults to `(1, 1, 1)`. Strides > 1
            cannot be combined with `dilation_rate` > 1.
        padding: `"valid"` (default, no padding) or `"same"` (pad evenly,
            extra after, so that the output has `ceil(input / stride)`
            positions).
        data_format: `"channels_last"` (`(batch, d1, d2, d3, channels)`)
            or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        dilation_rate: int or tuple of 3 ints. Defaults to `(1, 1, 1)`.
        groups: Positive int dividing both the input channels and
            `filters`: each group of input channels is convolved with its
            own `filters // groups` filters. Defaults to 1.
        activation: Activation name or callable; None means linear.
        use_bias: Whether to add a bias. Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer:
            Optional regularizers.
        kernel_constraint, bias_constraint: Optional constraints.

    Input shape: `(batch, d1, d2, d3, channels)` (channels last).
    Output shape: `(batch, new_d1, new_d2, new_d3, filters)`.

    Example:

    >>> layer = Conv3D(4, 3, padding="same")
    >>> layer(np.ones((2, 5, 6, 7, 3), "float32")).shape
    (2, 5, 6, 7, 4)
    >>> [tuple(w.shape) for w in layer.weights]
    [(3, 3, 3, 3, 4), (4,)]
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1),
                 padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), groups=1, activation=None,
                 use_bias=True,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(
            rank=3, filters=filters, kernel_size=kernel_size,
            strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, groups=groups,
            activation=activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint, **kwargs)
