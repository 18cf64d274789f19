"""Integer, bitwise and complex-number functions of `keras.ops.numpy`.

Integer and bitwise ops and the predicates have no gradient; `real`,
`imag`, `conj` and `angle` do (JAX's complex convention)."""

import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import _document, _float
from kerasish.ops.symbolic import keras_op

__all__ = ["gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_left_shift", "bitwise_right_shift", "left_shift",
           "right_shift", "bitwise_invert", "bitwise_not", "isneginf",
           "isposinf", "isreal", "real", "imag", "conj", "conjugate", "angle"]


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
