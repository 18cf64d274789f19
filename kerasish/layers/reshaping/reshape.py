"""`Reshape`: reshape the non-batch axes to `target_shape`."""
import numpy as np

from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Reshape(Layer):
    """Reshape inputs to `(batch,) + target_shape` (one entry may be -1).

    Example:

    >>> Reshape((2, 6))(np.zeros((3, 12), "float32")).shape
    (3, 2, 6)
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        if target_shape.count(-1) > 1:
            raise ValueError(
                "The argument `target_shape` can only contain one unknown "
                f"dimension (-1). Received: target_shape={target_shape}")
        self.target_shape = target_shape
        self.built = True

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolve(input_shape)

    def _resolve(self, input_shape):
        if -1 not in self.target_shape:
            known = input_shape[1:]
            if None not in known and int(np.prod(known)) != \
                    int(np.prod(self.target_shape)):
                raise ValueError(self._mismatch(input_shape))
            return self.target_shape
        known = input_shape[1:]
        if None in known:
            return tuple(None if d == -1 else d for d in self.target_shape)
        total = int(np.prod(known))
        rest = int(np.prod([d for d in self.target_shape if d != -1]))
        if rest == 0 or total % rest:
            raise ValueError(self._mismatch(input_shape))
        return tuple(total // rest if d == -1 else d
                     for d in self.target_shape)

    def _mismatch(self, input_shape):
        return (f"Layer '{self.name}' (Reshape): total size of the input "
                f"shape {tuple(input_shape)} without the batch axis is not "
                f"compatible with target_shape={self.target_shape}")

    def call(self, inputs):
        target = self._resolve(tuple(inputs.shape))
        return ops.reshape(inputs, (inputs.shape[0],) + target)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config
