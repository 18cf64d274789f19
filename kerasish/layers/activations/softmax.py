"""`Softmax`: softmax over an axis, honouring a mask."""
import numpy as np

from kerasish import activations, ops
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


def _large_negative(dtype):
    # Keras's stand-in for -inf: finite, so a fully masked row stays finite.
    return -3e4 if np.dtype(dtype) == np.float16 else -1e9


@builtin("keras.layers")
class Softmax(Layer):
    """Softmax activation over `axis`.

    Positions where `mask` is False (or <= 0.5) get probability 0: they are
    replaced by a large negative number before the softmax and zeroed
    after it, so a fully masked row gives zeros.

    Args:
        axis: Int or tuple of ints, the axes normalized. Defaults to -1.
        **kwargs: Base layer arguments.

    Call arguments:
        inputs: The logits.
        mask: Optional mask broadcastable to `inputs`.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0]], "float32")
    >>> Softmax()(x, mask=np.array([[True, True, False]])).numpy()
    array([[0.2689414, 0.7310586, 0.       ]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True
        self.built = True

    def call(self, inputs, mask=None):
        if mask is not None:
            mask = self._checked_mask(inputs, mask)
            inputs = ops.where(mask, inputs, _large_negative(inputs.dtype))
        axis = self.axis
        if isinstance(axis, (tuple, list)) and len(axis) == 1:
            axis = axis[0]
        outputs = activations.softmax(inputs, axis=axis)
        if mask is not None:
            outputs = ops.where(mask, outputs, 0.0)
        return outputs

    def _checked_mask(self, inputs, mask):
        mask = ops.convert_to_tensor(mask)
        if mask.ndim > inputs.ndim or any(
                m != 1 and m != i for m, i in zip(mask.shape[::-1],
                                                  inputs.shape[::-1])):
            raise ValueError(
                "The `mask` must be broadcastable to `inputs`: each mask "
                "dimension must be 1 or match the input dimension, with no "
                f"more dimensions. Received: inputs.shape={inputs.shape}, "
                f"mask.shape={mask.shape}")
        if mask.dtype != bool:
            mask = ops.greater(mask, 0.5)
        return mask

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
