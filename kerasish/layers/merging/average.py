"""`Average` and its functional form `average`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Average(Merge):
    """Elementwise mean of a list of tensors.

    Example:

    >>> Average()([np.zeros((1, 2)), np.full((1, 2), 4.0)]).numpy()
    array([[2., 2.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = ops.add(output, x)
        return ops.divide(output, len(inputs))


def average(inputs, **kwargs):
    """Functional form of `Average`: `average([x1, x2, ...])`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.average([a, b]))
    array([[2. , 1.5]], dtype=float32)
    """
    return Average(**kwargs)(inputs)
