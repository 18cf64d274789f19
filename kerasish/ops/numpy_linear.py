"""Products of `keras.ops.numpy`: matmul, dot, tensordot, outer, inner,
vdot, kron, cross and vander, all differentiable."""
import numpy as np

from kerasish.backend import linalg as L
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import _promote, _tensors, multiply, subtract
from kerasish.ops.numpy_bits import conj
from kerasish.ops.numpy_reduce import cumprod, sum
from kerasish.ops.numpy_join import concatenate, stack
from kerasish.ops.numpy_shape import (broadcast_to, expand_dims, flip,
                                      moveaxis, ravel, reshape, transpose)
from kerasish.ops.symbolic import keras_op
from kerasish.ops.core import cast

__all__ = ["matmul", "dot", "tensordot", "outer", "vdot", "inner", "kron",
           "cross", "vander"]


@keras_op
def matmul(x1, x2):
    """Matrix product with numpy's broadcasting rules.

    Args:
        x1: Tensor of rank >= 1.
        x2: Tensor of rank >= 1.

    Returns:
        The product.

    Example:

    >>> matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    """
    x1, x2 = _int8_products_in_int32(*_promote(x1, x2))
    return L.matmul(*_tensors(x1, x2))


def _int8_products_in_int32(*tensors):
    """As Keras (aligned with JAX): int8 products accumulate and come out
    in int32, instead of wrapping around in int8."""
    tensors = [convert_to_tensor(t) for t in tensors]
    if all(str(t.dtype) == "int8" for t in tensors):
        return [cast(t, "int32") for t in tensors]
    return tensors


@keras_op
def dot(x1, x2):
    """numpy's `dot`: products of scalars, vectors and matrices.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        The sum of products over the last axis of `x1` and the
        second-to-last of `x2`.

    Example:

    >>> dot([1, 2], [3, 4]).numpy()
    array(11, dtype=int32)
    """
    x1, x2 = _tensors(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return multiply(x1, x2)
    if x2.ndim <= 2:
        # Unlike matmul, Keras's dot keeps int8 products in int8.
        return L.matmul(*_tensors(*_promote(x1, x2)))
    return tensordot(x1, x2, axes=([x1.ndim - 1], [x2.ndim - 2]))


def _axes_list(axes, ndim):
    if isinstance(axes, (int, np.integer)):
        return [int(axes) % ndim]
    return [int(a) % ndim for a in axes]


@keras_op
def tensordot(x1, x2, axes=2):
    """Sum products over the given axes (numpy's `tensordot`).

    Args:
        x1: Input tensor.
        x2: Input tensor.
        axes: Int `n` (last `n` axes of `x1` with first `n` of `x2`) or a
            pair of axis lists. Defaults to 2.

    Returns:
        The contraction.

    Example:

    >>> tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1).shape
    (2, 4)
    """
    x1, x2 = _tensors(x1, x2)
    if isinstance(axes, (int, np.integer)):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = _axes_list(axes[0], x1.ndim), _axes_list(axes[1], x2.ndim)
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = int(np.prod([x1.shape[i] for i in a1]))
    left = reshape(transpose(x1, free1 + a1), (-1, k))
    right = reshape(transpose(x2, a2 + free2), (k, -1))
    out_shape = [x1.shape[i] for i in free1] + [x2.shape[i] for i in free2]
    return reshape(matmul(left, right), out_shape)


@keras_op
def outer(x1, x2):
    """Outer product of the flattened inputs.

    Args:
        x1: Input tensor (flattened).
        x2: Input tensor (flattened).

    Returns:
        Matrix of shape `(x1.size, x2.size)`.

    Example:

    >>> outer([1, 2], [3, 4]).numpy()
    array([[3, 4],
           [6, 8]], dtype=int32)
    """
    x1, x2 = _tensors(x1, x2)
    return multiply(reshape(x1, (-1, 1)), reshape(x2, (1, -1)))


@keras_op
def vdot(x1, x2):
    """Dot product of the flattened inputs (`x1` conjugated if complex).

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        A scalar.

    Example:

    >>> vdot([[1, 2]], [3, 4]).numpy()
    array(11, dtype=int32)
    """
    x1, x2 = _tensors(x1, x2)
    if x1.dtype.kind == "c":
        x1 = conj(x1)
    return sum(multiply(ravel(x1), ravel(x2)))


@keras_op
def inner(x1, x2):
    """Sum of products over the last axes.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Tensor of shape `x1.shape[:-1] + x2.shape[:-1]`.

    Example:

    >>> inner([1, 2], [3, 4]).numpy()
    array(11, dtype=int32)
    """
    x1, x2 = _tensors(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return multiply(x1, x2)
    return tensordot(x1, x2, axes=([-1], [-1]))


@keras_op
def kron(x1, x2):
    """Kronecker product: blocks `x1[i, j] * x2`.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Tensor whose shape is the elementwise product of the (left-padded)
        input shapes.

    Example:

    >>> kron([[1, 0], [0, 1]], [[1, 2]]).numpy()
    array([[1, 2, 0, 0],
           [0, 0, 1, 2]], dtype=int32)
    """
    x1, x2 = _tensors(x1, x2)
    ndim = max(x1.ndim, x2.ndim)
    s1 = (1,) * (ndim - x1.ndim) + tuple(x1.shape)
    s2 = (1,) * (ndim - x2.ndim) + tuple(x2.shape)
    a = reshape(x1, [d for n in s1 for d in (n, 1)])
    b = reshape(x2, [d for n in s2 for d in (1, n)])
    return reshape(multiply(a, b), [m * n for m, n in zip(s1, s2)])


def _as_3d(v):
    """A 2-vector axis gets a zero z-component."""
    if v.shape[-1] == 3:
        return v
    return concatenate([v, Tensor(np.zeros(v.shape[:-1] + (1,), v.dtype))],
                       axis=-1)


@keras_op
def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-vectors along the given axes.

    Args:
        x1: Vectors along `axisa`.
        x2: Vectors along `axisb`.
        axisa: Axis of `x1` holding the vectors. Defaults to -1.
        axisb: Axis of `x2` holding the vectors. Defaults to -1.
        axisc: Axis of the result holding the vectors. Defaults to -1.
        axis: If given, overrides the three axes.

    Returns:
        The cross products (scalars when both inputs are 2-vectors).

    Example:

    >>> cross([1, 0, 0], [0, 1, 0]).numpy()
    array([0, 0, 1], dtype=int32)
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _tensors(x1, x2)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("Incompatible dimensions for cross product: "
                         "dimension must be 2 or 3. Received: "
                         f"x1 vectors of size {a.shape[-1]}, x2 vectors of "
                         f"size {b.shape[-1]}")
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return subtract(multiply(a[..., 0], b[..., 1]),
                        multiply(a[..., 1], b[..., 0]))
    a, b = _as_3d(a), _as_3d(b)
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = broadcast_to(a, shape), broadcast_to(b, shape)
    parts = [subtract(multiply(a[..., i], b[..., j]),
                      multiply(a[..., j], b[..., i]))
             for i, j in ((1, 2), (2, 0), (0, 1))]
    return moveaxis(stack(parts, axis=-1), -1, axisc)


@keras_op
def vander(x, N=None, increasing=False):
    """Vandermonde matrix: columns are powers of `x`.

    Args:
        x: 1-D tensor.
        N: Number of columns. Defaults to `len(x)`.
        increasing: Powers increase left to right if `True`; by default
            they decrease (`x**(N-1)` first).

    Returns:
        Matrix of shape `(len(x), N)`.

    Example:

    >>> vander([1, 2, 3]).numpy()
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError("Input tensor must be 1-dimensional. "
                         f"Received: input.shape={x.shape}")
    if N is not None and not isinstance(N, (int, np.integer)):
        raise TypeError(f"Argument `N` must be of type `int`. Received: "
                        f"N={N} of type {type(N)}")
    if N is not None and N < 0:
        raise ValueError(f"Argument 'N' must be nonnegative. Received: N={N}")
    if not isinstance(increasing, bool):
        raise TypeError("Argument `increasing` must be of type `bool`. "
                        f"Received: increasing={increasing} of type "
                        f"{type(increasing)}")
    n = x.shape[0] if N is None else int(N)
    if n == 0:
        return Tensor(np.zeros((x.shape[0], 0), x.dtype))
    # Running products keep the gradient exact at x == 0 (x**0 == 1).
    ones = Tensor(np.ones((x.shape[0], 1), x.dtype))
    factors = concatenate([ones, broadcast_to(expand_dims(x, 1),
                                              (x.shape[0], n - 1))], axis=1)
    powers = cumprod(factors, axis=1)
    return powers if increasing else flip(powers, 1)

