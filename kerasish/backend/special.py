"""Special functions without scipy: `erf`, `erfinv`, and the exact GELU.

`erf` is evaluated piecewise with Chebyshev expansions whose coefficients
are computed once, at import, from Python's `math.erf`/`math.erfc` (libm,
accurate to a few ulp). Each piece expands a smooth, slowly varying
function, so a degree-20 expansion reaches float64 roundoff:

* `|x| < 1`: `erf(x) / x` as a function of `x**2` (even, entire);
* `1 <= |x| < 6`: `erfc(x) * exp(x**2)` (the scaled complement, which
  behaves like `1 / (x sqrt(pi))`), on two sub-intervals;
* `|x| >= 6`: `erf(x) = sign(x)`, since `erfc(6) < 2.2e-17`; `erfc` uses
  `x * erfc(x) * exp(x**2)` as a function of `1 / x` (which tends to
  `1 / sqrt(pi)`), fitted from libm values and the asymptotic series.

Float64 accuracy matters: gradient checks difference `erf` with a step of
1e-6, so any error above ~1e-13 would show up as a wrong derivative. Inputs
keep their dtype (float32 stays float32).
"""
import math

import numpy as np
from numpy.polynomial import chebyshev as _cheb

from kerasish.backend.primitive import primitive

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_quiet = dict(divide="ignore", over="ignore", invalid="ignore",
              under="ignore")


def _chebyshev_fit(fn, lo, hi, degree=20):
    """Chebyshev coefficients of `fn` on `[lo, hi]` (as Python floats)."""
    scalar = np.vectorize(fn, otypes=[np.float64])
    coeffs = _cheb.chebinterpolate(
        lambda u: scalar(lo + (u + 1.0) * (hi - lo) / 2.0), degree)
    return lo, hi, tuple(float(c) for c in coeffs)


def _erf_over_x(t):
    x = math.sqrt(t)
    return math.erf(x) / x if x > 0 else _TWO_OVER_SQRT_PI


def _scaled_erfc(x):
    return math.erfc(x) * math.exp(x * x)


def _far_tail(v):
    # x * erfc(x) * exp(x^2) at x = 1 / v; libm's exp overflows past
    # x ~ 26.6, where seven terms of the asymptotic series are exact.
    if v > 1 / 26.5:
        x = 1.0 / v
        return math.erfc(x) * math.exp(x * x) * x
    total, term = 0.0, 1.0
    for n in range(1, 8):
        total += term
        term *= -(2 * n - 1) * v * v / 2.0
    return total / math.sqrt(math.pi)


_SMALL = _chebyshev_fit(_erf_over_x, 0.0, 1.0, degree=18)
_TAILS = (_chebyshev_fit(_scaled_erfc, 1.0, 3.0),
          _chebyshev_fit(_scaled_erfc, 3.0, 6.0))
_FAR = _chebyshev_fit(_far_tail, 0.0, 1.0 / 6.0, degree=16)


def _clenshaw(x, piece):
    """Evaluate a fitted piece at `x` (Clenshaw's recurrence)."""
    lo, hi, coeffs = piece
    u = (x - (lo + hi) / 2.0) * (2.0 / (hi - lo))
    u2 = u + u
    b1 = b2 = 0.0
    for c in coeffs[:0:-1]:
        b1, b2 = u2 * b1 - b2 + c, b1
    return u * b1 - b2 + coeffs[0]


def erf_array(x):
    """`erf(x)` of a float array, to float64 roundoff (numpy in and out)."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    a = np.abs(x)
    out = np.where(np.isnan(x), x, np.sign(x)).astype(x.dtype, copy=False)
    small = a < 1.0
    if small.any():
        xs = x[small]
        out[small] = xs * _clenshaw(xs * xs, _SMALL)
    for piece in _TAILS:
        inside = (a >= piece[0]) & (a < piece[1])
        if inside.any():
            at = a[inside]
            erfc = _clenshaw(at, piece) * np.exp(-(at * at))
            out[inside] = np.copysign(1.0 - erfc, x[inside])
    return out


def _erfc_tail(a):
    """`erfc(a)` for `a >= 1` (no cancellation: never `1 - erf`)."""
    out = np.empty_like(a)
    for piece in _TAILS:
        inside = (a >= piece[0]) & (a < piece[1])
        if inside.any():
            out[inside] = _clenshaw(a[inside], piece)
    far = a >= 6.0
    if far.any():
        v = 1.0 / a[far]
        out[far] = _clenshaw(v, _FAR) * v
    with np.errstate(under="ignore"):
        return out * np.exp(-(a * a))


def erfc_array(x):
    """`1 - erf(x)` of a float array, accurate also where it is tiny."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    out = 1.0 - erf_array(x)
    tail = x >= 1.0
    if tail.any():
        out[tail] = _erfc_tail(x[tail])
    return out


def erfinv_array(y):
    """Inverse of `erf` on `[-1, 1]` (±inf at ±1, nan outside)."""
    y = np.asarray(y)
    if y.dtype.kind != "f":
        y = y.astype(np.float64)
    a = np.abs(y)
    out = np.full(y.shape, np.nan, dtype=y.dtype)
    out[a == 1] = np.copysign(np.inf, y[a == 1])
    inside = a < 1
    if inside.any():
        out[inside] = _erfinv_inside(y[inside])
    return out


def _erfinv_inside(y):
    # Winitzki's closed form (relative error ~2e-3) polished by Halley
    # steps, each cubing the error: three reach roundoff from any start.
    with np.errstate(**_quiet):
        log_term = np.log1p(-y * y)
        k = 0.147
        first = 2.0 / (math.pi * k) + log_term / 2.0
        x = np.copysign(np.sqrt(np.sqrt(first * first - log_term / k) -
                                first), y)
        for _ in range(3):
            f = erf_array(x) - y
            slope = _TWO_OVER_SQRT_PI * np.exp(-(x * x))
            x = x - f / (slope * (1.0 + x * f))
    return x


@primitive
def erf(x):
    return erf_array(x)


@erf.defvjp
def _erf_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g * (_TWO_OVER_SQRT_PI * np.exp(-(x * x))),)


@primitive
def erfc(x):
    return erfc_array(x)


@erfc.defvjp
def _erfc_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g * (-_TWO_OVER_SQRT_PI * np.exp(-(x * x))),)


@primitive
def erfinv(x):
    return erfinv_array(x)


@erfinv.defvjp
def _erfinv_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g * (1.0 / _TWO_OVER_SQRT_PI) * np.exp(out * out),)


@primitive(saves=True)
def gelu(x, *, approximate=False):
    """`x * Phi(x)` (exact, with erf) or its tanh approximation.

    Fused: the composite takes six tape records per call, and its VJP
    recomputes nothing here (the CDF term is saved).
    """
    if approximate:
        inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x))
        t = np.tanh(inner)
        return 0.5 * x * (1.0 + t), t
    cdf = 0.5 * (1.0 + erf_array(x * _SQRT_HALF))
    return x * cdf, cdf


@gelu.defvjp
def _gelu_vjp(g, out, x, *, approximate=False, saved):
    if approximate:
        t = saved
        d_inner = 0.7978845608028654 * (1.0 + 0.134145 * (x * x))
        return (g * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * d_inner),)
    with np.errstate(**_quiet):
        pdf = _INV_SQRT_2PI * np.exp(-0.5 * (x * x))
    return (g * (saved + x * pdf),)
