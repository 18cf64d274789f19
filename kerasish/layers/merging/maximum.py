"""`Maximum` and its functional form `maximum`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Maximum(Merge):
    """Elementwise maximum of a list of tensors; masked-out entries of one
    input defer to the others.

    Example:

    >>> Maximum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).numpy()
    array([[3., 5.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        return self._apply_merge_op_and_or_mask(ops.maximum, inputs)


def maximum(inputs, **kwargs):
    """Functional form of `Maximum`: `maximum([x1, x2, ...])`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.maximum([a, b]))
    array([[3., 2.]], dtype=float32)
    """
    return Maximum(**kwargs)(inputs)
