"""`ConvLSTM3D`: a convolutional LSTM over sequences of 3-D maps."""
from kerasish.layers.rnn.conv_lstm import ConvLSTM
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ConvLSTM3D(ConvLSTM):
    """3D convolutional LSTM (Shi et al. 2015).

    An LSTM whose input and recurrent transformations are convolutions:
    the states `h` and `c` are feature maps. The cell is held as
    `self.cell` (`conv_lstm_cell`) with Keras's weights: `kernel`
    `kernel_size + (channels, 4 * filters)`, `recurrent_kernel`
    `kernel_size + (filters, 4 * filters)`, `bias` `(4 * filters,)`, gate
    blocks ordered i, f, c, o.

    Args:
        filters: int, number of output filters.
        kernel_size: int or tuple of 3 integers, the convolution window.
        strides: int or tuple of 3 integers (input convolution). Defaults to 1.
            `strides > 1` is incompatible with `dilation_rate > 1`.
        padding: `"valid"` (default) or `"same"` (input convolution; the
            recurrent convolution is always `"same"`).
        data_format: `"channels_last"`
            ((samples, time, depth, rows, cols, channels)) or
            `"channels_first"` ((samples, time, channels, depth, rows, cols)).
            Defaults to `keras.config.image_data_format()`.
        dilation_rate: int or tuple of 3 integers. Defaults to 1.
        activation: Defaults to `"tanh"`.
        recurrent_activation: Activation of the gates. Defaults to
            `"sigmoid"`.
        use_bias: Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        recurrent_initializer: Defaults to `"orthogonal"`.
        bias_initializer: Defaults to `"zeros"`.
        unit_forget_bias: Add 1 to the forget-gate bias at initialization.
            Defaults to `True`.
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, recurrent_constraint,
        bias_constraint: Optional. Default `None`.
        dropout: Fraction of the input units to drop (training; one mask
            per gate, the same at every timestep). Defaults to 0.
        recurrent_dropout: Fraction of the recurrent units to drop.
            Defaults to 0.
        seed: Random seed for dropout. Defaults to `None`.
        return_sequences: Return every timestep's output. Default `False`.
        return_state: Also return the last states `h` and `c`. Default
            `False`.
        go_backwards: Process the sequence backwards. Default `False`.
        stateful: Reuse each batch's last states as the next batch's
            initial states. Default `False`.
        unroll: Accepted for compatibility (the loop is a Python loop
            either way); with a mask it selects Keras's unrolled rule for
            masked outputs. Default `False`.

    Call arguments:
        inputs: 6D tensor ((samples, time, depth, rows, cols, channels)
            for channels-last).
        initial_state: Optional `[h, c]`, each of the state's shape.
        mask: Optional `(samples, time)` boolean mask: masked timesteps
            keep the previous states.
        training: Enables dropout.

    Returns:
        The last output (samples, new_depth, new_rows, new_cols, filters)
        (channels-last), or the whole sequence with a time axis after the
        batch with `return_sequences`; then `h` and `c` with
        `return_state`.

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.ConvLSTM3D(4, 3, padding="same",
    ...                                    return_sequences=True)
    >>> layer(np.ones((2, 3, 4, 4, 4, 1), "float32")).shape
    (2, 3, 4, 4, 4, 4)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None,
                 return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        arguments = dict(locals())
        for name in ("self", "kwargs", "__class__"):
            arguments.pop(name)
        super().__init__(rank=3, **arguments, **kwargs)
