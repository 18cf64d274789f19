"""Float helpers of `keras.ops.numpy`: rounding toward zero, absolute
value as float, NaN-ignoring extrema, C-style remainder, step function,
exponent scaling, float neighbours and sign bits.

Transcendental functions are in `numpy_trig.py`; integer, bitwise and
complex ones in `numpy_bits.py`.
"""
import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend import math as M
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_base import (_binary, _float, _tensors, greater,
                                     isnan, logical_or, multiply, where)
from kerasish.ops.symbolic import keras_op

__all__ = ["fabs", "trunc", "fmax", "fmin", "fmod", "heaviside", "ldexp",
           "nextafter", "signbit"]


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


