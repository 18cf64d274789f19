"""`Masking`: mark timesteps equal to `mask_value` as padding."""
from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import deserialize_keras_object


@builtin("keras.layers")
class Masking(Layer):
    """Mask the timesteps whose features all equal `mask_value`.

    For an input `(batch, timesteps, features)`, a timestep is masked when
    every feature equals `mask_value`; its output is zeroed and the mask
    `(batch, timesteps)` is attached for downstream layers (RNNs, pooling,
    attention, losses).

    Args:
        mask_value: The padding value. Defaults to 0.0.
        **kwargs: Base layer arguments.

    Example:

    >>> x = np.array([[[1.0, 2.0], [0.0, 0.0]]], "float32")
    >>> Masking()(x)._keras_mask.numpy()
    array([[ True, False]])
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        # A saved config may hold the value as a serialized tensor.
        if isinstance(mask_value, dict) and mask_value.get("config"):
            mask_value = deserialize_keras_object(mask_value)
        self.mask_value = mask_value
        self.supports_masking = True
        self.built = True

    def compute_mask(self, inputs, mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), axis=-1,
                       keepdims=True)
        outputs = ops.where(keep, inputs, 0)
        outputs._keras_mask = ops.squeeze(keep, axis=-1)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config
