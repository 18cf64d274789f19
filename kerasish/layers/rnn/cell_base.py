"""What SimpleRNNCell, LSTMCell and GRUCell share: arguments, weights,
configs, and the hand-off to a fused whole-sequence primitive."""
import numpy as np

from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import random
from kerasish.backend import rnn as rnn_backend
from kerasish.engine.layer import Layer
from kerasish.layers.rnn.dropout_rnn_cell import DropoutRNNCell


def activation_name(fn):
    """Name of a built-in activation the fused primitives implement."""
    for name in rnn_backend.FORWARD:
        if fn is getattr(activations, name, None):
            return name
    return None


def check_units(units):
    if not isinstance(units, (int, np.integer)) or isinstance(units, bool) \
            or units <= 0:
        raise ValueError(
            "Received an invalid value for argument `units`, expected a "
            f"positive integer, got {units}.")
    return int(units)


def check_rate(name, value):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(
            f"Argument `{name}` must be a float between 0 and 1. "
            f"Received: {name}={value!r}")
    return min(1.0, max(0.0, float(value)))


class RecurrentCell(Layer, DropoutRNNCell):
    """Base of the built-in cells (not a public class).

    Subclasses set `_gates` (blocks in the kernels) and implement `call`
    and `_fused_sequence`.
    """

    _gates = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):
        units = check_units(units)
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = check_rate("dropout", dropout)
        self.recurrent_dropout = check_rate("recurrent_dropout",
                                            recurrent_dropout)
        self.seed = seed
        self.seed_generator = random.SeedGenerator(seed)
        self.output_size = units

    def _add_kernels(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) needs a known "
                f"last input dimension. Received input shape "
                f"{tuple(input_shape)}")
        width = self._gates * self.units
        self.kernel = self.add_weight(
            shape=(input_dim, width), name="kernel",
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, width), name="recurrent_kernel",
            initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)

    def _add_bias(self, shape, initializer=None):
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=shape, name="bias",
                initializer=initializer or self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)

    def get_initial_state(self, batch_size=None):
        """Zero states, one `(batch_size, size)` tensor per state."""
        sizes = self.state_size if isinstance(self.state_size, list) \
            else [self.state_size]
        return [ops.zeros((batch_size, d), dtype=self.compute_dtype)
                for d in sizes]

    # -- the fused path -------------------------------------------------------
    def _fusable(self, training, base_call):
        """Whether this call may run as one whole-sequence primitive."""
        return (type(self).call is base_call and
                not (training and self.recurrent_dropout > 0) and
                activation_name(self.activation) is not None)

    def _sequence_inputs(self, sequences, training):
        """The inputs with this call's dropout mask applied (if training)."""
        if training and self.dropout > 0:
            mask = self.get_dropout_mask(sequences[:, 0])
            return ops.multiply(sequences, ops.expand_dims(mask, 1))
        return sequences

    def _weight(self, variable, dtype):
        """A weight in the compute dtype (mixed precision), else as is."""
        if variable.dtype != dtype:
            return ops.cast(variable, dtype)
        return variable

    def _bias_or_zeros(self, width, dtype):
        if self.bias is None:
            return np.zeros(width, dtype)
        return self._weight(self.bias, dtype)

    # -- config ---------------------------------------------------------------
    def _config_head(self):
        return {"units": self.units,
                "activation": activations.serialize(self.activation)}

    def _config_tail(self):
        return {
            "kernel_initializer":
                initializers.serialize(self.kernel_initializer),
            "recurrent_initializer":
                initializers.serialize(self.recurrent_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer":
                regularizers.serialize(self.kernel_regularizer),
            "recurrent_regularizer":
                regularizers.serialize(self.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint":
                constraints.serialize(self.kernel_constraint),
            "recurrent_constraint":
                constraints.serialize(self.recurrent_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
        }


def unpack_fused(packed, steps, n_states, return_sequences, want_states):
    """Split a fused primitive's packed output into (output, states)."""
    if not want_states:
        return packed, None
    n_out = steps if return_sequences else 1
    output = packed[:, :n_out] if return_sequences else packed[:, 0]
    states = [packed[:, n_out + k] for k in range(n_states)]
    return output, states


def mask_array(mask):
    """A `(B, T)` boolean numpy mask from a tensor/array (or None)."""
    if mask is None:
        return None
    value = np.asarray(getattr(mask, "_value", mask))
    if value.ndim > 2:
        value = value.reshape(value.shape[:2] + (-1,)).any(axis=-1)
    return value.astype(bool)
