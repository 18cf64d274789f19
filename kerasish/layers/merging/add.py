"""`Add` and its functional form `add`."""
from kerasish import ops
from kerasish.backend import math as M
from kerasish.backend.tensor import Tensor
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Add(Merge):
    """Elementwise sum of a list of tensors (broadcasting allowed).

    Example:

    >>> Add()([np.ones((2, 3)), np.full((2, 3), 2.0)]).numpy()[0]
    array([3., 3., 3.], dtype=float32)
    """

    def _merge_function(self, inputs):
        same = all(type(x) is Tensor for x in inputs) and \
            len({x.dtype for x in inputs}) == 1
        add = M.add if same else ops.add
        output = inputs[0]
        for x in inputs[1:]:
            output = add(output, x)
        return output


def add(inputs, **kwargs):
    """Functional form of `Add`: `add([x1, x2, ...])`.

    Example:

    >>> add([np.ones(2), np.ones(2)]).numpy()
    array([2., 2.], dtype=float32)
    """
    return Add(**kwargs)(inputs)
