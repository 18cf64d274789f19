"""`Reshape`: reshape the non-batch axes to `target_shape`."""
import math

from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


def _validated(target_shape):
    try:
        target_shape = tuple(target_shape)
    except TypeError:
        raise ValueError(
            "Reshape: `target_shape` must be a tuple of integers. "
            f"Received: target_shape={target_shape!r}") from None
    if not all(isinstance(d, int) and not isinstance(d, bool)
               for d in target_shape):
        raise ValueError(
            "Reshape: `target_shape` must be a tuple of integers. "
            f"Received: target_shape={target_shape!r}")
    if any(d < -1 for d in target_shape):
        raise ValueError(
            "Each dimension in `target_shape` must be a non-negative "
            "integer, or `-1` for a single unknown dimension. Received: "
            f"target_shape={target_shape}.")
    if target_shape.count(-1) > 1:
        raise ValueError(
            "There must be at most one unknown dimension (-1) in "
            f"`target_shape`. Received: target_shape={target_shape}.")
    return target_shape


@builtin("keras.layers")
class Reshape(Layer):
    """Reshape inputs to `(batch,) + target_shape`.

    Args:
        target_shape: Tuple of ints, the shape of each sample (without the
            batch axis). One entry may be -1: it is inferred from the size
            of the input.

    Example:

    >>> Reshape((2, 6))(np.zeros((3, 12), "float32")).shape
    (3, 2, 6)
    >>> Reshape((-1, 2))(np.zeros((3, 4, 3), "float32")).shape
    (3, 6, 2)
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = _validated(target_shape)
        self.built = True

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolve(tuple(input_shape))

    def _resolve(self, input_shape):
        """`target_shape` with its -1 resolved (None if unknowable)."""
        known, target = input_shape[1:], self.target_shape
        if None in known:
            return tuple(None if d == -1 else d for d in target)
        size = math.prod(known)
        if -1 not in target:
            if size != math.prod(target):
                raise ValueError(self._mismatch(input_shape))
            return target
        rest = math.prod(d for d in target if d != -1)
        if rest == 0 or size % rest:
            raise ValueError(self._mismatch(input_shape))
        return tuple(size // rest if d == -1 else d for d in target)

    def _mismatch(self, input_shape):
        return (f"Layer '{self.name}' (Reshape): the total size of the "
                "tensor must be unchanged. Received: input_shape="
                f"{tuple(input_shape)}, target_shape={self.target_shape}")

    def call(self, inputs):
        target = self._resolve(tuple(inputs.shape))
        return ops.reshape(inputs, (inputs.shape[0],) + target)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config
