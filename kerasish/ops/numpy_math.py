"""More elementwise `keras.ops.numpy` functions: inverse trigonometry,
rounding, float helpers, integer and bitwise ops, complex parts.

Differentiable ones use primitives of `backend/elementwise.py` or are
composites; integer, bitwise and predicate ops have no gradient.
"""
import math

import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend import math as M
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import (_binary, _document, _float, _tensors,
                                     _unary, divide, equal, greater, isnan,
                                     logaddexp, logical_or, multiply, sin,
                                     where)
from kerasish.ops.symbolic import keras_op

__all__ = [
    "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
    "arctan2", "cbrt", "deg2rad", "rad2deg", "fabs", "trunc", "fmax",
    "fmin", "fmod", "hypot", "heaviside", "ldexp", "logaddexp2",
    "nextafter", "signbit", "sinc", "i0", "gcd", "lcm", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_not",
    "bitwise_left_shift", "bitwise_right_shift", "left_shift",
    "right_shift", "isneginf", "isposinf", "isreal", "real", "imag", "conj",
    "conjugate", "angle"]

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
def fabs(x):
    """Absolute value as a float (ints become `floatx()`).

    Args:
        x: Input tensor.

    Returns:
        `abs(x)` as floats.

    Example:

    >>> fabs([-2, 3]).numpy()
    array([2., 3.], dtype=float32)
    """
    return M.absolute(_float(x))


@keras_op
def trunc(x):
    """Round toward zero; integer inputs are returned unchanged.

    Args:
        x: Input tensor.

    Returns:
        The truncated values (same dtype, no gradient).

    Example:

    >>> trunc([-1.7, 1.7]).numpy()
    array([-1.,  1.], dtype=float32)
    """
    x = convert_to_tensor(x)
    if x.dtype.kind in "iub":
        return x
    return Tensor(np.trunc(x.numpy()))


@keras_op
def fmax(x1, x2):
    """Elementwise maximum ignoring NaNs (the other value is returned).

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Output tensor.

    Example:

    >>> fmax([1.0, np.nan], [2.0, 0.5]).numpy()
    array([2. , 0.5], dtype=float32)
    """
    x1, x2 = _tensors(x1, x2)
    return where(logical_or(isnan(x2), greater(x1, x2)), x1, x2)


@keras_op
def fmin(x1, x2):
    """Elementwise minimum ignoring NaNs (the other value is returned).

    Args:
        x1: Input tensor.
        x2: Input tensor.

    Returns:
        Output tensor.

    Example:

    >>> fmin([1.0, np.nan], [2.0, 0.5]).numpy()
    array([1. , 0.5], dtype=float32)
    """
    x1, x2 = _tensors(x1, x2)
    return where(logical_or(isnan(x2), greater(x2, x1)), x1, x2)


fmod = _binary(E.fmod, "fmod", "C-style remainder: sign of the dividend.",
               "fmod([-7, 7], 3).numpy()\n    array([-1,  1], dtype=int32)")


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
def heaviside(x1, x2):
    """Heaviside step: 0 for `x1 < 0`, `x2` at 0, 1 for `x1 > 0`.

    Args:
        x1: Input values.
        x2: Value where `x1 == 0`.

    Returns:
        The step values (no gradient).

    Example:

    >>> heaviside([-1.0, 0.0, 2.0], 0.5).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    x1, x2 = _tensors(_float(x1), _float(x2))
    return Tensor(np.heaviside(x1.numpy(), x2.numpy()))


@keras_op
def ldexp(x1, x2):
    """`x1 * 2**x2` with an integer exponent `x2`.

    Args:
        x1: Mantissas.
        x2: Integer exponents.

    Returns:
        The scaled values (differentiable in `x1`).

    Example:

    >>> ldexp([1.5], [3]).numpy()
    array([12.], dtype=float32)
    """
    x1, x2 = _float(x1), convert_to_tensor(x2)
    if x2.dtype.kind not in "iu":
        raise TypeError("ldexp exponent must be an integer type. "
                        f"Received: x2 dtype={x2.dtype}")
    scale = np.ldexp(np.ones((), x1.dtype), x2.numpy())
    return multiply(x1, Tensor(np.asarray(scale, x1.dtype)))


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
def nextafter(x1, x2):
    """The next representable float after `x1` in the direction of `x2`.

    Args:
        x1: Start values.
        x2: Directions.

    Returns:
        Output tensor (no gradient).

    Example:

    >>> float(nextafter(1.0, 2.0)) > 1.0
    True
    """
    x1, x2 = _tensors(_float(x1), _float(x2))
    return Tensor(np.nextafter(x1.numpy(), x2.numpy()))


@keras_op
def signbit(x):
    """Whether the sign bit is set (true for -0.0 too).

    Args:
        x: Input tensor.

    Returns:
        Boolean tensor.

    Example:

    >>> signbit([-1.0, -0.0, 2.0]).numpy()
    array([ True,  True, False])
    """
    return Tensor(np.signbit(convert_to_tensor(x).numpy()))


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


def _integer_apply(np_fn, name, a, b, allow_bool):
    a = convert_to_tensor(a)
    b = b if isinstance(b, int) else convert_to_tensor(b)
    kinds = "iub" if allow_bool else "iu"
    for v in (a, b):
        if not isinstance(v, int) and v.dtype.kind not in kinds:
            raise TypeError(f"`{name}` needs integer inputs. Received "
                            f"dtype {v.dtype}.")
    return Tensor(np.asarray(np_fn(a.numpy(), to_array(b))))


def _integer_binary(np_fn, name, summary, example, allow_bool=True,
                    args="x, y"):
    if args == "x, y":
        def op(x, y):
            return _integer_apply(np_fn, name, x, y, allow_bool)
    else:
        def op(x1, x2):
            return _integer_apply(np_fn, name, x1, x2, allow_bool)
    op.__name__ = op.__qualname__ = name
    return keras_op(_document(op, summary, example, args=args))


gcd = _integer_binary(np.gcd, "gcd", "Greatest common divisor.",
                      "gcd([12, 18], 8).numpy()\n    "
                      "array([4, 2], dtype=int32)", allow_bool=False,
                      args="x1, x2")
lcm = _integer_binary(np.lcm, "lcm", "Least common multiple.",
                      "lcm([4, 6], 10).numpy()\n    "
                      "array([20, 30], dtype=int32)", allow_bool=False,
                      args="x1, x2")
bitwise_and = _integer_binary(np.bitwise_and, "bitwise_and", "Bitwise AND.",
                              "bitwise_and([12], [10]).numpy()\n    "
                              "array([8], dtype=int32)")
bitwise_or = _integer_binary(np.bitwise_or, "bitwise_or", "Bitwise OR.",
                             "bitwise_or([12], [10]).numpy()\n    "
                             "array([14], dtype=int32)")
bitwise_xor = _integer_binary(np.bitwise_xor, "bitwise_xor", "Bitwise XOR.",
                              "bitwise_xor([12], [10]).numpy()\n    "
                              "array([6], dtype=int32)")
bitwise_left_shift = _integer_binary(
    np.left_shift, "bitwise_left_shift", "Shift the bits of `x` left.",
    "bitwise_left_shift([1, 3], 2).numpy()\n    "
    "array([ 4, 12], dtype=int32)", allow_bool=False)
bitwise_right_shift = _integer_binary(
    np.right_shift, "bitwise_right_shift", "Shift the bits of `x` right.",
    "bitwise_right_shift([8, 13], 2).numpy()\n    "
    "array([2, 3], dtype=int32)", allow_bool=False)


@keras_op
def left_shift(x, y):
    """Shift the bits of `x` left by `y` (alias of `bitwise_left_shift`).

    Args:
        x: Integer tensor.
        y: Integer shift amounts.

    Returns:
        Output tensor.

    Example:

    >>> left_shift([1], 3).numpy()
    array([8], dtype=int32)
    """
    return bitwise_left_shift(x, y)


@keras_op
def right_shift(x, y):
    """Shift the bits of `x` right by `y` (alias of `bitwise_right_shift`).

    Args:
        x: Integer tensor.
        y: Integer shift amounts.

    Returns:
        Output tensor.

    Example:

    >>> right_shift([8], 3).numpy()
    array([1], dtype=int32)
    """
    return bitwise_right_shift(x, y)


@keras_op
def bitwise_invert(x):
    """Bitwise NOT (`~x`); logical NOT for booleans.

    Args:
        x: Integer or boolean tensor.

    Returns:
        Output tensor.

    Example:

    >>> bitwise_invert([0, 5]).numpy()
    array([-1, -6], dtype=int32)
    """
    x = convert_to_tensor(x)
    if x.dtype.kind not in "iub":
        raise TypeError("`bitwise_invert` needs integer or boolean inputs. "
                        f"Received dtype {x.dtype}.")
    return Tensor(np.invert(x.numpy()))


bitwise_not = bitwise_invert


def _predicate(np_fn, name, summary, example):
    def op(x):
        return Tensor(np.asarray(np_fn(convert_to_tensor(x).numpy())))
    op.__name__ = op.__qualname__ = name
    return keras_op(_document(op, summary, example, args="x"))


isneginf = _predicate(np.isneginf, "isneginf", "Whether each entry is -inf.",
                      "isneginf([-np.inf, 1.0]).numpy()\n    "
                      "array([ True, False])")
isposinf = _predicate(np.isposinf, "isposinf", "Whether each entry is +inf.",
                      "isposinf([np.inf, 1.0]).numpy()\n    "
                      "array([ True, False])")
isreal = _predicate(np.isreal, "isreal",
                    "Whether each entry has a zero imaginary part.",
                    "isreal([1 + 0j, 1j]).numpy()\n    array([ True, False])")


@keras_op
def real(x):
    """Real part (the input itself for real tensors).

    Args:
        x: Input tensor.

    Returns:
        The real parts.

    Example:

    >>> real([1 + 2j]).numpy()
    array([1.])
    """
    return E.real(convert_to_tensor(x))


@keras_op
def imag(x):
    """Imaginary part (zeros for real tensors).

    Args:
        x: Input tensor.

    Returns:
        The imaginary parts.

    Example:

    >>> imag([1 + 2j]).numpy()
    array([2.])
    """
    return E.imag(convert_to_tensor(x))


@keras_op
def conj(x):
    """Complex conjugate (the input itself for real tensors).

    Args:
        x: Input tensor.

    Returns:
        The conjugates.

    Example:

    >>> conj([1 + 2j]).numpy()
    array([1.-2.j])
    """
    return E.conj(convert_to_tensor(x))


conjugate = conj


@keras_op
def angle(x):
    """Argument of complex numbers (0 or pi for real ones), in radians.

    Args:
        x: Input tensor.

    Returns:
        The angles.

    Example:

    >>> angle([1j, -1.0]).numpy()
    array([1.57079633, 3.14159265])
    """
    x = convert_to_tensor(x)
    if x.dtype.kind != "c":
        x = _float(x)
    return E.arctan2(E.imag(x), E.real(x))
