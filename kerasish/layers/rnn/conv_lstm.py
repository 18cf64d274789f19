"""`ConvLSTM`: the base of ConvLSTM1D/2D/3D (not a public class).

A sequence runs in two parts: the input convolution of every timestep at
once (the sequence folded into the batch: one GEMM), then the recurrence,
one stride-1 `"same"` convolution of `h` per step, through the generic
loop of `rnn_loop.py` (masks, `go_backwards`, `unroll`). Internally the
loop is channels-last; channels-first inputs and states are transposed
once on the way in and out.
"""
from kerasish import ops, regularizers, tree
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.rnn.conv_lstm_cell import (CELL_ARGUMENTS, ConvLSTMCell,
                                                cell_arguments)
from kerasish.layers.rnn.rnn import RNN
from kerasish.layers.rnn.rnn_loop import run_cell_loop
from kerasish.ops.conv import fused_conv


def _to_last(x, axis):
    """Move the channel axis `axis` of `x` to the end."""
    order = [a for a in range(x.ndim) if a != axis] + [axis]
    return ops.transpose(x, order)


def _to_first(x, axis):
    """Move the last (channel) axis of `x` to position `axis`."""
    order = list(range(x.ndim - 1))
    order.insert(axis, x.ndim - 1)
    return ops.transpose(x, order)


class ConvLSTM(RNN):
    """N-D convolutional LSTM over `(batch, time, *spatial, channels)`.

    Subclasses fix `rank`; see `ConvLSTM2D` for the arguments.
    """

    def __init__(self, rank, filters, kernel_size, strides=1,
                 padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None,
                 return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        cell_kwargs = {k: v for k, v in locals().items()
                       if k in CELL_ARGUMENTS}
        cell = ConvLSTMCell(rank, name="conv_lstm_cell",
                            dtype=kwargs.get("dtype"), **cell_kwargs)
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=rank + 3)

    def __init_subclass__(cls, **kwargs):
        # The cell's arguments read through the layer (`layer.filters`), as
        # Keras's read-only properties do.
        super().__init_subclass__(**kwargs)
        for name in CELL_ARGUMENTS:
            if name != "seed" and not hasattr(cls, name):
                setattr(cls, name, property(
                    lambda self, n=name: getattr(self.cell, n),
                    doc=f"The cell's `{name}`."))

    # -- shapes ---------------------------------------------------------------
    def _step_shape(self, sequences_shape):
        return (sequences_shape[0],) + tuple(sequences_shape[2:])

    def build(self, sequences_shape, initial_state_shape=None):
        if len(sequences_shape) != self.cell.rank + 3:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects inputs "
                f"of rank {self.cell.rank + 3} (batch, time, "
                f"{self.cell.rank} spatial axes and channels). Received "
                f"input shape {tuple(sequences_shape)}")
        super().build(sequences_shape, initial_state_shape)

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, steps = sequences_shape[0], sequences_shape[1]
        state = self.cell.compute_output_shape(
            self._step_shape(sequences_shape))[0]
        output = (batch, steps) + state[1:] if self.return_sequences \
            else state
        return (output, state, state) if self.return_state else output

    def _check_initial_state(self, states, batch):
        expected = self.cell.state_shape(batch)
        flat = tree.flatten(states)
        if len(flat) != 2:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects 2 "
                f"initial states (h and c), but it received {len(flat)}.")
        for s in flat:
            if tuple(ops.shape(s)) != expected:
                raise ValueError(
                    f"An initial state of layer '{self.name}' has shape "
                    f"{tuple(ops.shape(s))}; expected {expected}.")

    # -- the loop -------------------------------------------------------------
    def inner_loop(self, sequences, initial_state, mask, training=False):
        cell = self.cell
        first = cell.data_format == "channels_first"
        x_masks = self._masks(cell.get_dropout_mask(sequences[:, 0]),
                              training, cell.dropout, first)
        if first:
            sequences = _to_last(sequences, 2)
            initial_state = [_to_last(s, 1) for s in initial_state]
        dtype = sequences.dtype
        projections = self._input_projections(sequences, x_masks, dtype)
        recurrent_kernel = self._weight(cell.recurrent_kernel, dtype)
        h_masks = self._masks(cell.get_recurrent_dropout_mask(
            initial_state[0]), training, cell.recurrent_dropout, first)
        strides, pads, dilation = cell._recurrent_geometry

        def conv(h, kernel):
            return fused_conv(h, kernel, None, False, strides, pads,
                              dilation, 1, "channels_last")

        def step(z_x, states):
            z_h = cell._gate_convs(states[0], h_masks, recurrent_kernel,
                                   None, conv, -1)
            return cell.gates(ops.add(z_x, z_h), states[1])
        if mask is not None:
            mask = mask.reshape(mask.shape + (1,) * cell.rank)
        last, outputs, states = run_cell_loop(
            step, projections, initial_state, mask, self.go_backwards,
            self.unroll, self.zero_output_for_mask, self.return_sequences)
        output = outputs if self.return_sequences else last
        if first:
            output = _to_first(output, 2 if self.return_sequences else 1)
            states = [_to_first(s, 1) for s in states]
        return output, states

    def _input_projections(self, sequences, masks, dtype):
        """Every timestep's input convolution (+ bias), `(B, T, ..., 4F)`:
        the time axis folded into the batch, so one GEMM per gate block."""
        cell = self.cell
        batch, steps = sequences.shape[0], sequences.shape[1]
        kernel = self._weight(cell.kernel, dtype)
        bias = None if cell.bias is None else self._weight(cell.bias, dtype)
        strides, pads, dilation = cell._input_geometry
        if masks is not None:
            # One mask per gate, the same at every timestep.
            masks = [ops.expand_dims(m, 1) for m in masks]

        def conv(x, k, b=None):
            folded = ops.reshape(x, (-1,) + tuple(x.shape[2:]))
            y = fused_conv(folded, k, b, False, strides, pads, dilation, 1,
                           "channels_last")
            return ops.reshape(y, (batch, steps) + tuple(y.shape[1:]))
        return cell._gate_convs(sequences, masks, kernel, bias, conv, -1)

    def _masks(self, masks, training, rate, first):
        """This call's per-gate dropout masks, channels-last (or None)."""
        if not (training and 0 < rate < 1) or masks is None:
            return None
        return [_to_last(m, 1) for m in masks] if first else list(masks)

    def _weight(self, variable, dtype):
        return variable if variable.dtype == dtype else \
            ops.cast(variable, dtype)

    # -- config ---------------------------------------------------------------
    def get_config(self):
        config = super().get_config()
        del config["cell"]
        for key, value in cell_arguments(self.cell).items():
            config[key] = value
            if key == "bias_regularizer":      # Keras's key order
                config["activity_regularizer"] = regularizers.serialize(
                    self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)
