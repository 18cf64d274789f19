"""`GRUCell` and `GRU` (Cho et al. 2014, Keras's layout)."""
import numpy as np

from kerasish import activations, ops
from kerasish.backend import rnn as rnn_backend
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.rnn.cell_base import (RecurrentCell, activation_name,
                                           unpack_fused)
from kerasish.layers.rnn.recurrent_layer import RecurrentLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class GRUCell(RecurrentCell):
    """Cell class for the GRU layer: one timestep of a GRU.

    Gate blocks are ordered z (update), r (reset), h (candidate):
    `kernel` is `(input_dim, 3 * units)`, `recurrent_kernel`
    `(units, 3 * units)`. With `reset_after=True` (default) the bias is
    `(2, 3 * units)`, an input row and a recurrent row, and the reset gate
    multiplies the recurrent product; otherwise it is `(3 * units,)` and
    the reset gate multiplies the state before the product. The new state
    is `z * h_prev + (1 - z) * h~`.

    Args:
        units: Positive int, dimensionality of the output space.
        activation: Defaults to `"tanh"`.
        recurrent_activation: Activation of the gates. Defaults to
            `"sigmoid"`.
        use_bias: Defaults to `True`.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        recurrent_initializer: Defaults to `"orthogonal"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint: Optional.
        dropout: Fraction of the input units to drop (training). Default 0.
        recurrent_dropout: Fraction of the recurrent units to drop. Default 0.
        reset_after: GRU convention (see above). Defaults to `True`.
        seed: Random seed for dropout.

    Example:

    >>> import kerasish
    >>> cell = kerasish.layers.GRUCell(4)
    >>> out, states = cell(np.ones((2, 3), "float32"),
    ...                    [np.zeros((2, 4), "float32")])
    >>> out.shape, cell.bias.shape
    ((2, 4), (2, 12))
    """

    _gates = 3

    def __init__(self, units, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, reset_after=True,
                 seed=None, **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(
            units, activation, use_bias, kernel_initializer,
            recurrent_initializer, bias_initializer, kernel_regularizer,
            recurrent_regularizer, bias_regularizer, kernel_constraint,
            recurrent_constraint, bias_constraint, dropout,
            recurrent_dropout, seed, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after
        self.implementation = 1 if self.recurrent_dropout else implementation
        if self.implementation == 1:
            self.dropout_mask_count = 3
        self.state_size = self.units

    def build(self, input_shape):
        self._add_kernels(input_shape)
        width = 3 * self.units
        self._add_bias((2, width) if self.reset_after else (width,))

    def _biases(self):
        if not self.use_bias:
            return None, None
        if self.reset_after:
            return self.bias[0], self.bias[1]
        return self.bias, None

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        input_bias, recurrent_bias = self._biases()
        x_z, x_r, x_h = self._input_parts(inputs, input_bias, training)
        h_z, h_r, h_h = self._state_parts(h_tm1, training)
        u = self.units
        rec = self.recurrent_kernel
        if self.reset_after:
            rec_z = ops.matmul(h_z, rec[:, :u])
            rec_r = ops.matmul(h_r, rec[:, u:2 * u])
            rec_h = ops.matmul(h_h, rec[:, 2 * u:])
            if recurrent_bias is not None:
                rec_z = rec_z + recurrent_bias[:u]
                rec_r = rec_r + recurrent_bias[u:2 * u]
                rec_h = rec_h + recurrent_bias[2 * u:]
            z = self.recurrent_activation(x_z + rec_z)
            r = self.recurrent_activation(x_r + rec_r)
            hh = self.activation(x_h + r * rec_h)
        else:
            z = self.recurrent_activation(x_z + ops.matmul(h_z, rec[:, :u]))
            r = self.recurrent_activation(
                x_r + ops.matmul(h_r, rec[:, u:2 * u]))
            hh = self.activation(x_h + ops.matmul(r * h_h, rec[:, 2 * u:]))
        h = z * h_tm1 + (1 - z) * hh
        return h, ([h] if isinstance(states, (list, tuple)) else h)

    def _input_parts(self, inputs, input_bias, training):
        masks = self.get_dropout_mask(inputs) if training and \
            0 < self.dropout < 1 else None
        if masks is not None and not isinstance(masks, list):
            inputs, masks = inputs * masks, None
        parts = []
        for k, kernel in enumerate(ops.split(self.kernel, 3, axis=1)):
            x = inputs if masks is None else inputs * masks[k]
            part = ops.matmul(x, kernel)
            if input_bias is not None:
                u = self.units
                part = part + input_bias[k * u:(k + 1) * u]
            parts.append(part)
        return parts

    def _state_parts(self, h_tm1, training):
        masks = self.get_recurrent_dropout_mask(h_tm1) if training and \
            0 < self.recurrent_dropout < 1 else None
        if masks is None:
            return h_tm1, h_tm1, h_tm1
        return [h_tm1 * m for m in masks]

    def _fused_sequence(self, layer, sequences, states, mask, training):
        if not self._fusable(training, GRUCell.call) or \
                activation_name(self.recurrent_activation) is None:
            return None
        x = self._sequence_inputs(sequences, training)
        dtype, width = x.dtype, 3 * self.units
        bias, rec_bias = self._biases()
        bias = np.zeros(width, dtype) if bias is None else \
            self._weight(bias, dtype)
        rec_bias = np.zeros(width, dtype) if rec_bias is None else \
            self._weight(rec_bias, dtype)
        want_states = layer.return_state or layer.stateful
        packed = rnn_backend.gru(
            x, states[0], self._weight(self.kernel, dtype),
            self._weight(self.recurrent_kernel, dtype), bias, rec_bias,
            mask=mask, activation=activation_name(self.activation),
            recurrent_activation=activation_name(self.recurrent_activation),
            reset_after=self.reset_after, go_backwards=layer.go_backwards,
            return_sequences=layer.return_sequences,
            return_state=want_states,
            zero_output_for_mask=layer.zero_output_for_mask)
        return unpack_fused(packed, sequences.shape[1], 1,
                            layer.return_sequences, want_states)

    def get_config(self):
        config = super().get_config()
        config.update(self._config_head())
        config.update({
            "recurrent_activation":
                activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias})
        config.update(self._config_tail())
        config.update({"reset_after": self.reset_after, "seed": self.seed})
        return config


@builtin("keras.layers")
class GRU(RecurrentLayer):
    """Gated Recurrent Unit layer (Cho et al. 2014).

    Runs the whole sequence as one fused primitive when it can (see
    `LSTM`). `reset_after=True` (default) is the cuDNN-compatible variant
    with separate input and recurrent biases.

    Args:
        units: Positive int, dimensionality of the output space.
        activation, recurrent_activation, use_bias, kernel_initializer,
        recurrent_initializer, bias_initializer, kernel_regularizer,
        recurrent_regularizer, bias_regularizer, kernel_constraint,
        recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
        reset_after, seed: As in `GRUCell`.
        activity_regularizer: Regularizer of the output. Default `None`.
        return_sequences, return_state, go_backwards, stateful, unroll,
        use_cudnn: As in `LSTM`.

    Example:

    >>> import kerasish
    >>> gru = kerasish.layers.GRU(4, return_state=True)
    >>> out, h = gru(np.ones((32, 10, 8), "float32"))
    >>> out.shape, h.shape
    ((32, 4), (32, 4))
    """

    _cell_class = GRUCell
    _cell_name = "gru_cell"
    _cell_args = ("units", "activation", "recurrent_activation", "use_bias",
                  "kernel_initializer", "recurrent_initializer",
                  "bias_initializer", "kernel_regularizer",
                  "recurrent_regularizer", "bias_regularizer",
                  "kernel_constraint", "recurrent_constraint",
                  "bias_constraint", "dropout", "recurrent_dropout",
                  "reset_after", "seed")

    def __init__(self, units, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False,
                 reset_after=True, use_cudnn="auto", **kwargs):
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
             "bias_initializer", "kernel_regularizer",
             "recurrent_regularizer", "bias_regularizer",
             "activity_regularizer", "kernel_constraint",
             "recurrent_constraint", "bias_constraint", "dropout",
             "recurrent_dropout", "reset_after", "seed"])
