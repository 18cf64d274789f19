"""`SimpleRNNCell` and `SimpleRNN`: `h = activation(x W + h R + b)`."""
from kerasish import ops
from kerasish.backend import rnn as rnn_backend
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.rnn.cell_base import (RecurrentCell, activation_name,
                                           unpack_fused)
from kerasish.layers.rnn.recurrent_layer import RecurrentLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class SimpleRNNCell(RecurrentCell):
    """Cell class for SimpleRNN: one fully-connected recurrent step.

    Args:
        units: Positive int, dimensionality of the output space.
        activation: Defaults to `"tanh"`; `None` means linear.
        use_bias: Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        recurrent_initializer: Defaults to `"orthogonal"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint: Optional.
        dropout: Fraction of the input units to drop (training). Default 0.
        recurrent_dropout: Fraction of the recurrent units to drop. Default 0.
        seed: Random seed for dropout.

    Example:

    >>> import kerasish
    >>> rnn = kerasish.layers.RNN(kerasish.layers.SimpleRNNCell(4))
    >>> rnn(np.ones((2, 3, 5), "float32")).shape
    (2, 4)
    """

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(
            units, activation, use_bias, kernel_initializer,
            recurrent_initializer, bias_initializer, kernel_regularizer,
            recurrent_regularizer, bias_regularizer, kernel_constraint,
            recurrent_constraint, bias_constraint, dropout,
            recurrent_dropout, seed, **kwargs)
        self.state_size = self.units

    def build(self, input_shape):
        self._add_kernels(input_shape)
        self._add_bias((self.units,))

    def call(self, sequence, states, training=False):
        prev = states[0] if isinstance(states, (list, tuple)) else states
        dp_mask = self.get_dropout_mask(sequence)
        rec_mask = self.get_recurrent_dropout_mask(prev)
        if training and dp_mask is not None:
            sequence = sequence * dp_mask
        h = ops.matmul(sequence, self.kernel)
        if self.bias is not None:
            h = ops.add(h, self.bias)
        if training and rec_mask is not None:
            prev = prev * rec_mask
        output = self.activation(h + ops.matmul(prev, self.recurrent_kernel))
        return output, ([output] if isinstance(states, (list, tuple))
                        else output)

    def _fused_sequence(self, layer, sequences, states, mask, training):
        if not self._fusable(training, SimpleRNNCell.call):
            return None
        x = self._sequence_inputs(sequences, training)
        dtype = x.dtype
        want_states = layer.return_state or layer.stateful
        packed = rnn_backend.simple_rnn(
            x, states[0], self._weight(self.kernel, dtype),
            self._weight(self.recurrent_kernel, dtype),
            self._bias_or_zeros(self.units, dtype), mask=mask,
            activation=activation_name(self.activation),
            go_backwards=layer.go_backwards,
            return_sequences=layer.return_sequences,
            return_state=want_states,
            zero_output_for_mask=layer.zero_output_for_mask)
        return unpack_fused(packed, sequences.shape[1], 1,
                            layer.return_sequences, want_states)

    def get_config(self):
        config = super().get_config()
        config.update(self._config_head())
        config["use_bias"] = self.use_bias
        config.update(self._config_tail())
        config["seed"] = self.seed
        return config


@builtin("keras.layers")
class SimpleRNN(RecurrentLayer):
    """Fully-connected RNN where the output is fed back as the next input.

    Args:
        units: Positive int, dimensionality of the output space.
        activation, use_bias, kernel_initializer, recurrent_initializer,
        bias_initializer, kernel_regularizer, recurrent_regularizer,
        bias_regularizer, kernel_constraint, recurrent_constraint,
        bias_constraint, dropout, recurrent_dropout, seed: As in
        `SimpleRNNCell`.
        activity_regularizer: Regularizer of the output. Default `None`.
        return_sequences, return_state, go_backwards, stateful, unroll: As
            in `LSTM`.

    Example:

    >>> import kerasish
    >>> rnn = kerasish.layers.SimpleRNN(4, return_sequences=True)
    >>> rnn(np.ones((32, 10, 8), "float32")).shape
    (32, 10, 4)
    """

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"
    _cell_args = ("units", "activation", "use_bias", "kernel_initializer",
                  "recurrent_initializer", "bias_initializer",
                  "kernel_regularizer", "recurrent_regularizer",
                  "bias_regularizer", "kernel_constraint",
                  "recurrent_constraint", "bias_constraint", "dropout",
                  "recurrent_dropout", "seed")

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, seed=None,
                 **kwargs):
        cell_kwargs = {k: v for k, v in locals().items()
                       if k in self._cell_args}
        super().__init__(cell_kwargs, return_sequences, return_state,
                         go_backwards, stateful, unroll, "auto",
                         activity_regularizer, kwargs)
        self.input_spec = InputSpec(ndim=3)

    def get_config(self):
        # Keras's SimpleRNN config has no "seed" key.
        return self._layer_config(
            ["units", "activation", "use_bias", "kernel_initializer",
             "recurrent_initializer", "bias_initializer",
             "kernel_regularizer", "recurrent_regularizer",
             "bias_regularizer", "activity_regularizer",
             "kernel_constraint", "recurrent_constraint", "bias_constraint",
             "dropout", "recurrent_dropout"])
