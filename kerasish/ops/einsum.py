"""`ops.einsum`: Einstein summation over any number of operands."""
import numpy as np

from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import einsum as E
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_base import _kept_bfloat16
from kerasish.ops.symbolic import keras_op


@keras_op
def einsum(subscripts, *operands, **kwargs):
    """Evaluate the Einstein summation convention on the operands.

    Supports explicit (`"ij,jk->ik"`) and implicit (`"ij,jk"`) outputs,
    `...` for broadcast dimensions, repeated letters (traces and
    diagonals, `"ii->i"`), and is differentiable with respect to every
    floating-point operand. Integer operands meeting float ones are
    promoted to the float type, as in Keras.

    Args:
        subscripts: The summation, as a string of comma-separated
            subscript labels.
        *operands: The tensors.
        **kwargs: Accepted for compatibility with `keras.ops.einsum`
            (backend-specific options); they do not change the result.

    Returns:
        The result tensor.

    Example:

    >>> a = np.arange(6.0).reshape(2, 3)
    >>> b = np.ones((3, 4))
    >>> einsum("ij,jk->ik", a, b).shape
    (2, 4)
    >>> float(einsum("ii", np.eye(3)))
    3.0
    """
    if not isinstance(subscripts, str):
        raise ValueError(
            "`subscripts` must be a string such as 'ij,jk->ik'. "
            f"Received: subscripts={subscripts!r}")
    if not operands:
        raise ValueError("einsum needs at least one operand. Received: "
                         "no operands")
    tensors = [convert_to_tensor(x) for x in operands]
    tensors = _promote(tensors)
    shapes = [tuple(t.shape) for t in tensors]
    inputs, output = E.parse_subscripts(subscripts, shapes)
    E.letter_sizes(inputs, shapes, subscripts)
    out = E.einsum(*tensors, inputs=tuple(inputs), output=output)
    return _kept_bfloat16(out, tensors[0])


def _promote(tensors):
    dtype = dtypes_module.result_type(*[t.dtype for t in tensors])
    if dtype == "int8":
        dtype = "int32"     # as Keras (aligned with JAX): no int8 wrap-around
    if all(np.dtype(t.dtype) == np.dtype(dtype) for t in tensors):
        return tensors
    return [cast(t, dtype) for t in tensors]


__all__ = ["einsum"]
