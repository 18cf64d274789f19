"""`RNN`: run a recurrent cell over the time axis of a sequence."""
from kerasish import ops, tree
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context, naming
from kerasish.engine.layer import Layer
from kerasish.backend.common.variable import Variable
from kerasish.layers.rnn.cell_base import mask_array
from kerasish.layers.rnn.dropout_rnn_cell import DropoutRNNCell
from kerasish.layers.rnn.rnn_loop import run_cell_loop
from kerasish.layers.rnn.stacked_rnn_cells import StackedRNNCells
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RNN(Layer):
    """Base class for recurrent layers: applies a cell to every timestep.

    A cell is any object with `call(input_t, states)` returning
    `(output_t, new_states)` and a `state_size` (an int, or a list of ints,
    one per state); optionally `output_size` and
    `get_initial_state(batch_size)`. A list of cells is stacked with
    `StackedRNNCells`. Built-in LSTM, GRU and SimpleRNN cells run the whole
    sequence as one fused primitive.

    Args:
        cell: A cell instance, or a list of cells.
        return_sequences: Return the full output sequence (default `False`:
            only the last output).
        return_state: Also return the last states. Default `False`.
        go_backwards: Process the sequence backwards and return the
            reversed sequence. Default `False`.
        stateful: Reuse the last states of each batch as the initial states
            of the next (needs a static batch size). Default `False`.
        unroll: Accepted for compatibility; the loop is a Python loop
            either way. With a mask it selects Keras's unrolled rule for
            masked outputs (the previous output, zeros at first).
            Default `False`.
        zero_output_for_mask: Output zeros at masked timesteps (with
            `return_sequences`). Default `False`.

    Call arguments:
        sequences: `(batch, timesteps, features)` tensor.
        initial_state: Optional list of initial state tensors.
        mask: Optional `(batch, timesteps)` boolean mask (from `Embedding(
            mask_zero=True)` or `Masking`); masked steps carry the states.
        training: Enables the cells' dropout.

    Example:

    >>> import kerasish
    >>> cells = [kerasish.layers.LSTMCell(8), kerasish.layers.GRUCell(4)]
    >>> layer = kerasish.layers.RNN(cells, return_sequences=True)
    >>> layer(np.ones((2, 5, 3), "float32")).shape
    (2, 5, 4)
    """

    def __init__(self, cell, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False,
                 zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell, dtype=kwargs.get("dtype"))
        if "call" not in dir(cell):
            raise ValueError("Argument `cell` should have a `call` method. "
                             f"Received: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError(
                "The RNN cell should have a `state_size` attribute (single "
                "integer or list of integers, one integer per RNN state). "
                f"Received: cell={cell}")
        super().__init__(**kwargs)
        self.zero_output_for_mask = zero_output_for_mask
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.supports_masking = True
        self.input_spec = None
        object.__setattr__(self, "states", None)
        self._expected_batch_size = None
        state_size = cell.state_size
        if not isinstance(state_size, (list, tuple, int)):
            raise ValueError(
                "state_size must be an integer, or a list/tuple of integers "
                f"(one for each state tensor). Received: {state_size!r}")
        self.single_state = isinstance(state_size, int)
        self.state_size = [state_size] if self.single_state \
            else list(state_size)

    # -- shapes and masks -----------------------------------------------------
    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, steps = sequences_shape[0], sequences_shape[1]
        states = [[(batch, s) for s in size] if isinstance(
            size, (list, tuple)) else (batch, size)
            for size in self.state_size]
        size = getattr(self.cell, "output_size", None)
        if size is None:
            size = tree.flatten(self.state_size)[0]
        output = (batch, steps, size) if self.return_sequences \
            else (batch, size)
        return (output, *states) if self.return_state else output

    def compute_mask(self, _, mask):
        mask = tree.flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.state_size]
        return output_mask

    # -- building and states --------------------------------------------------
    def build(self, sequences_shape, initial_state_shape=None):
        if len(sequences_shape) < 3:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects "
                "inputs of shape (batch, timesteps, features). Received "
                f"input shape {tuple(sequences_shape)}")
        step_shape = (sequences_shape[0],) + tuple(sequences_shape[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build(step_shape)
        if self.stateful:
            if sequences_shape[0] is None:
                raise ValueError(
                    "When using `stateful=True` in a RNN, the batch size "
                    "must be static. Found dynamic batch size: "
                    f"sequence.shape={tuple(sequences_shape)}")
            self._create_state_variables(sequences_shape[0])

    def _create_state_variables(self, batch_size):
        # Not tracked: Keras keeps RNN states out of the layer's weights
        # (and so out of weight files).
        with naming.name_scope(self.name):
            states = [Variable(s, trainable=False, dtype=self.variable_dtype,
                               name="rnn_state")
                      for s in tree.flatten(self.get_initial_state(
                          batch_size))]
        object.__setattr__(self, "states", states)
        self._expected_batch_size = batch_size

    def get_initial_state(self, batch_size):
        """Zero initial states (or the cell's own), as a list."""
        make = getattr(self.cell, "get_initial_state", None)
        if make is None:
            return [ops.zeros((batch_size, d), dtype=self.compute_dtype)
                    for d in self.state_size]
        states = make(batch_size=batch_size)
        return list(states) if tree.is_nested(states) else [states]

    def reset_state(self, states=None):
        """Zero the states of a stateful layer, or set them to `states`."""
        if self.states is None:
            return
        values = [None] * len(self.states) if states is None else \
            tree.flatten(states)
        if len(values) != len(self.states):
            raise ValueError(
                f"Layer '{self.name}' expects {len(self.states)} states, "
                f"but it received {len(values)} state values.")
        for variable, value in zip(self.states, values):
            if value is None:
                variable.assign(ops.zeros_like(variable))
                continue
            if tuple(ops.shape(value)) != tuple(variable.shape):
                raise ValueError(
                    f"State shape mismatch in layer '{self.name}': expected "
                    f"{tuple(variable.shape)}, received "
                    f"{tuple(ops.shape(value))}")
            variable.assign(value)

    def reset_states(self, states=None):
        """Alias of `reset_state`."""
        self.reset_state(states)

    # -- calling --------------------------------------------------------------
    def call(self, sequences, initial_state=None, mask=None, training=False):
        if self.unroll and sequences.shape[1] is None:
            raise ValueError(
                "Cannot unroll a RNN if the time dimension is undefined.")
        self._check_features(sequences)
        states = self._initial_states(sequences, initial_state)
        mask = mask_array(tree.flatten(mask)[0] if tree.is_nested(mask)
                          else mask)
        if mask is not None and tuple(mask.shape) != \
                tuple(sequences.shape[:2]):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects a "
                "mask of shape (batch, timesteps) = "
                f"{tuple(sequences.shape[:2])}. Received: mask.shape="
                f"{tuple(mask.shape)} for inputs of shape "
                f"{tuple(sequences.shape)}")
        self._prepare_dropout(self.cell, sequences[:, 0], states)
        try:
            output, states = self.inner_loop(sequences, states, mask,
                                             training)
        finally:
            self._reset_dropout(self.cell)
        if self.stateful and not call_context.in_trace():
            for variable, value in zip(self.states, tree.flatten(states)):
                variable.assign(value)
        output = _cast(output, self.compute_dtype)
        if self.return_state:
            states = [_cast(s, self.compute_dtype)
                      for s in (states if isinstance(states, list)
                                else [states])]
            return (output, *states)
        return output

    def _check_features(self, sequences):
        """A cell with a dense `kernel` takes the feature size it was
        built for."""
        kernel = getattr(self.cell, "kernel", None)
        shape = getattr(kernel, "shape", None)
        if shape is None or len(shape) != 2 or len(sequences.shape) != 3:
            return
        if sequences.shape[-1] is not None and \
                sequences.shape[-1] != shape[0]:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) was built for "
                f"inputs with {shape[0]} features, but received inputs of "
                f"shape {tuple(sequences.shape)}")

    def _initial_states(self, sequences, initial_state):
        batch = sequences.shape[0]
        if self.stateful:
            if self._expected_batch_size is not None and \
                    batch != self._expected_batch_size:
                raise ValueError(
                    "If an RNN is stateful, the batch size of the input "
                    "sequences must be the same as the batch size of the "
                    "initial state. \n- Expected batch size: "
                    f"{self._expected_batch_size}\n- Received batch size: "
                    f"{batch}")
        if initial_state is None:
            initial_state = (list(self.states) if self.stateful
                             else self.get_initial_state(batch))
        if not tree.is_nested(initial_state):
            initial_state = [initial_state]
        initial_state = list(initial_state)
        self._check_initial_state(initial_state, batch)
        dtype = getattr(self.cell, "compute_dtype", self.compute_dtype)
        return tree.map_structure(
            lambda s: ops.convert_to_tensor(s, dtype=dtype), initial_state)

    def _check_initial_state(self, states, batch):
        flat = tree.flatten(states)
        expected = tree.flatten(self.state_size)
        if len(flat) != len(expected):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects "
                f"{len(expected)} initial state(s) (state_size="
                f"{self.state_size}), but it received {len(flat)}.")
        for s, size in zip(flat, expected):
            shape = tuple(ops.shape(s))
            if len(shape) != 2 or shape[1] != size or shape[0] != batch:
                raise ValueError(
                    f"An initial state of layer '{self.name}' has shape "
                    f"{shape}; expected ({batch}, {size}).")

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """`(output, final_states)`: fused when the cell allows it."""
        fused = getattr(self.cell, "_fused_sequence", None)
        if fused is not None and (mask is None or not self.unroll):
            result = fused(self, sequences, initial_state, mask, training)
            if result is not None:
                return result
        return self._cell_loop(sequences, initial_state, mask, training)

    def _cell_loop(self, sequences, states, mask, training):
        kwargs = {}
        if isinstance(self.cell, Layer) and "training" in \
                self.cell._spec().names:
            kwargs["training"] = training

        def step(inputs, step_states):
            return self.cell(inputs, step_states, **kwargs)
        last, outputs, states = run_cell_loop(
            step, sequences, states, mask, self.go_backwards, self.unroll,
            self.zero_output_for_mask, self.return_sequences)
        return (outputs if self.return_sequences else last), states

    def _prepare_dropout(self, cell, step_input, states):
        """Draw this call's dropout masks before the loop (as Keras)."""
        if isinstance(cell, DropoutRNNCell):
            first = tree.flatten(states)[0]
            cell.get_dropout_mask(step_input)
            cell.get_recurrent_dropout_mask(first)
        if isinstance(cell, StackedRNNCells):
            for inner, inner_states in zip(cell.cells, states):
                self._prepare_dropout(inner, step_input, inner_states)
                # The next cell's input width is this cell's output size.
                step_input = ops.zeros(
                    (step_input.shape[0], _output_size(inner)),
                    step_input.dtype)

    def _reset_dropout(self, cell):
        if isinstance(cell, DropoutRNNCell):
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        if isinstance(cell, StackedRNNCells):
            for inner in cell.cells:
                self._reset_dropout(inner)

    # -- serialization --------------------------------------------------------
    def get_config(self):
        config = super().get_config()
        config.update({
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "stateful": self.stateful,
            "unroll": self.unroll,
            "zero_output_for_mask": self.zero_output_for_mask,
            "cell": serialization_lib.serialize_keras_object(self.cell)})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cell = serialization_lib.deserialize_keras_object(
            config.pop("cell"), custom_objects=custom_objects)
        return super().from_config(dict(config, cell=cell))


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    return size if size is not None else tree.flatten(cell.state_size)[0]


def _cast(x, dtype):
    if isinstance(x, Tensor) and dtype and x.dtype != dtype and \
            x.dtype.kind == "f":
        return ops.cast(x, dtype)
    return x
