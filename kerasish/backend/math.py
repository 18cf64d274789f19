"""Elementwise primitives and their VJPs.

Binary rules `unbroadcast` their gradient back to each input's shape.
Float overflow and log(0) give inf/nan quietly, as on accelerators.
"""
import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast, nondiff

_quiet = dict(divide="ignore", over="ignore", invalid="ignore",
              under="ignore")


# -- arithmetic -------------------------------------------------------------
@primitive
def add(a, b):
    return np.add(a, b)


def _add_vjp_a(g, out, a, b):
    return unbroadcast(g, a)


def _add_vjp_b(g, out, a, b):
    return unbroadcast(g, b)


add.defvjps(_add_vjp_a, _add_vjp_b)


@primitive
def subtract(a, b):
    return np.subtract(a, b)


def _subtract_vjp_b(g, out, a, b):
    return unbroadcast(-g, b)


subtract.defvjps(_add_vjp_a, _subtract_vjp_b)


@primitive
def multiply(a, b):
    return np.multiply(a, b)


def _multiply_vjp_a(g, out, a, b):
    return unbroadcast(g * b, a)


def _multiply_vjp_b(g, out, a, b):
    return unbroadcast(g * a, b)


multiply.defvjps(_multiply_vjp_a, _multiply_vjp_b)


@primitive
def divide(a, b):
    with np.errstate(**_quiet):
        return np.true_divide(a, b)


def _divide_vjp_a(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(g / b, a)


def _divide_vjp_b(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(-g * out / b, b)


divide.defvjps(_divide_vjp_a, _divide_vjp_b)


@primitive
def negative(x):
    return np.negative(x)


@negative.defvjp
def _negative_vjp(g, out, x):
    return (-g,)


@primitive
def power(a, b):
    with np.errstate(**_quiet):
        return np.power(a, b)


def _power_vjp_a(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(g * b * np.power(a, np.subtract(b, 1)), a)


def _power_vjp_b(g, out, a, b):
    with np.errstate(**_quiet):
        log_a = np.where(np.asarray(a) > 0, np.log(np.where(
            np.asarray(a) > 0, a, 1)), 0)
        return unbroadcast(g * out * log_a, b)


power.defvjps(_power_vjp_a, _power_vjp_b)


@primitive
def square(x):
    return np.square(x)


@square.defvjp
def _square_vjp(g, out, x):
    return (g * 2 * x,)


# -- exponentials and roots ---------------------------------------------------
@primitive
def exp(x):
    with np.errstate(**_quiet):
        return np.exp(x)


@exp.defvjp
def _exp_vjp(g, out, x):
    return (g * out,)


@primitive
def expm1(x):
    with np.errstate(**_quiet):
        return np.expm1(x)


@expm1.defvjp
def _expm1_vjp(g, out, x):
    return (g * (out + 1),)


@primitive
def log(x):
    with np.errstate(**_quiet):
        return np.log(x)


@log.defvjp
def _log_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g / x,)


@primitive
def log1p(x):
    with np.errstate(**_quiet):
        return np.log1p(x)


@log1p.defvjp
def _log1p_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g / (1 + x),)


@primitive
def sqrt(x):
    with np.errstate(**_quiet):
        return np.sqrt(x)


@sqrt.defvjp
def _sqrt_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g / (2 * out),)


@primitive
def rsqrt(x):
    with np.errstate(**_quiet):
        return 1 / np.sqrt(x)


@rsqrt.defvjp
def _rsqrt_vjp(g, out, x):
    return (g * -0.5 * out * out * out,)


# -- trigonometric and hyperbolic -------------------------------------------
@primitive
def tanh(x):
    return np.tanh(x)


@tanh.defvjp
def _tanh_vjp(g, out, x):
    return (g * (1 - out * out),)


@primitive
def sin(x):
    return np.sin(x)


@sin.defvjp
def _sin_vjp(g, out, x):
    return (g * np.cos(x),)


@primitive
def cos(x):
    return np.cos(x)


@cos.defvjp
def _cos_vjp(g, out, x):
    return (-g * np.sin(x),)


@primitive
def absolute(x):
    return np.abs(x)


@absolute.defvjp
def _absolute_vjp(g, out, x):
    return (g * np.sign(x),)


# -- selection -----------------------------------------------------------------
@primitive
def maximum(a, b):
    return np.maximum(a, b)


def _tie_split(g, a, b, pick_a):
    # Ties share the gradient equally (JAX's rule for max/min).
    weight = np.where(np.equal(a, b), 0.5, pick_a).astype(g.dtype)
    return g * weight


def _maximum_vjp_a(g, out, a, b):
    return unbroadcast(_tie_split(g, a, b, np.greater(a, b)), a)


def _maximum_vjp_b(g, out, a, b):
    return unbroadcast(_tie_split(g, a, b, np.less(a, b)), b)


maximum.defvjps(_maximum_vjp_a, _maximum_vjp_b)


@primitive
def minimum(a, b):
    return np.minimum(a, b)


def _minimum_vjp_a(g, out, a, b):
    return unbroadcast(_tie_split(g, a, b, np.less(a, b)), a)


def _minimum_vjp_b(g, out, a, b):
    return unbroadcast(_tie_split(g, a, b, np.greater(a, b)), b)


minimum.defvjps(_minimum_vjp_a, _minimum_vjp_b)


@primitive
def where(condition, x, y):
    return np.where(condition, x, y)


def _where_vjp_x(g, out, condition, x, y):
    return unbroadcast(np.where(condition, g, 0).astype(g.dtype), x)


def _where_vjp_y(g, out, condition, x, y):
    return unbroadcast(np.where(condition, 0, g).astype(g.dtype), y)


where.defvjps(None, _where_vjp_x, _where_vjp_y)


@primitive
def clip(x, *, x_min, x_max):
    return np.clip(x, x_min, x_max)


@clip.defvjp
def _clip_vjp(g, out, x, *, x_min, x_max):
    inside = np.logical_and(np.greater_equal(x, x_min),
                            np.less_equal(x, x_max))
    return (g * inside,)


# -- without gradient ----------------------------------------------------------
sign = nondiff(np.sign)
floor = nondiff(np.floor)
ceil = nondiff(np.ceil)
round = nondiff(np.round)
floor_divide = nondiff(np.floor_divide)
mod = nondiff(np.mod)
equal = nondiff(np.equal)
not_equal = nondiff(np.not_equal)
less = nondiff(np.less)
less_equal = nondiff(np.less_equal)
greater = nondiff(np.greater)
greater_equal = nondiff(np.greater_equal)
logical_and = nondiff(np.logical_and)
logical_or = nondiff(np.logical_or)
logical_not = nondiff(np.logical_not)
logical_xor = nondiff(np.logical_xor)
isnan = nondiff(np.isnan)
isinf = nondiff(np.isinf)
isfinite = nondiff(np.isfinite)
