"""What SimpleRNN, LSTM and GRU share: a built-in cell held as `self.cell`
(so weights live at `<layer>/<cell name>/kernel` and `.../cell/vars` in
files), the cell's arguments exposed as read-only properties, and a flat
config (the cell's arguments, not a nested `"cell"`)."""
from kerasish import activations, constraints, initializers, regularizers
from kerasish.layers.rnn.rnn import RNN

_SERIALIZERS = {
    "activation": activations.serialize,
    "recurrent_activation": activations.serialize,
    "kernel_initializer": initializers.serialize,
    "recurrent_initializer": initializers.serialize,
    "bias_initializer": initializers.serialize,
    "kernel_regularizer": regularizers.serialize,
    "recurrent_regularizer": regularizers.serialize,
    "bias_regularizer": regularizers.serialize,
    "activity_regularizer": regularizers.serialize,
    "kernel_constraint": constraints.serialize,
    "recurrent_constraint": constraints.serialize,
    "bias_constraint": constraints.serialize,
}


class RecurrentLayer(RNN):
    """Base of SimpleRNN, LSTM and GRU (not a public class).

    Subclasses set `_cell_class`, `_cell_name` and `_cell_args`.
    """

    _cell_class = None
    _cell_name = None
    _cell_args = ()

    def __init_subclass__(cls, **kwargs):
        # The cell's arguments read through the layer (`lstm.units`), as
        # Keras's read-only properties do.
        super().__init_subclass__(**kwargs)
        for name in cls._cell_args:
            if not hasattr(cls, name):
                setattr(cls, name, _cell_property(name))

    def __init__(self, cell_kwargs, return_sequences, return_state,
                 go_backwards, stateful, unroll, use_cudnn,
                 activity_regularizer, kwargs):
        if "implementation" in kwargs:
            cell_kwargs["implementation"] = kwargs.pop("implementation")
        cell = self._cell_class(
            dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
            name=self._cell_name, **cell_kwargs)
        super().__init__(cell, return_sequences=return_sequences,
                         return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)
        if use_cudnn not in ("auto", True, False):
            raise ValueError(
                "Invalid valid received for argument `use_cudnn`. Expected "
                "one of {'auto', True, False}. "
                f"Received: use_cudnn={use_cudnn}")
        self.use_cudnn = use_cudnn

    def inner_loop(self, sequences, initial_state, mask, training=False):
        if self.use_cudnn is True:
            raise ValueError(
                "use_cudnn=True was specified, but cuDNN is not supported "
                "for this layer configuration with this backend. Pass "
                "use_cudnn='auto' to fallback to a non-cuDNN implementation.")
        return super().inner_loop(sequences, initial_state, mask, training)

    def _layer_config(self, keys):
        config = super().get_config()
        del config["cell"]
        for key in keys:
            value = self.activity_regularizer if \
                key == "activity_regularizer" else getattr(self.cell, key)
            serialize = _SERIALIZERS.get(key)
            config[key] = serialize(value) if serialize else value
        return config

    @classmethod
    def from_config(cls, config):
        return super(RNN, cls).from_config(config)


def _cell_property(name):
    return property(lambda self: getattr(self.cell, name),
                    doc=f"The cell's `{name}`.")
