"""`StackedRNNCells`: several cells behaving as one."""
from kerasish import ops, tree
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class StackedRNNCells(Layer):
    """Wrapper allowing a stack of RNN cells to behave as a single cell.

    Each step feeds the input to the first cell, its output to the second,
    and so on; the states are one entry per cell.

    Args:
        cells: List of RNN cell instances.

    Example:

    >>> import kerasish
    >>> cells = [kerasish.layers.LSTMCell(6) for _ in range(2)]
    >>> rnn = kerasish.layers.RNN(kerasish.layers.StackedRNNCells(cells))
    >>> rnn(np.ones((3, 5, 2), "float32")).shape
    (3, 6)
    """

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(
                    "All cells must have a `call` method. Received cell "
                    f"without a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError(
                    "All cells must have a `state_size` attribute. Received "
                    f"cell without a `state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        return tree.flatten(last.state_size)[0]

    def get_initial_state(self, batch_size=None):
        states = []
        for cell in self.cells:
            make = getattr(cell, "get_initial_state", None)
            if make is not None:
                states.append(make(batch_size=batch_size))
            elif isinstance(cell.state_size, int):
                states.append(ops.zeros((batch_size, cell.state_size),
                                        dtype=self.compute_dtype))
            else:
                states.append([ops.zeros((batch_size, d),
                                         dtype=self.compute_dtype)
                               for d in cell.state_size])
        return states

    def call(self, inputs, states, training=False, **kwargs):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            was_list = tree.is_nested(cell_states)
            cell_states = list(cell_states) if was_list else [cell_states]
            call_kwargs = dict(kwargs)
            if isinstance(cell, Layer) and "training" in cell._spec().names:
                call_kwargs["training"] = training
            fn = cell.__call__ if callable(cell) else cell.call
            inputs, cell_states = fn(inputs, cell_states, **call_kwargs)
            if not tree.is_nested(cell_states):
                cell_states = [cell_states]
            if len(cell_states) == 1 and not was_list:
                cell_states = cell_states[0]
            new_states.append(cell_states)
        if len(new_states) == 1:
            new_states = new_states[0]
        return inputs, new_states

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(input_shape)
            size = getattr(cell, "output_size", None)
            if size is None:
                size = tree.flatten(cell.state_size)[0]
            input_shape = (tree.flatten(input_shape)[0], size)

    def get_config(self):
        config = super().get_config()
        config["cells"] = [serialization_lib.serialize_keras_object(c)
                           for c in self.cells]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cells = [serialization_lib.deserialize_keras_object(
            c, custom_objects=custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)
