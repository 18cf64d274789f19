"""Transcendental functions of `keras.ops.numpy`: logarithms and
exponentials in other bases, trigonometry and its inverses, sinc, i0.

All are differentiable; integer inputs are computed in `floatx()`."""

import math

import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend import reduction as R
from kerasish.backend import shape as S
from kerasish.ops.numpy_base import (_float, _tensors, _unary, add, cos,
                                     divide, equal, exp, multiply, negative,
                                     sin, subtract, where)
from kerasish.ops.symbolic import keras_op

__all__ = ["reciprocal", "log2", "log10", "exp2", "logaddexp", "tan", "sinh",
           "cosh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
           "arctanh", "cbrt", "arctan2", "deg2rad", "rad2deg", "hypot",
           "logaddexp2", "sinc", "i0"]


@keras_op
def reciprocal(x):
    """`1 / x` elementwise.

    Args:
        x: Input tensor.

    Returns:
        The reciprocals.

    Example:

    >>> reciprocal([2.0, 4.0]).numpy()
    array([0.5 , 0.25], dtype=float32)
    """
    return divide(1.0, _float(x))


@keras_op
def log2(x):
    """Base-2 logarithm elementwise.

    Args:
        x: Input tensor.

    Returns:
        `log2(x)`.

    Example:

    >>> log2([8.0]).numpy()
    array([3.], dtype=float32)
    """
    return E.log2(_float(x))


@keras_op
def log10(x):
    """Base-10 logarithm elementwise.

    Args:
        x: Input tensor.

    Returns:
        `log10(x)`.

    Example:

    >>> log10([100.0]).numpy()
    array([2.], dtype=float32)
    """
    return E.log10(_float(x))


@keras_op
def exp2(x):
    """`2 ** x` elementwise.

    Args:
        x: Input tensor.

    Returns:
        The powers of two.

    Example:

    >>> exp2([3.0]).numpy()
    array([8.], dtype=float32)
    """
    return exp(multiply(_float(x), math.log(2.0)))


@keras_op
def logaddexp(x1, x2):
    """`log(exp(x1) + exp(x2))`, computed stably.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Output tensor.

    Example:

    >>> logaddexp([0.0], [0.0]).numpy()
    array([0.6931472], dtype=float32)
    """
    x1, x2 = _tensors(_float(x1), _float(x2))
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    return R.logsumexp(S.stack(S.broadcast_to(x1, shape=shape),
                               S.broadcast_to(x2, shape=shape)), axis=0)


@keras_op
def tan(x):
    """Tangent elementwise.

    Args:
        x: Input tensor (radians).

    Returns:
        `tan(x)`.

    Example:

    >>> tan([0.0]).numpy()
    array([0.], dtype=float32)
    """
    x = _float(x)
    return divide(sin(x), cos(x))


@keras_op
def sinh(x):
    """Hyperbolic sine elementwise.

    Args:
        x: Input tensor.

    Returns:
        `sinh(x)`.

    Example:

    >>> sinh([0.0]).numpy()
    array([0.], dtype=float32)
    """
    x = _float(x)
    return multiply(subtract(exp(x), exp(negative(x))), 0.5)


@keras_op
def cosh(x):
    """Hyperbolic cosine elementwise.

    Args:
        x: Input tensor.

    Returns:
        `cosh(x)`.

    Example:

    >>> cosh([0.0]).numpy()
    array([1.], dtype=float32)
    """
    x = _float(x)
    return multiply(add(exp(x), exp(negative(x))), 0.5)


arcsin = _unary(E.arcsin, "arcsin", "Inverse sine elementwise.",
                "arcsin([0.0, 1.0]).numpy()\n    "
                "array([0.       , 1.5707964], dtype=float32)")
arccos = _unary(E.arccos, "arccos", "Inverse cosine elementwise.",
                "arccos([1.0]).numpy()\n    array([0.], dtype=float32)")
arctan = _unary(E.arctan, "arctan", "Inverse tangent elementwise.",
                "arctan([0.0]).numpy()\n    array([0.], dtype=float32)")
arcsinh = _unary(E.arcsinh, "arcsinh", "Inverse hyperbolic sine.",
                 "arcsinh([0.0]).numpy()\n    array([0.], dtype=float32)")
arccosh = _unary(E.arccosh, "arccosh", "Inverse hyperbolic cosine.",
                 "arccosh([1.0]).numpy()\n    array([0.], dtype=float32)")
arctanh = _unary(E.arctanh, "arctanh", "Inverse hyperbolic tangent.",
                 "arctanh([0.0]).numpy()\n    array([0.], dtype=float32)")
cbrt = _unary(E.cbrt, "cbrt", "Cube root elementwise.",
              "cbrt([8, -27]).numpy()\n    array([ 2., -3.], dtype=float32)")


@keras_op
def arctan2(x1, x2):
    """Angle of the point `(x2, x1)`: `arctan(x1 / x2)` in the right quadrant.

    Args:
        x1: y-coordinates.
        x2: x-coordinates.

    Returns:
        Angles in radians, in `[-pi, pi]`.

    Example:

    >>> arctan2([1.0], [-1.0]).numpy()
    array([2.3561945], dtype=float32)
    """
    return E.arctan2(*_tensors(_float(x1), _float(x2)))


@keras_op
def deg2rad(x):
    """Degrees to radians.

    Args:
        x: Angles in degrees.

    Returns:
        Angles in radians.

    Example:

    >>> deg2rad([180.0]).numpy()
    array([3.1415927], dtype=float32)
    """
    return multiply(_float(x), np.pi / 180.0)


@keras_op
def rad2deg(x):
    """Radians to degrees.

    Args:
        x: Angles in radians.

    Returns:
        Angles in degrees.

    Example:

    >>> rad2deg([np.pi]).numpy()
    array([180.], dtype=float32)
    """
    return multiply(_float(x), 180.0 / np.pi)


@keras_op
def hypot(x1, x2):
    """`sqrt(x1**2 + x2**2)` without intermediate overflow.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        The hypotenuses.

    Example:

    >>> hypot([3], [4]).numpy()
    array([5.], dtype=float32)
    """
    return E.hypot(*_tensors(_float(x1), _float(x2)))


@keras_op
def logaddexp2(x1, x2):
    """`log2(2**x1 + 2**x2)`, computed stably.

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Output tensor.

    Example:

    >>> logaddexp2([1.0], [1.0]).numpy()
    array([2.], dtype=float32)
    """
    ln2 = math.log(2.0)
    x1, x2 = _tensors(_float(x1), _float(x2))
    return divide(logaddexp(multiply(x1, ln2), multiply(x2, ln2)), ln2)


@keras_op
def sinc(x):
    """Normalized sinc: `sin(pi x) / (pi x)`, 1 at 0.

    Args:
        x: Input tensor.

    Returns:
        Output tensor.

    Example:

    >>> sinc([0.0, 0.5]).numpy()
    array([1.        , 0.63661975], dtype=float32)
    """
    x = _float(x)
    at_zero = equal(x, 0)
    # The 0/0 branch is replaced before dividing so its gradient is finite.
    px = where(at_zero, 1.0, multiply(x, np.pi))
    return where(at_zero, 1.0, divide(sin(px), px))


@keras_op
def i0(x):
    """Modified Bessel function of the first kind, order 0.

    Args:
        x: Input tensor.

    Returns:
        `I0(x)` (differentiable: `I0' = I1`).

    Example:

    >>> i0([0.0]).numpy()
    array([1.], dtype=float32)
    """
    return E.i0(_float(x))
