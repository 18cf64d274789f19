"""`LSTMCell` and `LSTM` (Hochreiter & Schmidhuber 1997, Keras's layout)."""
from kerasish import activations, initializers, ops
from kerasish.backend import rnn as rnn_backend
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.rnn.cell_base import (RecurrentCell, activation_name,
                                           unpack_fused)
from kerasish.layers.rnn.recurrent_layer import RecurrentLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class LSTMCell(RecurrentCell):
    """Cell class for the LSTM layer: one timestep of an LSTM.

    Gate blocks in the kernels are ordered i (input), f (forget), c
    (candidate), o (output): `kernel` is `(input_dim, 4 * units)`,
    `recurrent_kernel` `(units, 4 * units)`, `bias` `(4 * units,)`.

    Args:
        units: Positive int, dimensionality of the output space.
        activation: Defaults to `"tanh"`.
        recurrent_activation: Activation of the gates. Defaults to
            `"sigmoid"`.
        use_bias: Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        recurrent_initializer: Defaults to `"orthogonal"`.
        bias_initializer: Defaults to `"zeros"`.
        unit_forget_bias: Add 1 to the forget-gate bias at initialization.
            Defaults to `True`.
        kernel_regularizer, recurrent_regularizer, bias_regularizer:
            Optional regularizers.
        kernel_constraint, recurrent_constraint, bias_constraint: Optional
            constraints.
        dropout: Fraction of the input units to drop (training). Default 0.
        recurrent_dropout: Fraction of the recurrent units to drop. Default 0.
        seed: Random seed for dropout.

    Example:

    >>> import kerasish
    >>> rnn = kerasish.layers.RNN(kerasish.layers.LSTMCell(4))
    >>> rnn(np.ones((2, 3, 8), "float32")).shape
    (2, 4)
    """

    _gates = 4

    def __init__(self, units, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(
            units, activation, use_bias, kernel_initializer,
            recurrent_initializer, bias_initializer, kernel_regularizer,
            recurrent_regularizer, bias_regularizer, kernel_constraint,
            recurrent_constraint, bias_constraint, dropout,
            recurrent_dropout, seed, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.implementation = 1 if self.recurrent_dropout else implementation
        if self.implementation == 1:
            self.dropout_mask_count = 4
        self.state_size = [self.units, self.units]

    def build(self, input_shape):
        self._add_kernels(input_shape)
        init = self._forget_bias_init if self.unit_forget_bias else None
        self._add_bias((4 * self.units,), init)

    def _forget_bias_init(self, shape, dtype=None):
        # Zeros-or-whatever for i, ones for f, the initializer for c and o.
        u = self.units
        return ops.concatenate([
            self.bias_initializer((u,), dtype=dtype),
            initializers.get("ones")((u,), dtype=dtype),
            self.bias_initializer((2 * u,), dtype=dtype)])

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        if self.implementation == 1:
            z = self._per_gate_preactivations(inputs, h_tm1, training)
        else:
            if training and 0 < self.dropout < 1:
                inputs = inputs * self.get_dropout_mask(inputs)
            z = ops.matmul(inputs, self.kernel)
            z = ops.add(z, ops.matmul(h_tm1, self.recurrent_kernel))
            if self.use_bias:
                z = ops.add(z, self.bias)
            z = ops.split(z, 4, axis=1)
        i = self.recurrent_activation(z[0])
        f = self.recurrent_activation(z[1])
        c = f * c_tm1 + i * self.activation(z[2])
        o = self.recurrent_activation(z[3])
        h = o * self.activation(c)
        return h, [h, c]

    def _per_gate_preactivations(self, inputs, h_tm1, training):
        """Keras's implementation 1: separate dropout masks per gate."""
        masks = self.get_dropout_mask(inputs) if training and \
            0 < self.dropout < 1 else None
        rec_masks = self.get_recurrent_dropout_mask(h_tm1) if training and \
            0 < self.recurrent_dropout < 1 else None
        kernels = ops.split(self.kernel, 4, axis=1)
        rec_kernels = ops.split(self.recurrent_kernel, 4, axis=1)
        biases = ops.split(self.bias, 4, axis=0) if self.use_bias else None
        z = []
        for k in range(4):
            x = inputs if masks is None else inputs * masks[k]
            h = h_tm1 if rec_masks is None else h_tm1 * rec_masks[k]
            zk = ops.matmul(x, kernels[k]) + ops.matmul(h, rec_kernels[k])
            z.append(zk if biases is None else zk + biases[k])
        return z

    def _fused_sequence(self, layer, sequences, states, mask, training):
        if not self._fusable(training, LSTMCell.call) or \
                activation_name(self.recurrent_activation) is None:
            return None
        x = self._sequence_inputs(sequences, training)
        dtype = x.dtype
        want_states = layer.return_state or layer.stateful
        packed = rnn_backend.lstm(
            x, states[0], states[1], self._weight(self.kernel, dtype),
            self._weight(self.recurrent_kernel, dtype),
            self._bias_or_zeros(4 * self.units, dtype), mask=mask,
            activation=activation_name(self.activation),
            recurrent_activation=activation_name(self.recurrent_activation),
            go_backwards=layer.go_backwards,
            return_sequences=layer.return_sequences,
            return_state=want_states,
            zero_output_for_mask=layer.zero_output_for_mask)
        return unpack_fused(packed, sequences.shape[1], 2,
                            layer.return_sequences, want_states)

    def get_config(self):
        config = super().get_config()
        config.update(self._config_head())
        config.update({
            "recurrent_activation":
                activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias,
            "unit_forget_bias": self.unit_forget_bias})
        config.update(self._config_tail())
        config["seed"] = self.seed
        return config


@builtin("keras.layers")
class LSTM(RecurrentLayer):
    """Long Short-Term Memory layer (Hochreiter 1997).

    Runs a whole sequence as one fused primitive (one GEMM for the input
    projection of every timestep, one per step for the recurrence, and
    backpropagation through time in a hand-written VJP); configurations
    the primitive does not cover (custom activations, recurrent dropout
    in training) run the cell step by step.

    Args:
        units: Positive int, dimensionality of the output space.
        activation, recurrent_activation, use_bias, kernel_initializer,
        recurrent_initializer, bias_initializer, unit_forget_bias,
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint, dropout,
        recurrent_dropout, seed: As in `LSTMCell`.
        activity_regularizer: Regularizer of the output. Default `None`.
        return_sequences: Return the whole output sequence, not only the
            last output. Default `False`.
        return_state: Also return the last states `[h, c]`. Default `False`.
        go_backwards: Process the sequence backwards and return the
            reversed sequence. Default `False`.
        stateful: Reuse each batch's last states as the next batch's
            initial states (needs a fixed batch size). Default `False`.
        unroll: Accepted for compatibility; the loop is the same either
            way. Default `False`.
        use_cudnn: `"auto"` (default) or `False`; `True` raises, as Keras
            does on a machine without cuDNN.

    Example:

    >>> import kerasish
    >>> lstm = kerasish.layers.LSTM(4, return_sequences=True,
    ...                             return_state=True)
    >>> seq, h, c = lstm(np.ones((32, 10, 8), "float32"))
    >>> seq.shape, h.shape, c.shape
    ((32, 10, 4), (32, 4), (32, 4))
    """

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"
    _cell_args = ("units", "activation", "recurrent_activation", "use_bias",
                  "kernel_initializer", "recurrent_initializer",
                  "bias_initializer", "unit_forget_bias",
                  "kernel_regularizer", "recurrent_regularizer",
                  "bias_regularizer", "kernel_constraint",
                  "recurrent_constraint", "bias_constraint", "dropout",
                  "recurrent_dropout", "seed")

    def __init__(self, units, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None,
                 return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False,
                 use_cudnn="auto", **kwargs):
        cell_kwargs = {k: v for k, v in locals().items()
                       if k in self._cell_args}
        super().__init__(cell_kwargs, return_sequences, return_state,
                         go_backwards, stateful, unroll, use_cudnn,
                         activity_regularizer, kwargs)
        self.input_spec = InputSpec(ndim=3)

    def get_config(self):
        return self._layer_config(
            ["units", "activation", "recurrent_activation", "use_bias",
             "kernel_initializer", "recurrent_initializer",
             "bias_initializer", "unit_forget_bias", "kernel_regularizer",
             "recurrent_regularizer", "bias_regularizer",
             "activity_regularizer", "kernel_constraint",
             "recurrent_constraint", "bias_constraint", "dropout",
             "recurrent_dropout", "seed"])
