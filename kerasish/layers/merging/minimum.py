"""`Minimum` and its functional form `minimum`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Minimum(Merge):
    """Elementwise minimum of a list of tensors; masked-out entries of one
    input defer to the others.

    Example:

    >>> Minimum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).numpy()
    array([[1., 2.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        return self._apply_merge_op_and_or_mask(ops.minimum, inputs)


def minimum(inputs, **kwargs):
    """Functional form of `Minimum`: `minimum([x1, x2, ...])`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.minimum([a, b]))
    array([[1., 1.]], dtype=float32)
    """
    return Minimum(**kwargs)(inputs)
