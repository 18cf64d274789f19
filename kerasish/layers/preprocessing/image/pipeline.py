"""`Pipeline`: apply a list of layers in sequence (a lightweight
`Sequential` for preprocessing, which also passes dicts through)."""
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Pipeline(Layer):
    """Apply a sequence of layers, each to the previous one's output.

    Unlike `Sequential` it is not a model: it takes any input structure
    (e.g. the `{"images", "bounding_boxes", ...}` dicts of the image
    layers) and hands the `training` flag to the layers that take one.

    Args:
        layers: List of layers.
        name: Optional name.

    Example:

    >>> pipeline = Pipeline([kerasish.layers.RandomFlip(seed=0),
    ...                      kerasish.layers.Resizing(4, 4)])
    >>> pipeline(np.ones((2, 8, 8, 3))).shape
    (2, 4, 4, 3)
    """

    _convert_input_args = False

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        if not isinstance(layers, (list, tuple)) or not all(
                isinstance(layer, Layer) for layer in layers):
            raise ValueError("`layers` must be a list of layers. "
                             f"Received: layers={layers!r}")
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {}
            spec = layer._spec()
            if spec.has_mask and mask is not None:
                kwargs["mask"] = mask
            if spec.has_training and training is not None:
                kwargs["training"] = training
            inputs = layer(inputs, **kwargs)
            mask = getattr(inputs, "_keras_mask", None)
        return inputs

    def compute_output_spec(self, inputs, training=None, mask=None):
        for layer in self._pipeline_layers:
            inputs = layer.compute_output_spec(inputs)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        return {"layers": serialization_lib.serialize_keras_object(
                    self._pipeline_layers),
                "name": self.name}

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(
                "`Pipeline` config must contain a `layers` key mapping to a "
                f"list of serialized layers. Received config with "
                f"layers={layers}.")
        config = dict(config)
        config["layers"] = [serialization_lib.deserialize_keras_object(x)
                            for x in layers]
        return cls(**config)
