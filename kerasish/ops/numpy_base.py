"""Elementwise arithmetic of `keras.ops.numpy` and Keras's type promotion.

Each function converts its inputs, applies Keras's promotion (an int
operand meeting a float one becomes that float type; ints going into a
transcendental function become `floatx()`) and calls a backend primitive.
"""
import functools

import numpy as np

from kerasish.backend import config
from kerasish.backend.autocast import autocast_value
from kerasish.backend import elementwise as E
from kerasish.backend import math as M
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops.symbolic import keras_op
from kerasish.backend.dtypes import result_type
from kerasish.backend.common.keras_tensor import KerasTensor

__all__ = [
    "add", "subtract", "multiply", "maximum", "minimum", "floor_divide",
    "mod", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "divide",
    "true_divide", "divide_no_nan", "power", "negative", "square",
    "absolute", "abs", "exp", "expm1", "log", "log1p", "sqrt", "tanh", "sin",
    "cos", "sign", "floor", "ceil", "logical_not", "isnan", "isinf",
    "isfinite", "round", "clip", "where", "nonzero"]


def _kind(x):
    if isinstance(x, Tensor) or isinstance(x, np.ndarray):
        return x.dtype.kind
    if getattr(x, "_is_variable", False):
        return x._value.dtype.kind
    return None


def _promote(a, b):
    """Keras's promotion for a binary op (`backend.result_type`: a Python
    `int`/`float` takes the other operand's type)."""
    # A Python string meets text tensors as a 0-d text array (as Keras on
    # TensorFlow compares a string tensor with "a").
    a = np.asarray(a) if isinstance(a, (str, bytes)) else a
    b = np.asarray(b) if isinstance(b, (str, bytes)) else b
    ka, kb = _kind(a), _kind(b)
    if ka is None and kb is None:
        a = convert_to_tensor(a)
        ka = a.dtype.kind
    if ka is None and isinstance(a, (list, tuple)):
        return _promote(convert_to_tensor(a), b)
    if kb is None and isinstance(b, (list, tuple)):
        return _promote(a, convert_to_tensor(b))
    if ka is not None and kb is not None and a.dtype == b.dtype or \
            _keeps(ka, b) or _keeps(kb, a):
        return a, b
    # A variable promotes with the dtype it is read in (autocast).
    a, b = autocast_value(a), autocast_value(b)
    ka, kb = _kind(a), _kind(b)
    dtype = _joined(config.floatx(), _dtype_of(a), _dtype_of(b))
    return _to(a, ka, dtype), _to(b, kb, dtype)


def _keeps(kind, other):
    """Fast path: operands numpy already promotes as Keras does (a float
    tensor stays with a Python number, an int tensor with a Python int;
    text compares as text)."""
    if kind in ("U", "S", "O") or isinstance(other, (str, bytes)):
        return True
    if kind == "f":
        return type(other) in (float, int, bool)
    return kind in ("i", "u") and type(other) in (int, bool)


def _dtype_of(x):
    dtype = getattr(x, "dtype", None)
    return type(x) if dtype is None else dtype


@functools.lru_cache(maxsize=1024)
def _joined(floatx, a, b):
    """`result_type(a, b)` (cached: keyed on floatx, which it reads)."""
    name = result_type(a, b)
    return name, np.dtype(name)


def _to(x, kind, dtype):
    """`x` in `dtype` (a `(name, np.dtype)` pair): tensors are cast; a
    Python scalar is left to numpy (whose weak scalars agree), except with
    the ml_dtypes floats, which numpy would widen."""
    name, np_dtype = dtype
    if kind is not None:
        return x if x.dtype == np_dtype else cast(x, name)
    if np_dtype.kind == "V" and isinstance(x, (int, float)):
        return np.asarray(x, np_dtype)
    return x


def _float(x):
    """`x` as a tensor; ints and bools become `floatx()` (Keras's rule for
    functions with float results: float16/64 stay as they are)."""
    x = convert_to_tensor(x)
    if x.dtype.kind in "fc" or x.dtype.name == "bfloat16":
        return x
    return cast(x, config.floatx())


def _kept_bfloat16(out, x):
    """`out` cast back to bfloat16 where numpy widened a bfloat16 input's
    result (Python constants in a formula promote it to float32)."""
    if x.dtype.name == "bfloat16" and out.dtype != x.dtype:
        return cast(out, x.dtype)
    return out


def _tensors(*xs):
    """Convert several inputs and promote them to one common dtype."""
    xs = [convert_to_tensor(x) for x in xs]
    dtype = result_type(*[x.dtype for x in xs])
    return [x if x.dtype == dtype else cast(x, dtype) for x in xs]


def _document(op, summary, example, args="x1, x2"):
    arg_doc = "".join(f"        {a}: Input tensor.\n"
                      for a in args.split(", "))
    op.__doc__ = (f"{summary}\n\n    Args:\n{arg_doc}\n    Returns:\n"
                  f"        Output tensor.\n\n    Example:\n\n    >>> "
                  f"{example}\n    ")
    return op


def _binary(prim, name, summary, example):
    def op(x1, x2):
        x1, x2 = _promote(x1, x2)
        return prim(x1, x2)
    op.__name__ = op.__qualname__ = name
    return keras_op(_document(op, summary, example))


def _unary(prim, name, summary, example, float_only=True):
    def op(x):
        return prim(_float(x) if float_only else convert_to_tensor(x))
    op.__name__ = op.__qualname__ = name
    return keras_op(_document(op, summary, example, args="x"))


add = _binary(M.add, "add", "Add arguments elementwise.",
              "add([1, 2], [3, 4]).numpy()\n    array([4, 6], dtype=int32)")
subtract = _binary(
    M.subtract, "subtract", "Subtract arguments elementwise.",
    "subtract([4.0, 2.0], 1.0).numpy()\n    array([3., 1.], dtype=float32)")
multiply = _binary(
    M.multiply, "multiply", "Multiply arguments elementwise.",
    "multiply([1.5, 2.0], 2).numpy()\n    array([3., 4.], dtype=float32)")
maximum = _binary(
    M.maximum, "maximum", "Elementwise maximum (ties share the gradient).",
    "maximum([1.0, 5.0], 3.0).numpy()\n    array([3., 5.], dtype=float32)")
minimum = _binary(
    M.minimum, "minimum", "Elementwise minimum (ties share the gradient).",
    "minimum([1.0, 5.0], 3.0).numpy()\n    array([1., 3.], dtype=float32)")
floor_divide = _binary(
    M.floor_divide, "floor_divide", "Largest integer `<= x1 / x2`.",
    "floor_divide([7, -7], 2).numpy()\n    array([ 3, -4], dtype=int32)")
mod = _binary(
    lambda a, b: (E.mod if _kind(a) == "f" or _kind(b) == "f" else M.mod)(
        a, b), "mod", "Remainder of floor division (sign of the divisor); "
    "differentiable for floats.",
    "mod([7, -7], 3).numpy()\n    array([1, 2], dtype=int32)")
equal = _binary(M.equal, "equal", "`x1 == x2` elementwise.",
                "equal([1, 2], 2).numpy()\n    array([False,  True])")
not_equal = _binary(M.not_equal, "not_equal", "`x1 != x2` elementwise.",
                    "not_equal([1, 2], 2).numpy()\n    array([ True, False])")
less = _binary(M.less, "less", "`x1 < x2` elementwise.",
               "less([1, 2], 2).numpy()\n    array([ True, False])")
less_equal = _binary(
    M.less_equal, "less_equal", "`x1 <= x2` elementwise.",
    "less_equal([1, 3], 2).numpy()\n    array([ True, False])")
greater = _binary(M.greater, "greater", "`x1 > x2` elementwise.",
                  "greater([1, 3], 2).numpy()\n    array([False,  True])")
greater_equal = _binary(
    M.greater_equal, "greater_equal", "`x1 >= x2` elementwise.",
    "greater_equal([1, 2], 2).numpy()\n    array([False,  True])")
logical_and = _binary(
    M.logical_and, "logical_and", "Logical AND elementwise.",
    "logical_and([True, False], True).numpy()\n    array([ True, False])")
logical_or = _binary(
    M.logical_or, "logical_or", "Logical OR elementwise.",
    "logical_or([True, False], False).numpy()\n    array([ True, False])")
logical_xor = _binary(
    M.logical_xor, "logical_xor", "Logical XOR elementwise.",
    "logical_xor([True, False], True).numpy()\n    array([False,  True])")


@keras_op
def divide(x1, x2):
    """True division elementwise; integer inputs give `floatx()` results.

    Args:
        x1: Dividend.
        x2: Divisor.

    Returns:
        `x1 / x2`.

    Example:

    >>> divide([1, 3], 2).numpy()
    array([0.5, 1.5], dtype=float32)
    """
    x1, x2 = _promote(x1, x2)
    if _kind(x1) in ("i", "u", "b") and _kind(x2) in ("i", "u", "b", None):
        x1 = cast(x1, config.floatx())
        if _kind(x2) is not None:
            x2 = cast(x2, config.floatx())
    return M.divide(x1, x2)


true_divide = divide


@keras_op
def divide_no_nan(x1, x2):
    """`x1 / x2`, with 0 where `x2 == 0`.

    Args:
        x1: Dividend.
        x2: Divisor.

    Returns:
        The safe quotient.

    Example:

    >>> divide_no_nan([1.0, 2.0], [2.0, 0.0]).numpy()
    array([0.5, 0. ], dtype=float32)
    """
    x2 = convert_to_tensor(x2)
    safe = where(equal(x2, 0), 1, x2)
    return where(equal(x2, 0), 0, divide(x1, safe))


@keras_op
def power(x1, x2):
    """`x1 ** x2` elementwise.

    Args:
        x1: Base.
        x2: Exponent.

    Returns:
        The powers.

    Example:

    >>> power([2.0, 3.0], 2).numpy()
    array([4., 9.], dtype=float32)
    """
    x1, x2 = _promote(x1, x2)
    return M.power(x1, x2)


negative = _unary(M.negative, "negative", "Numerical negative.",
                  "negative([1, -2]).numpy()\n    "
                  "array([-1,  2], dtype=int32)",
                  float_only=False)
square = _unary(lambda x: M.square(cast(x, "int32") if x.dtype == bool
                                  else x),
                "square", "Square elementwise.",
                "square([2, 3]).numpy()\n    array([4, 9], dtype=int32)",
                float_only=False)
absolute = _unary(M.absolute, "absolute", "Absolute value elementwise.",
                  "absolute([-1.5, 2.0]).numpy()\n    "
                  "array([1.5, 2. ], dtype=float32)", float_only=False)
abs = absolute
exp = _unary(M.exp, "exp", "Exponential elementwise.",
             "exp([0.0]).numpy()\n    array([1.], dtype=float32)")
expm1 = _unary(M.expm1, "expm1", "`exp(x) - 1`, accurate for small `x`.",
               "expm1([0.0]).numpy()\n    array([0.], dtype=float32)")
log = _unary(M.log, "log", "Natural logarithm elementwise.",
             "log([1.0]).numpy()\n    array([0.], dtype=float32)")
log1p = _unary(M.log1p, "log1p", "`log(1 + x)`, accurate for small `x`.",
               "log1p([0.0]).numpy()\n    array([0.], dtype=float32)")
sqrt = _unary(M.sqrt, "sqrt", "Square root elementwise.",
              "sqrt([4, 9]).numpy()\n    array([2., 3.], dtype=float32)")
tanh = _unary(M.tanh, "tanh", "Hyperbolic tangent elementwise.",
              "tanh([0.0]).numpy()\n    array([0.], dtype=float32)")
sin = _unary(M.sin, "sin", "Sine elementwise (radians).",
             "sin([0.0]).numpy()\n    array([0.], dtype=float32)")
cos = _unary(M.cos, "cos", "Cosine elementwise (radians).",
             "cos([0.0]).numpy()\n    array([1.], dtype=float32)")


def _nondiff_unary(prim, name, summary, example):
    def op(x):
        return prim(convert_to_tensor(x))
    op.__name__ = op.__qualname__ = name
    return keras_op(_document(op, summary, example, args="x"))


sign = _nondiff_unary(M.sign, "sign", "Sign (-1, 0 or 1) elementwise.",
                      "sign([-2, 0, 3]).numpy()\n    "
                      "array([-1,  0,  1], dtype=int32)")
floor = _nondiff_unary(
    lambda x: M.floor(_float(x)), "floor", "Round down elementwise.",
    "floor([1.5, -1.5]).numpy()\n    array([ 1., -2.], dtype=float32)")
ceil = _nondiff_unary(
    lambda x: M.ceil(_float(x)), "ceil", "Round up elementwise.",
    "ceil([1.5, -1.5]).numpy()\n    array([ 2., -1.], dtype=float32)")
logical_not = _nondiff_unary(
    M.logical_not, "logical_not", "Logical NOT elementwise.",
    "logical_not([True, False]).numpy()\n    array([False,  True])")
isnan = _nondiff_unary(
    M.isnan, "isnan", "Whether each entry is NaN.",
    "isnan([1.0, float('nan')]).numpy()\n    array([False,  True])")
isinf = _nondiff_unary(
    M.isinf, "isinf", "Whether each entry is +/- infinity.",
    "isinf([1.0, float('inf')]).numpy()\n    array([False,  True])")
isfinite = _nondiff_unary(
    M.isfinite, "isfinite", "Whether each entry is finite.",
    "isfinite([1.0, float('inf')]).numpy()\n    array([ True, False])")


@keras_op
def round(x, decimals=0):
    """Round to `decimals` decimals (halves to even, as numpy).

    Args:
        x: Input tensor.
        decimals: Number of decimals. Defaults to 0.

    Returns:
        The rounded tensor (same dtype).

    Example:

    >>> round([0.5, 1.5, 2.26], decimals=0).numpy()
    array([0., 2., 2.], dtype=float32)
    """
    return M.round(convert_to_tensor(x), decimals=decimals)


@keras_op
def clip(x, x_min, x_max):
    """Clip values to `[x_min, x_max]` (gradient 1 inside, 0 outside).

    Args:
        x: Input tensor.
        x_min: Lower bound.
        x_max: Upper bound.

    Returns:
        The clipped tensor.

    Example:

    >>> clip([-1.0, 0.5, 2.0], 0.0, 1.0).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    x = convert_to_tensor(x)
    if x.dtype == bool:
        x = cast(x, "int32")
    out = M.clip(x, x_min=to_array(x_min), x_max=to_array(x_max))
    return _kept_bfloat16(out, x)     # numpy's clip widens bfloat16


@keras_op
def where(condition, x1=None, x2=None):
    """Choose `x1` where `condition` holds, else `x2`.

    Args:
        condition: Boolean tensor.
        x1: Values where `condition` is true.
        x2: Values where it is false. With neither `x1` nor `x2`, returns
            `nonzero(condition)`.

    Returns:
        The selected values.

    Example:

    >>> where([True, False], [1, 2], [3, 4]).numpy()
    array([1, 4], dtype=int32)
    """
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` must be given together. Received: "
                         f"x1={x1!r:.40}, x2={x2!r:.40}")
    x1, x2 = _promote(x1, x2)
    # The condition goes into the primitive as it is (np.where reads any
    # dtype as truth values), so a recorded step selects on new data.
    return M.where(condition, x1, x2)


def _nonzero_spec(x):
    """How many entries are nonzero depends on the values: unknown."""
    return tuple(KerasTensor((None,), dtype="int32") for _ in x.shape)


@keras_op(spec=_nonzero_spec)
def nonzero(x):
    """Indices of the nonzero entries, one int32 tensor per axis.

    Args:
        x: Input tensor.

    Returns:
        A tuple of index tensors.

    Example:

    >>> [i.numpy() for i in nonzero([[0, 1], [2, 0]])]
    [array([0, 1], dtype=int32), array([1, 0], dtype=int32)]
    """
    return tuple(Tensor(i.astype("int32")) for i in np.nonzero(to_array(x)))
