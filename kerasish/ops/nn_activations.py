"""Activation ops of `keras.ops.nn` (re-exported by `kerasish.ops.nn`).

Formulas and the choices at kinks follow Keras 3 on JAX (e.g. `relu` has
gradient 0 at 0, `leaky_relu` takes the identity branch at 0). Integer
inputs are cast to the float type first. `gelu` and `sparsemax` are fused
primitives; the rest are composites whose gradients come from their parts.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend import nn as N
from kerasish.backend import special
from kerasish.backend.primitive import primitive
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops import numpy as knp
from kerasish.ops.symbolic import keras_op

__all__ = ["relu", "relu6", "sigmoid", "sparse_sigmoid", "softplus",
           "softsign", "soft_shrink", "sparse_plus", "silu", "swish",
           "squareplus", "log_sigmoid", "leaky_relu", "hard_sigmoid",
           "hard_silu", "hard_swish", "elu", "selu", "gelu", "celu", "glu",
           "tanh_shrink", "hard_tanh", "hard_shrink", "threshold", "softmax",
           "log_softmax", "sparsemax"]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# Ints and bools become floatx; float16/32/64 and bfloat16 stay as they are.
from kerasish.ops.numpy_base import _float, _kept_bfloat16  # noqa: E402


@keras_op
def relu(x):
    """`max(x, 0)`, with gradient 0 at 0.

    >>> relu([-1.0, 0.0, 2.0]).numpy()
    array([0., 0., 2.], dtype=float32)
    """
    x = convert_to_tensor(x)
    # Keras keeps integer inputs integer here (max(x, 0) is exact).
    return N.relu(x if x.dtype.kind in "iu" else _float(x))


@keras_op
def relu6(x):
    """`min(max(x, 0), 6)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.relu6(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0. , 0. , 0. , 0.5, 2. ], dtype=float32)
    """
    positive = N.relu(_float(x))
    # `where` rather than `minimum`: at exactly 6 the gradient is 0, as in
    # Keras's JAX backend (jax.nn.relu6), so hard_sigmoid and hard_silu get
    # Keras's gradients at their upper kink too.
    return knp.where(knp.greater_equal(positive, 6.0), 6.0, positive)


@keras_op
def sigmoid(x):
    """`1 / (1 + exp(-x))`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1192, 0.3775, 0.5   , 0.6225, 0.8808], dtype=float32)
    """
    return N.sigmoid(_float(x))


@keras_op
def sparse_sigmoid(x):
    """0 below -1, 1 above 1, and `(x + 1) / 2` in between.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.sparse_sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)
    """
    # A clip through maximum/minimum, whose ties share the gradient: 0.25
    # at x = -1 and x = 1, as in Keras's JAX backend.
    x = _float(x)
    clipped = knp.minimum(knp.maximum(knp.add(x, 1.0), 0.0), 2.0)
    return knp.multiply(clipped, 0.5)


@keras_op
def softplus(x):
    """`log(1 + exp(x))`, computed without overflow.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.softplus(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1269, 0.4741, 0.6931, 0.9741, 2.1269], dtype=float32)
    """
    return N.softplus(_float(x))


@keras_op
def softsign(x):
    """`x / (|x| + 1)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.softsign(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.6667, -0.3333,  0.    ,  0.3333,  0.6667], dtype=float32)
    """
    x = _float(x)
    return knp.divide(x, knp.add(knp.absolute(x), 1.0))


@keras_op
def soft_shrink(x, threshold=0.5):
    """`x - threshold` above `threshold`, `x + threshold` below
    `-threshold`, 0 in between.

    Args:
        x: Input tensor.
        threshold: Defaults to 0.5.

    >>> soft_shrink([-1.0, 0.25, 2.0]).numpy()
    array([-0.5,  0. ,  1.5], dtype=float32)
    """
    x = _float(x)
    inner = knp.where(knp.less(x, -threshold), knp.add(x, threshold), 0.0)
    return knp.where(knp.greater(x, threshold), knp.subtract(x, threshold),
                     inner)


@keras_op
def sparse_plus(x):
    """0 below -1, `x` above 1, and `(x + 1)**2 / 4` in between.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.sparse_plus(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.    , 0.0625, 0.25  , 0.5625, 2.    ], dtype=float32)
    """
    x = _float(x)
    inner = knp.where(knp.greater_equal(x, 1.0), x,
                      knp.multiply(knp.square(knp.add(x, 1.0)), 0.25))
    return knp.where(knp.less_equal(x, -1.0), 0.0, inner)


@keras_op
def silu(x):
    """`x * sigmoid(x)` (also called swish).

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.silu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.2384, -0.1888,  0.    ,  0.3112,  1.7616], dtype=float32)
    """
    x = _float(x)
    return knp.multiply(x, N.sigmoid(x))


swish = silu


@keras_op
def squareplus(x, b=4):
    """`(x + sqrt(x**2 + b)) / 2`, a smooth relu.

    Args:
        x: Input tensor.
        b: Smoothness, >= 0. Defaults to 4.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.squareplus(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.4142, 0.7808, 1.    , 1.2808, 2.4142], dtype=float32)
    """
    x = _float(x)
    root = knp.sqrt(knp.add(knp.square(x), b))
    return knp.multiply(knp.add(x, root), 0.5)


@keras_op
def log_sigmoid(x):
    """`log(sigmoid(x))` = `-softplus(-x)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.log_sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-2.1269, -0.9741, -0.6931, -0.4741, -0.1269], dtype=float32)
    """
    return knp.negative(N.softplus(knp.negative(_float(x))))


@keras_op
def leaky_relu(x, negative_slope=0.2):
    """`x` if `x >= 0` else `negative_slope * x`.

    Args:
        x: Input tensor.
        negative_slope: Defaults to 0.2.

    >>> leaky_relu([-2.0, 3.0]).numpy()
    array([-0.4,  3. ], dtype=float32)
    """
    x = _float(x)
    return knp.where(knp.greater_equal(x, 0), x,
                     knp.multiply(x, negative_slope))


@keras_op
def hard_sigmoid(x):
    """`relu6(x + 3) / 6`, Keras 3's definition.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.hard_sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1667, 0.4167, 0.5   , 0.5833, 0.8333], dtype=float32)
    """
    return knp.divide(relu6(knp.add(_float(x), 3.0)), 6.0)


@keras_op
def hard_silu(x):
    """`x * hard_sigmoid(x)` (also called hard swish).

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.hard_silu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.3333, -0.2083,  0.    ,  0.2917,  1.6667], dtype=float32)
    """
    x = _float(x)
    return knp.multiply(x, hard_sigmoid(x))


hard_swish = hard_silu


@keras_op
def elu(x, alpha=1.0):
    """`x` if `x > 0` else `alpha * (exp(x) - 1)`.

    Args:
        x: Input tensor.
        alpha: Scale of the negative part. Defaults to 1.0.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.elu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.8647, -0.3935,  0.    ,  0.5   ,  2.    ], dtype=float32)
    """
    # `where`, not `minimum`, inside expm1: at 0 the gradient is `alpha`
    # (Keras on JAX and TensorFlow), not the average of both sides.
    x = _float(x)
    negative = knp.expm1(knp.where(knp.greater(x, 0), 0.0, x))
    return knp.where(knp.greater(x, 0), x, knp.multiply(negative, alpha))


@keras_op
def selu(x):
    """`scale * elu(x, alpha)` with the self-normalising constants.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.selu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-1.5202, -0.6918,  0.    ,  0.5254,  2.1014], dtype=float32)
    """
    return knp.multiply(elu(x, _SELU_ALPHA), _SELU_SCALE)


@keras_op
def gelu(x, approximate=True):
    """Gaussian error linear unit: `x * Phi(x)`.

    Args:
        x: Input tensor.
        approximate: Use the tanh approximation (the op's default, as in
            Keras); `False` computes the exact form with `erf`.

    >>> float(gelu(1.0, approximate=False))
    0.8413447...
    """
    x = _float(x)
    return _kept_bfloat16(special.gelu(x, approximate=bool(approximate)), x)


@keras_op
def celu(x, alpha=1.0):
    """`max(x, 0) + alpha * expm1(min(x, 0) / alpha)`.

    Args:
        x: Input tensor.
        alpha: Defaults to 1.0.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.celu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.8647, -0.3935,  0.    ,  0.5   ,  2.    ], dtype=float32)
    """
    # maximum/minimum share their ties, so the gradient at 0 is 1 as in
    # Keras's JAX backend (relu would give 0 from the positive part).
    x = _float(x)
    negative = knp.expm1(knp.divide(knp.minimum(x, 0.0), alpha))
    return knp.add(knp.maximum(x, 0.0), knp.multiply(negative, alpha))


@keras_op
def glu(x, axis=-1):
    """Gated linear unit: `a * sigmoid(b)`, `a, b` the halves of `axis`.

    Args:
        x: Input tensor with an even size along `axis`.
        axis: Defaults to -1.

    Example:

    >>> x = np.array([[1.0, 2.0, 0.0, -1.0]], "float32")
    >>> y = kerasish.ops.glu(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([[0.5   , 0.5379]], dtype=float32)
    """
    x = _float(x)
    if x.shape[axis] % 2:
        raise ValueError(
            "axis size must be divisible by 2. "
            f"Received: x.shape={x.shape} with axis={axis}")
    a, b = knp.split(x, 2, axis=axis)
    return knp.multiply(a, N.sigmoid(b))


@keras_op
def tanh_shrink(x):
    """`x - tanh(x)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.tanh_shrink(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-1.036 , -0.0379,  0.    ,  0.0379,  1.036 ], dtype=float32)
    """
    x = _float(x)
    return knp.subtract(x, knp.tanh(x))


@keras_op
def hard_tanh(x):
    """`x` clipped to `[-1, 1]`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.hard_tanh(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-1. , -0.5,  0. ,  0.5,  1. ], dtype=float32)
    """
    # Python-int bounds keep the dtype of `x` (int32 stays int32, as in
    # Keras's JAX backend).
    x = convert_to_tensor(x)
    inner = knp.where(knp.less(x, -1), -1, x)
    return knp.where(knp.greater(x, 1), 1, inner)


@keras_op
def hard_shrink(x, threshold=0.5):
    """`x` where `|x| > threshold`, else 0.

    Args:
        x: Input tensor.
        threshold: Defaults to 0.5.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.ops.hard_shrink(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-2.,  0.,  0.,  0.,  2.], dtype=float32)
    """
    x = _float(x)
    return knp.where(knp.greater(knp.absolute(x), threshold), x, 0.0)


@keras_op
def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`.

    Args:
        x: Input tensor.
        threshold: The cut-off.
        default_value: The value at or below the cut-off.

    >>> threshold([1.0, 3.0], 2.0, 0.0).numpy()
    array([0., 3.], dtype=float32)
    """
    # The result dtype follows Keras's promotion of `x` with a (weakly
    # typed) Python `default_value`: int32 with 0 stays int32, with -7.0
    # it becomes float32; float16 stays float16.
    x = convert_to_tensor(x)
    return knp.where(knp.greater(x, threshold), x, default_value)


@keras_op
def softmax(x, axis=-1):
    """Softmax over `axis` (or several axes given as a tuple).

    Args:
        x: Input tensor.
        axis: Int or tuple of ints. Defaults to -1.

    >>> softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x = _float(x)
    if isinstance(axis, (tuple, list)):
        return _over_axes(N.softmax, x, tuple(axis))
    return N.softmax(x, axis=axis)


@keras_op
def log_softmax(x, axis=-1):
    """Log of softmax over `axis` (or a tuple of axes), computed stably.

    Args:
        x: Input tensor.
        axis: Int or tuple of ints. Defaults to -1.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], "float32")
    >>> y = kerasish.ops.log_softmax(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([[-2.4076, -1.4076, -0.4076],
           [-1.0986, -1.0986, -1.0986]], dtype=float32)
    """
    x = _float(x)
    if isinstance(axis, (tuple, list)):
        return _over_axes(N.log_softmax, x, tuple(axis))
    return N.log_softmax(x, axis=axis)


def _over_axes(prim, x, axes):
    """Apply a last-axis primitive jointly over several axes."""
    moved = knp.moveaxis(x, axes, tuple(range(-len(axes), 0)))
    flat_shape = moved.shape[:moved.ndim - len(axes)] + (-1,)
    out = prim(knp.reshape(moved, flat_shape), axis=-1)
    out = knp.reshape(out, moved.shape)
    return knp.moveaxis(out, tuple(range(-len(axes), 0)), axes)


@keras_op
def sparsemax(x, axis=-1):
    """Euclidean projection of `x` onto the probability simplex.

    Like softmax it sums to 1 along `axis`, but small entries are exactly 0.

    >>> sparsemax([1.0, 2.0, 5.0]).numpy()
    array([0., 0., 1.], dtype=float32)
    """
    return _sparsemax(_float(x), axis=axis)


@primitive
def _sparsemax(z, *, axis=-1):
    ordered = -np.sort(-z, axis=axis)
    cumulative = np.cumsum(ordered, axis=axis)
    shape = [1] * z.ndim
    shape[axis] = -1
    ranks = np.arange(1, z.shape[axis] + 1, dtype=z.dtype).reshape(shape)
    support = ordered - (cumulative - 1) / ranks > 0
    # The support is a prefix of the sorted entries; tau comes from the
    # partial sum at its last element.
    size = np.sum(support, axis=axis, keepdims=True)
    top = np.take_along_axis(cumulative, size - 1, axis=axis)
    tau = (top - 1) / size
    return np.maximum(z - tau, 0).astype(z.dtype, copy=False)


@_sparsemax.defvjp
def _sparsemax_vjp(g, out, z, *, axis=-1):
    # On the support S the Jacobian is I - 1 1^T / |S|; zero elsewhere.
    inside = out > 0
    count = np.maximum(np.sum(inside, axis=axis, keepdims=True), 1)
    mean_g = np.sum(np.where(inside, g, 0), axis=axis, keepdims=True) / count
    return (np.where(inside, g - mean_g, 0).astype(g.dtype, copy=False),)
