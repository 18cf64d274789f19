"""`Bidirectional`: run a recurrent layer forwards and backwards."""
import copy

from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


@builtin("keras.layers")
class Bidirectional(Layer):
    """Bidirectional wrapper for RNNs.

    A copy of `layer` reads the sequence forwards (`forward_layer`) and
    another copy (or `backward_layer`) reads it backwards; their outputs
    are merged. With `return_sequences`, the backward outputs are flipped
    back into input order and masked steps output zeros.

    Args:
        layer: An `RNN` instance (LSTM, GRU, ...) or any sequence layer with
            `go_backwards`, `return_sequences` and `return_state`.
        merge_mode: `"concat"` (default), `"sum"`, `"mul"`, `"ave"`, or
            `None` to return both outputs as a list.
        weights: Optional initial weights (forward's, then backward's).
        backward_layer: Optional layer for the backward direction; it must
            have `go_backwards=True` if `layer` does not, and the same
            `stateful`, `return_sequences` and `return_state`.

    Call arguments:
        sequences, mask, training: As for the wrapped layer.
        initial_state: Optional list: the forward states, then the backward
            states.

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.Bidirectional(kerasish.layers.LSTM(4))
    >>> layer(np.ones((2, 5, 3), "float32")).shape
    (2, 8)
    """

    def __init__(self, layer, merge_mode="concat", weights=None,
                 backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                "Please initialize `Bidirectional` layer with a "
                f"`keras.layers.Layer` instance. Received: {layer}")
        if backward_layer is not None and \
                not isinstance(backward_layer, Layer):
            raise ValueError(
                "`backward_layer` need to be a `keras.layers.Layer` "
                f"instance. Received: {backward_layer}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(
                f"Invalid merge mode. Received: {merge_mode}. Merge mode "
                'should be one of {"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        self.forward_layer = _copy_layer(layer, "forward_")
        self.backward_layer = backward_layer if backward_layer is not None \
            else _copy_layer(layer, "backward_", go_backwards=True)
        if hasattr(layer, "use_cudnn"):
            self.forward_layer.use_cudnn = layer.use_cudnn
            self.backward_layer.use_cudnn = layer.use_cudnn
        self._verify_layer_config()
        for direction in (self.forward_layer, self.backward_layer):
            if getattr(direction, "zero_output_for_mask", None) is not None:
                direction.zero_output_for_mask = direction.return_sequences
        self.merge_mode = merge_mode
        self._initial_weights = weights
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec

    def _verify_layer_config(self):
        fwd, bwd = self.forward_layer, self.backward_layer
        if fwd.go_backwards == bwd.go_backwards:
            raise ValueError(
                "Forward layer and backward layer should have different "
                "`go_backwards` value. Received: forward_layer.go_backwards "
                f"{fwd.go_backwards}, backward_layer.go_backwards="
                f"{bwd.go_backwards}")
        for attr in ("stateful", "return_sequences", "return_state"):
            if getattr(fwd, attr) != getattr(bwd, attr):
                raise ValueError(
                    "Forward layer and backward layer are expected to have "
                    f'the same value for attribute "{attr}", got '
                    f'"{getattr(fwd, attr)}" for forward layer and '
                    f'"{getattr(bwd, attr)}" for backward layer')

    def build(self, sequences_shape, initial_state_shape=None):
        for direction in (self.forward_layer, self.backward_layer):
            if not direction.built:
                direction.build(sequences_shape)
        if self._initial_weights:
            half = len(self._initial_weights) // 2
            self.forward_layer.set_weights(self._initial_weights[:half])
            self.backward_layer.set_weights(self._initial_weights[half:])
            self._initial_weights = None

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        output_shape = self.forward_layer.compute_output_shape(
            sequences_shape)
        state_shape = ()
        if self.return_state:
            output_shape, state_shape = output_shape[0], output_shape[1:]
        if self.merge_mode == "concat":
            output_shape = tuple(output_shape[:-1]) + (output_shape[-1] * 2,)
        elif self.merge_mode is None:
            output_shape = [output_shape, output_shape]
        if self.return_state:
            if self.merge_mode is None:
                return tuple(output_shape) + state_shape + state_shape
            return (output_shape,) + state_shape + state_shape
        return tuple(output_shape) if self.merge_mode is None \
            else output_shape

    def call(self, sequences, initial_state=None, mask=None, training=None):
        kwargs = {}
        if self.forward_layer._spec().has_training:
            kwargs["training"] = training
        if self.forward_layer._spec().has_mask:
            kwargs["mask"] = mask
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state = list(initial_state[:half])
            backward_state = list(initial_state[half:])
        y = self.forward_layer(sequences, initial_state=forward_state,
                               **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state,
                                    **kwargs)
        states = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = ops.flip(y_rev, axis=1)
        output = self._merge(y, y_rev)
        if self.return_state:
            return (output + states) if self.merge_mode is None \
                else (output,) + states
        return output

    def _merge(self, y, y_rev):
        if self.merge_mode == "concat":
            return ops.concatenate([y, y_rev], axis=-1)
        if self.merge_mode == "sum":
            return y + y_rev
        if self.merge_mode == "ave":
            return (y + y_rev) / 2
        if self.merge_mode == "mul":
            return y * y_rev
        return (y, y_rev)

    def compute_mask(self, _, mask):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = (mask, mask) if not self.merge_mode else mask
        else:
            output_mask = (None, None) if not self.merge_mode else None
        if self.return_state and self.states is not None:
            state_mask = tuple(None for _ in self.states)
            if isinstance(output_mask, tuple):
                return output_mask + state_mask
            return (output_mask,) + state_mask
        return output_mask

    @property
    def states(self):
        fwd = getattr(self.forward_layer, "states", None)
        bwd = getattr(self.backward_layer, "states", None)
        if fwd and bwd:
            return tuple(fwd) + tuple(bwd)
        return None

    def reset_state(self):
        """Zero the states of both directions (stateful layers only)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        self.forward_layer.reset_state()
        self.backward_layer.reset_state()

    def reset_states(self):
        self.reset_state()

    def get_config(self):
        config = super().get_config()
        config["merge_mode"] = self.merge_mode
        config["layer"] = serialization_lib.serialize_keras_object(
            self.forward_layer)
        config["backward_layer"] = serialization_lib.serialize_keras_object(
            self.backward_layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = copy.deepcopy(config)
        config["layer"] = serialization_lib.deserialize_keras_object(
            config["layer"], custom_objects=custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            config["backward_layer"] = \
                serialization_lib.deserialize_keras_object(
                    backward, custom_objects=custom_objects)
        return super().from_config(config)


def _copy_layer(layer, prefix, go_backwards=None):
    """A fresh, unbuilt copy of `layer` (from its config) named `prefix...`."""
    config = serialization_lib.serialize_keras_object(layer)
    if go_backwards is not None:
        config["config"]["go_backwards"] = go_backwards
    config["config"]["name"] = prefix + layer.name.removeprefix(prefix)
    return serialization_lib.deserialize_keras_object(config)
