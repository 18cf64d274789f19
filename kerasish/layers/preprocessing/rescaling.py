"""`Rescaling`: `inputs * scale + offset`."""
import numpy as np

from kerasish import backend, ops
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Rescaling(Layer):
    """Rescale inputs to a new range: `inputs * scale + offset`.

    E.g. `Rescaling(1 / 255)` maps `[0, 255]` to `[0, 1]`;
    `Rescaling(1 / 127.5, offset=-1)` maps it to `[-1, 1]`. `scale` and
    `offset` may be arrays (per channel); with `channels_first` images a
    per-channel scale is laid along axis 1.

    Args:
        scale: Float or array.
        offset: Float or array. Defaults to 0.
        **kwargs: Base layer arguments.

    Example:

    >>> Rescaling(1 / 255)(np.array([[0, 51, 255]])).numpy().round(3)
    array([[0. , 0.2, 1. ]], dtype=float32)
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs):
        dtype = self.compute_dtype
        scale = np.asarray(self.scale, dtype)
        offset = np.asarray(self.offset, dtype)
        if scale.ndim and backend.image_data_format() == "channels_first":
            scale = scale.reshape(scale.shape + (1,) * (3 - scale.ndim))
        return ops.add(ops.multiply(ops.cast(inputs, dtype), scale), offset)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "scale": serialization_lib.serialize_keras_object(self.scale),
            "offset": serialization_lib.serialize_keras_object(self.offset),
        })
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        for key in ("scale", "offset"):
            config[key] = serialization_lib.deserialize_keras_object(
                config[key], custom_objects=custom_objects)
        return super().from_config(config)
