"""`Subtract` and its functional form `subtract`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


def _require_two(layer, count, what):
    if count != 2:
        raise ValueError(
            f"A `{type(layer).__name__}` layer should be called on exactly 2 "
            f"inputs. Received: {what}")


@builtin("keras.layers")
class Subtract(Merge):
    """`inputs[0] - inputs[1]`, for exactly two tensors.

    Example:

    >>> Subtract()([np.full((1, 2), 5.0), np.ones((1, 2))]).numpy()
    array([[4., 4.]], dtype=float32)
    """

    def build(self, input_shape):
        super().build(input_shape)
        _require_two(self, len(input_shape),
                     f"input_shape={list(map(tuple, input_shape))}")

    def _merge_function(self, inputs):
        _require_two(self, len(inputs), f"{len(inputs)} inputs")
        return ops.subtract(inputs[0], inputs[1])


def subtract(inputs, **kwargs):
    """Functional form of `Subtract`: `subtract([x1, x2])`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.subtract([a, b]))
    array([[-2.,  1.]], dtype=float32)
    """
    return Subtract(**kwargs)(inputs)
