"""`ConvLSTMCell`: one timestep of a convolutional LSTM (Keras's layout).

Not a public Keras class: `ConvLSTM1D/2D/3D` hold one as `self.cell`
(named `conv_lstm_cell`), so the weights live at
`conv_lstm2d/conv_lstm_cell/kernel` and in files under `.../cell/vars`.
"""
import numpy as np

from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import config
from kerasish.backend import random
from kerasish.backend import windows as W
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.rnn.cell_base import check_rate
from kerasish.layers.rnn.dropout_rnn_cell import DropoutRNNCell
from kerasish.ops.conv import conv_geometry, fused_conv
from kerasish.ops.conv_geometry import spatial_tuple, standardize_padding


def _check_filters(filters):
    if not isinstance(filters, (int, np.integer)) or \
            isinstance(filters, bool) or filters <= 0:
        raise ValueError(
            "Invalid value for argument `filters`. Expected a strictly "
            f"positive value. Received filters={filters}.")
    return int(filters)


class ConvLSTMCell(Layer, DropoutRNNCell):
    """Cell of the ConvLSTM layers: an LSTM step whose input and recurrent
    transformations are convolutions.

    `kernel` is `kernel_size + (input_channels, 4 * filters)`,
    `recurrent_kernel` `kernel_size + (filters, 4 * filters)` and `bias`
    `(4 * filters,)`, gate blocks ordered i, f, c, o. The input convolution
    uses `strides`, `padding` and `dilation_rate`; the recurrent one is a
    stride-1 `"same"` convolution, so the states keep the input
    convolution's output shape.

    Args:
        rank: Number of spatial axes (1, 2 or 3).
        filters, kernel_size, strides, padding, data_format, dilation_rate,
        activation, recurrent_activation, use_bias, kernel_initializer,
        recurrent_initializer, bias_initializer, unit_forget_bias,
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint, dropout,
        recurrent_dropout, seed: As in `ConvLSTM2D`.

    Example:

    >>> cell = ConvLSTMCell(2, filters=3, kernel_size=3, padding="same")
    >>> x = np.ones((4, 8, 8, 2), "float32")
    >>> cell.build(x.shape)
    >>> h, (h, c) = cell(x, cell.get_initial_state(4))
    >>> h.shape
    (4, 8, 8, 3)
    """

    def __init__(self, rank, filters, kernel_size, strides=1,
                 padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        if rank not in (1, 2, 3):
            raise ValueError(f"Rank {rank} convolutions are not currently "
                             f"implemented. Received: rank={rank}")
        self.rank, self.filters = rank, _check_filters(filters)
        self.kernel_size = spatial_tuple(kernel_size, rank, "kernel_size")
        self.strides = spatial_tuple(strides, rank, "strides")
        self.padding = standardize_padding(padding)
        self.data_format = config.standardize_data_format(data_format)
        self.dilation_rate = spatial_tuple(dilation_rate, rank,
                                           "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "Specifying `strides > 1` is not compatible with "
                "`dilation_rate > 1`. Please provide `strides=1` or "
                f"`dilation_rate=1`. Received: strides={self.strides} and "
                f"dilation_rate={self.dilation_rate}")
        self._set_functions(activation, recurrent_activation, use_bias,
                            kernel_initializer, recurrent_initializer,
                            bias_initializer, unit_forget_bias)
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
        self.dropout_mask_count = 4
        self.input_spec = InputSpec(ndim=rank + 2)
        self.state_size = [self.filters, self.filters]
        self.output_size = self.filters

    def _set_functions(self, activation, recurrent_activation, use_bias,
                       kernel_initializer, recurrent_initializer,
                       bias_initializer, unit_forget_bias):
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias

    # -- building -------------------------------------------------------------
    def build(self, inputs_shape, states_shape=None):
        last = self.data_format == "channels_last"
        spatial = tuple(inputs_shape[1:-1] if last else inputs_shape[2:])
        channels = inputs_shape[-1 if last else 1]
        if None in spatial or len(spatial) != self.rank:
            raise ValueError(
                "ConvLSTM layers only support static input shapes for the "
                "spatial dimension. Received invalid input shape: "
                f"input_shape={tuple(inputs_shape)}")
        if channels is None:
            raise ValueError(
                "The channel dimension of the inputs should be defined. "
                "Found None. Full input shape received: "
                f"input_shape={tuple(inputs_shape)}")
        self.spatial_dims, self.input_dim = spatial, channels
        self.input_spec = InputSpec(ndim=self.rank + 2,
                                    shape=(None,) + tuple(inputs_shape[1:]))
        self._geometry(spatial, channels)
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels, 4 * self.filters),
            initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, 4 * self.filters),
            initializer=self.recurrent_initializer, name="recurrent_kernel",
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(4 * self.filters,), name="bias",
                initializer=self._forget_bias_init if self.unit_forget_bias
                else self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)

    def _forget_bias_init(self, shape, dtype=None):
        f = self.filters
        return ops.concatenate([
            self.bias_initializer((f,), dtype=dtype),
            initializers.get("ones")((f,), dtype=dtype),
            self.bias_initializer((2 * f,), dtype=dtype)])

    def _geometry(self, spatial, channels):
        """Channels-last geometry of the input and recurrent convolutions
        (computed once: each step reuses it)."""
        kernel = self.kernel_size + (channels, 4 * self.filters)
        strides, pads, dilation, _ = conv_geometry(
            (1,) + spatial + (channels,), kernel, self.strides,
            self.padding, self.dilation_rate, "channels_last")
        self._input_geometry = (strides, pads, dilation)
        windows = W.dilated(self.kernel_size, dilation)
        self.state_spatial = tuple(W.output_sizes(spatial, pads, windows,
                                                  strides))
        ones = (1,) * self.rank
        rec_pads = W.spatial_padding(self.state_spatial, self.kernel_size,
                                     ones, "same")
        self._recurrent_geometry = (ones, rec_pads, ones)

    # -- one step (in the cell's data format) ---------------------------------
    def input_conv(self, x, kernel, bias=None):
        strides, pads, dilation = self._input_geometry
        return fused_conv(x, kernel, bias, False, strides, pads, dilation, 1,
                          self.data_format)

    def recurrent_conv(self, h, kernel):
        strides, pads, dilation = self._recurrent_geometry
        return fused_conv(h, kernel, None, False, strides, pads, dilation, 1,
                          self.data_format)

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        axis = -1 if self.data_format == "channels_last" else 1
        x_masks = self.get_dropout_mask(inputs) if training and \
            0 < self.dropout < 1 else None
        h_masks = self.get_recurrent_dropout_mask(h_tm1) if training and \
            0 < self.recurrent_dropout < 1 else None
        z = ops.add(self._gate_convs(inputs, x_masks, self.kernel, self.bias,
                                     self.input_conv, axis),
                    self._gate_convs(h_tm1, h_masks, self.recurrent_kernel,
                                     None, self.recurrent_conv, axis))
        return self.gates(z, c_tm1, axis)

    def _gate_convs(self, x, masks, kernel, bias, conv, axis):
        """One convolution for the four gates, or one per gate with its own
        dropout mask (Keras's per-gate masks)."""
        if masks is None:
            return conv(x, kernel) if bias is None else conv(x, kernel, bias)
        kernels = ops.split(kernel, 4, axis=-1)
        biases = ops.split(bias, 4) if bias is not None else [None] * 4
        parts = [conv(x * m, k) if b is None else conv(x * m, k, b)
                 for m, k, b in zip(masks, kernels, biases)]
        return ops.concatenate(parts, axis=axis)

    def gates(self, z, c_tm1, axis=-1):
        """`h, [h, c]` from the summed pre-activations `z` (4 blocks)."""
        z_i, z_f, z_c, z_o = ops.split(z, 4, axis=axis)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = f * c_tm1 + i * self.activation(z_c)
        h = self.recurrent_activation(z_o) * self.activation(c)
        return h, [h, c]

    # -- shapes and states ----------------------------------------------------
    def state_shape(self, batch_size):
        """Shape of `h` and `c` for a batch (in the cell's data format)."""
        if self.data_format == "channels_last":
            return (batch_size,) + self.state_spatial + (self.filters,)
        return (batch_size, self.filters) + self.state_spatial

    def compute_output_shape(self, inputs_shape, states_shape=None):
        if not self.built:
            self.build(inputs_shape)
        shape = self.state_shape(inputs_shape[0])
        return shape, [shape, shape]

    def get_initial_state(self, batch_size=None):
        shape = self.state_shape(batch_size)
        return [ops.zeros(shape, dtype=self.compute_dtype),
                ops.zeros(shape, dtype=self.compute_dtype)]

    def get_config(self):
        config = super().get_config()
        config.update(cell_arguments(self))
        return config


_SERIALIZERS = {
    "activation": activations.serialize,
    "recurrent_activation": activations.serialize,
    "kernel_initializer": initializers.serialize,
    "recurrent_initializer": initializers.serialize,
    "bias_initializer": initializers.serialize,
    "kernel_regularizer": regularizers.serialize,
    "recurrent_regularizer": regularizers.serialize,
    "bias_regularizer": regularizers.serialize,
    "kernel_constraint": constraints.serialize,
    "recurrent_constraint": constraints.serialize,
    "bias_constraint": constraints.serialize,
}

CELL_ARGUMENTS = (
    "filters", "kernel_size", "strides", "padding", "data_format",
    "dilation_rate", "activation", "recurrent_activation", "use_bias",
    "kernel_initializer", "recurrent_initializer", "bias_initializer",
    "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
    "bias_regularizer", "kernel_constraint", "recurrent_constraint",
    "bias_constraint", "dropout", "recurrent_dropout", "seed")


def cell_arguments(cell):
    """The cell's constructor arguments, serialized as in Keras's config."""
    out = {}
    for name in CELL_ARGUMENTS:
        value = getattr(cell, name)
        serialize = _SERIALIZERS.get(name)
        out[name] = serialize(value) if serialize else value
    return out
