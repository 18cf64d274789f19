"""`Wrapper`: the base of layers that wrap another layer."""
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Wrapper(Layer):
    """Abstract base of wrappers (`TimeDistributed`, ...).

    The wrapped layer is held as `self.layer`, so its weights are saved at
    `<wrapper>/layer/vars`, as in Keras.

    Args:
        layer: The layer to wrap.

    Example:

    >>> import kerasish
    >>> td = kerasish.layers.TimeDistributed(kerasish.layers.Dense(2))
    >>> isinstance(td, kerasish.layers.Wrapper), td.layer.units
    (True, 2)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                f"Layer {layer} supplied to Wrapper isn't a supported layer "
                "type. Please ensure wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialization_lib.serialize_keras_object(
            self.layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = serialization_lib.deserialize_keras_object(
            config.pop("layer"), custom_objects=custom_objects)
        return super().from_config(dict(config, layer=layer))
