"""More elementwise primitives: inverse trigonometry, cbrt, hypot, fmod,
Bessel i0, cumulative product, and the complex-number parts.

Complex VJPs follow JAX's convention (the cotangent of a complex value is
conjugated), so gradients agree with Keras's JAX backend.
"""
import math

import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast

_quiet = dict(divide="ignore", over="ignore", invalid="ignore",
              under="ignore")


def _unary(np_fn, derivative):
    """A primitive `np_fn(x)` whose VJP is `g * derivative(x, out)`."""
    prim = primitive(lambda x: _quietly(np_fn, x), name=np_fn.__name__)

    def vjp(g, out, x):
        with np.errstate(**_quiet):
            return (g * derivative(x, out),)
    prim.defvjp(vjp)
    return prim


def _quietly(fn, *args):
    with np.errstate(**_quiet):
        return fn(*args)


arcsin = _unary(np.arcsin, lambda x, out: 1 / np.sqrt(1 - x * x))
arccos = _unary(np.arccos, lambda x, out: -1 / np.sqrt(1 - x * x))
arctan = _unary(np.arctan, lambda x, out: 1 / (1 + x * x))
arcsinh = _unary(np.arcsinh, lambda x, out: 1 / np.sqrt(x * x + 1))
arccosh = _unary(np.arccosh, lambda x, out: 1 / np.sqrt(x * x - 1))
arctanh = _unary(np.arctanh, lambda x, out: 1 / (1 - x * x))
log2 = _unary(np.log2, lambda x, out: 1 / (x * math.log(2.0)))
log10 = _unary(np.log10, lambda x, out: 1 / (x * math.log(10.0)))
# d/dx x**(1/3) = 1 / (3 out**2): inf at 0, as in JAX.
cbrt = _unary(np.cbrt, lambda x, out: 1 / (3 * out * out))


@primitive
def arctan2(y, x):
    return np.arctan2(y, x)


def _arctan2_vjp_y(g, out, y, x):
    with np.errstate(**_quiet):
        return unbroadcast(g * x / (x * x + y * y), y)


def _arctan2_vjp_x(g, out, y, x):
    with np.errstate(**_quiet):
        return unbroadcast(-g * y / (x * x + y * y), x)


arctan2.defvjps(_arctan2_vjp_y, _arctan2_vjp_x)


@primitive
def hypot(a, b):
    # np.hypot scales internally: no overflow for large inputs.
    return np.hypot(a, b)


def _hypot_vjp_a(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(g * a / out, a)


def _hypot_vjp_b(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(g * b / out, b)


hypot.defvjps(_hypot_vjp_a, _hypot_vjp_b)


@primitive
def fmod(a, b):
    with np.errstate(**_quiet):
        return np.fmod(a, b)


def _fmod_vjp_a(g, out, a, b):
    return unbroadcast(g, a)


def _fmod_vjp_b(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(-g * np.trunc(np.divide(a, b)), b)


fmod.defvjps(_fmod_vjp_a, _fmod_vjp_b)


@primitive
def mod(a, b):
    """Floor-division remainder (sign of the divisor), for floats."""
    with np.errstate(**_quiet):
        return np.mod(a, b)


def _mod_vjp_b(g, out, a, b):
    with np.errstate(**_quiet):
        return unbroadcast(-g * np.floor(np.divide(a, b)), b)


mod.defvjps(_fmod_vjp_a, _mod_vjp_b)


# -- Bessel functions ---------------------------------------------------------
def bessel_i1(x):
    """Modified Bessel function I1 (numpy has only i0).

    The trapezoid rule on the periodic integral
    `I1(x) = 1/pi * int_0^pi exp(x cos t) cos t dt` converges
    geometrically; enough nodes for |x| keep it at float64 roundoff.
    """
    x = np.asarray(x, dtype=np.float64)
    nodes = int(min(64 + np.max(np.abs(x), initial=0.0), 4096))
    t = (np.arange(nodes) + 0.5) * (np.pi / nodes)
    cos_t = np.cos(t)
    with np.errstate(over="ignore"):
        vals = np.exp(x[..., None] * cos_t) * cos_t
    return vals.mean(axis=-1)


@primitive
def i0(x):
    # float64 evaluation: numpy's float32 series gives i0(0) = 0.99999994.
    x = np.asarray(x)
    return np.i0(x.astype(np.float64)).astype(x.dtype, copy=False)


@i0.defvjp
def _i0_vjp(g, out, x):
    return ((g * bessel_i1(x)).astype(g.dtype, copy=False),)


# -- cumulative product -------------------------------------------------------
@primitive
def cumprod(x, *, axis):
    return np.cumprod(x, axis=axis)


def _first_zero_mask(x, axis):
    """True at the first zero of each lane along `axis`."""
    zero = x == 0
    seen_before = np.cumsum(zero, axis=axis) - zero
    return zero & (seen_before == 0)


@cumprod.defvjp
def _cumprod_vjp(g, out, x, *, axis):
    # d out_j / d x_i = out_j / x_i for i before the first zero; at the
    # first zero z it is the product with x_z replaced by 1; after, 0.
    def rev_cumsum(v):
        return np.flip(np.cumsum(np.flip(v, axis), axis=axis), axis)
    first = _first_zero_mask(x, axis)
    before = np.cumsum(x == 0, axis=axis) == 0
    with np.errstate(**_quiet):
        plain = rev_cumsum(g * out) / np.where(before, x, 1)
    out_skip = np.cumprod(np.where(first, 1, x), axis=axis)
    at_zero = rev_cumsum(g * out_skip)
    return (np.where(before, plain, np.where(first, at_zero, 0)),)


# -- complex parts ------------------------------------------------------------
@primitive
def real(x):
    return np.real(x)


@real.defvjp
def _real_vjp(g, out, x):
    return (g.astype(np.asarray(x).dtype, copy=False),)


@primitive
def imag(x):
    return np.imag(x)


@imag.defvjp
def _imag_vjp(g, out, x):
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return (np.zeros_like(x),)
    return ((-1j * g).astype(x.dtype),)


@primitive
def conj(x):
    return np.conjugate(x)


@conj.defvjp
def _conj_vjp(g, out, x):
    return (np.conjugate(g),)


@primitive
def complex_from_parts(re, im):
    return re + 1j * im


def _complex_vjp_re(g, out, re, im):
    return unbroadcast(np.real(g), re)


def _complex_vjp_im(g, out, re, im):
    return unbroadcast(-np.imag(g), im)


complex_from_parts.defvjps(_complex_vjp_re, _complex_vjp_im)
