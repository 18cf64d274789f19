"""Discrete Fourier transforms along the last axis (or last two axes).

The transforms are linear, so each VJP is the transposed transform,
expressed in JAX's convention for complex cotangents (the one
`elementwise.real`/`imag`/`complex_from_parts` use): the DFT matrix is
symmetric, so the transpose of `fft` is `fft` and of `ifft` is `ifft`.
Results keep single precision for single-precision inputs.
"""
import numpy as np

from kerasish.backend.primitive import primitive


def _complex_dtype(x):
    return np.complex64 if np.asarray(x).dtype in (np.float32, np.complex64) \
        else np.complex128


def _real_dtype(x):
    return np.float32 if _complex_dtype(x) == np.complex64 else np.float64


@primitive
def fft(z, *, axes=(-1,)):
    return np.fft.fftn(z, axes=axes).astype(_complex_dtype(z), copy=False)


@fft.defvjp
def _fft_vjp(g, out, z, *, axes=(-1,)):
    return (np.fft.fftn(g, axes=axes).astype(g.dtype, copy=False),)


@primitive
def ifft(z, *, axes=(-1,)):
    return np.fft.ifftn(z, axes=axes).astype(_complex_dtype(z), copy=False)


@ifft.defvjp
def _ifft_vjp(g, out, z, *, axes=(-1,)):
    return (np.fft.ifftn(g, axes=axes).astype(g.dtype, copy=False),)


@primitive
def rfft(x):
    """One-sided FFT of a real signal along the last axis."""
    return np.fft.rfft(x).astype(_complex_dtype(x), copy=False)


@rfft.defvjp
def _rfft_vjp(g, out, x):
    # rfft = (first n // 2 + 1 rows of the DFT) x; transpose: zero-pad the
    # cotangent back to n entries, apply the (symmetric) DFT, keep the
    # real part since x is real.
    n = x.shape[-1]
    padded = np.zeros(g.shape[:-1] + (n,), g.dtype)
    padded[..., :g.shape[-1]] = g
    return (np.real(np.fft.fft(padded)).astype(x.dtype, copy=False),)


def _onesided_weights(n, bins, dtype):
    """Weight of each one-sided bin in the inverse real transform: 1 for
    the DC (and Nyquist, n even) bins, 2 for the others (their mirrors)."""
    w = np.full(bins, 2.0, dtype)
    w[0] = 1.0
    if n % 2 == 0 and bins > n // 2:
        w[n // 2] = 1.0
    return w


@primitive
def irfft(z, *, n):
    """Real inverse of a one-sided spectrum (`n` output samples)."""
    return np.fft.irfft(z, n=n).astype(_real_dtype(z), copy=False)


@irfft.defvjp
def _irfft_vjp(g, out, z, *, n):
    # y_t = 1/n Re(sum_k w_k z_k e^{2 pi i k t / n}); in JAX's convention
    # the cotangent of z_k is w_k * ifft(g)_k on the bins irfft reads.
    bins = z.shape[-1]
    spectrum = np.fft.ifft(g, n=n)[..., :min(bins, n // 2 + 1)]
    weights = _onesided_weights(n, spectrum.shape[-1], g.dtype)
    gz = np.zeros(z.shape, z.dtype)
    gz[..., :spectrum.shape[-1]] = spectrum * weights
    return (gz,)
