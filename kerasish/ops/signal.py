"""The rest of `keras.ops.math`: FFTs, STFT/ISTFT, framing, complex views.

As in Keras, complex signals are passed and returned as `(real, imag)`
pairs of float tensors. Every transform is differentiable (the FFT
primitives are in `backend/fft.py`). `kerasish/ops/math.py` re-exports
everything listed in `__all__`, including the segment reductions,
`logdet` and `cdist` of `math_extra.py`.
"""
import numpy as np

from kerasish.backend import elementwise as E
from kerasish.backend import fft as F
from kerasish.backend import scatter as SC
from kerasish.backend import shape as S
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_base import _float, divide, multiply
from kerasish.ops.numpy_join import pad, stack
from kerasish.ops.symbolic import keras_op

__all__ = ["fft", "fft2", "ifft2", "rfft", "irfft", "stft", "istft",
           "extract_sequences", "view_as_complex", "view_as_real", "logdet",
           "segment_min", "segment_prod", "cdist"]


def _complex(x, min_rank=1):
    """The complex tensor of a `(real, imag)` pair, validated as Keras."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("Input `x` should be a tuple of two tensors - real "
                         f"and imaginary. Received: x={x!r:.80}")
    real, imag = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    if real.shape != imag.shape:
        raise ValueError(
            "Input `x` should be a tuple of two tensors - real and "
            "imaginary. Both the real and imaginary parts should have the "
            f"same shape. Received: x[0].shape = {real.shape}, "
            f"x[1].shape = {imag.shape}")
    if real.dtype.kind != "f" or imag.dtype.kind != "f":
        raise ValueError("At least one tensor in input `x` is not of type "
                         f"float. Received: dtypes {real.dtype}, "
                         f"{imag.dtype}")
    if real.ndim < min_rank:
        raise ValueError(f"Input should have rank >= {min_rank}. "
                         f"Received: input.shape = {real.shape}")
    return E.complex_from_parts(real, imag)


def _parts(z):
    return E.real(z), E.imag(z)


@keras_op
def fft(x):
    """Fast Fourier transform along the last axis.

    Args:
        x: Tuple `(real, imag)` of float tensors of the same shape.

    Returns:
        Tuple `(real, imag)` of the transform.

    Example:

    >>> re, im = fft((np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(4)))
    >>> re.numpy()
    array([1., 1., 1., 1.])
    """
    return _parts(F.fft(_complex(x), axes=(-1,)))


@keras_op
def fft2(x):
    """2-D fast Fourier transform over the last two axes.

    Args:
        x: Tuple `(real, imag)` of float tensors of rank >= 2.

    Returns:
        Tuple `(real, imag)` of the transform.

    Example:

    >>> re, im = fft2((np.ones((2, 2)), np.zeros((2, 2))))
    >>> re.numpy()
    array([[4., 0.],
           [0., 0.]])
    """
    return _parts(F.fft(_complex(x, 2), axes=(-2, -1)))


@keras_op
def ifft2(x):
    """Inverse 2-D fast Fourier transform over the last two axes.

    Args:
        x: Tuple `(real, imag)` of float tensors of rank >= 2.

    Returns:
        Tuple `(real, imag)` of the inverse transform.

    Example:

    >>> re, im = ifft2((np.full((2, 2), 4.0), np.zeros((2, 2))))
    >>> re.numpy()
    array([[4., 0.],
           [0., 0.]])
    """
    return _parts(F.ifft(_complex(x, 2), axes=(-2, -1)))


def _fit_length(x, n):
    """Crop or zero-pad the last axis of `x` to `n` entries."""
    size = x.shape[-1]
    if n < size:
        return S.getitem(x, key=(Ellipsis, slice(0, n)))
    if n > size:
        return pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - size)])
    return x


@keras_op
def rfft(x, fft_length=None):
    """FFT of a real signal along the last axis (one-sided spectrum).

    Args:
        x: Real tensor.
        fft_length: Optional transform length: the signal is cropped or
            zero-padded to it. Defaults to the signal length.

    Returns:
        Tuple `(real, imag)` with `fft_length // 2 + 1` bins.

    Example:

    >>> re, im = rfft(np.array([1.0, 1.0, 1.0, 1.0]))
    >>> re.numpy()
    array([4., 0., 0.])
    """
    x = _float(x)
    n = x.shape[-1] if fft_length is None else int(fft_length)
    return _parts(F.rfft(_fit_length(x, n)))


@keras_op
def irfft(x, fft_length=None):
    """Inverse of `rfft`: a real signal from a one-sided spectrum.

    Args:
        x: Tuple `(real, imag)` of the one-sided spectrum.
        fft_length: Output length. Defaults to `2 * (bins - 1)`.

    Returns:
        Real tensor with `fft_length` samples on the last axis.

    Example:

    >>> irfft((np.array([4.0, 0.0, 0.0]), np.zeros(3))).numpy()
    array([1., 1., 1., 1.])
    """
    z = _complex(x)
    n = 2 * (z.shape[-1] - 1) if fft_length is None else int(fft_length)
    return F.irfft(z, n=n)


@keras_op
def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` samples every `sequence_stride` samples.

    Args:
        x: Tensor of shape `(..., signal_length)`.
        sequence_length: Frame length.
        sequence_stride: Hop between frames.

    Returns:
        Tensor of shape `(..., num_frames, sequence_length)`.

    Example:

    >>> extract_sequences(np.arange(5.0), 2, 2).numpy()
    array([[0., 1.],
           [2., 3.]])
    """
    x = convert_to_tensor(x)
    length, step = int(sequence_length), int(sequence_stride)
    if length <= 0 or step <= 0:
        raise ValueError("`sequence_length` and `sequence_stride` must be "
                         f"positive. Received: sequence_length={length}, "
                         f"sequence_stride={step}")
    frames = max(0, (x.shape[-1] - length) // step + 1)
    index = np.arange(frames)[:, None] * step + np.arange(length)[None, :]
    return S.take(x, index, axis=-1)


def _window(window, sequence_length, fft_length, dtype):
    """The analysis window, zero-padded (centred) to `fft_length`."""
    if window is None:
        return np.ones(fft_length, dtype)
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(
                "If a string is passed to `window`, it must be one of "
                f'`"hann"`, `"hamming"`. Received: window={window}')
        # scipy's periodic windows (`get_window(..., fftbins=True)`).
        phase = np.cos(2 * np.pi * np.arange(sequence_length)
                       / sequence_length)
        a = 0.5 if window == "hann" else 0.54
        win = a - (1 - a) * phase
    else:
        win = np.asarray(convert_to_tensor(window).numpy(), np.float64)
    if win.ndim != 1 or win.shape[-1] != sequence_length:
        raise ValueError("The shape of `window` must be equal to "
                         f"[sequence_length]. Received: window shape="
                         f"{win.shape}")
    left = (fft_length - sequence_length) // 2
    return np.pad(win, (left, fft_length - sequence_length - left)
                  ).astype(dtype)


@keras_op
def stft(x, sequence_length, sequence_stride, fft_length, window="hann",
         center=True):
    """Short-time Fourier transform of real signals along the last axis.

    Args:
        x: float32/float64 tensor of shape `(..., signal_length)`.
        sequence_length: Window length.
        sequence_stride: Hop between frames.
        fft_length: FFT size (>= `sequence_length`; the window is centred
            in it).
        window: `"hann"` (default), `"hamming"`, a 1-D tensor of
            `sequence_length` values, or `None` (rectangular).
        center: Reflect-pad the signal by `fft_length // 2` on both sides so
            frames are centred on their times. Defaults to `True`.

    Returns:
        Tuple `(real, imag)` of shape `(..., num_frames, fft_length // 2 +
        1)`.

    Example:

    >>> re, im = stft(np.ones(8, "float32"), 4, 2, 4, window=None,
    ...               center=False)
    >>> re.numpy()
    array([[4., 0., 0.],
           [4., 0., 0.],
           [4., 0., 0.]], dtype=float32)
    """
    x = convert_to_tensor(x)
    if str(x.dtype) not in ("float32", "float64"):
        raise TypeError("Invalid input type. Expected `float32` or "
                        f"`float64`. Received: input type={x.dtype}")
    if fft_length < sequence_length:
        raise ValueError(
            "`fft_length` must equal or larger than `sequence_length`. "
            f"Received: sequence_length={sequence_length}, "
            f"fft_length={fft_length}")
    win = _window(window, sequence_length, fft_length, x.dtype)
    if center:
        half = fft_length // 2
        x = pad(x, [(0, 0)] * (x.ndim - 1) + [(half, half)], mode="reflect")
    frames = extract_sequences(x, fft_length, sequence_stride)
    return _parts(F.rfft(multiply(frames, Tensor(win))))


def _overlap_add(frames, step):
    """Sum frames `(..., n_frames, n)` into a signal, hop `step`."""
    n_frames, n = frames.shape[-2:]
    lead = frames.shape[:-2]
    positions = (np.arange(n_frames)[:, None] * step
                 + np.arange(n)[None, :]).ravel()
    rows = S.moveaxis(S.reshape(frames, shape=lead + (n_frames * n,)),
                      source=-1, destination=0)
    summed = SC.scatter_add(rows, positions=positions,
                            size=(n_frames - 1) * step + n)
    return S.moveaxis(summed, source=0, destination=-1)


@keras_op
def istft(x, sequence_length, sequence_stride, fft_length, length=None,
          window="hann", center=True):
    """Inverse short-time Fourier transform (windowed overlap-add).

    Args:
        x: Tuple `(real, imag)` of shape `(..., num_frames, fft_length // 2
            + 1)`.
        sequence_length: Window length.
        sequence_stride: Hop between frames.
        fft_length: FFT size.
        length: Optional output length (the signal is cropped to it).
        window: As in `stft`. Defaults to `"hann"`. With `None`, Keras
            divides by `sequence_stride` instead of the window sum, so the
            round trip is scaled by `fft_length / sequence_stride`; this is
            reproduced as is.
        center: Whether `stft` padded the signal (the padding is removed).

    Returns:
        Real tensor of shape `(..., signal_length)`.

    Example:

    >>> signal = np.sin(np.arange(32.0))
    >>> spec = stft(signal, 8, 4, 8)
    >>> bool(np.allclose(istft(spec, 8, 4, 8).numpy(), signal))
    True
    """
    z = _complex(x, 2)
    dtype = E.real(z).dtype
    win = _window(window, sequence_length, fft_length, dtype)
    frames = multiply(F.irfft(z, n=fft_length), Tensor(win * win.sum()))
    signal = _overlap_add(frames, sequence_stride)
    norm = _overlap_add(Tensor(np.broadcast_to(win * win, (
        z.shape[-2], fft_length)).copy()), sequence_stride).numpy()
    signal = divide(signal, Tensor(np.where(norm > 1e-10, norm, 1.0)
                                   .astype(dtype)))
    signal = divide(signal, float(win.sum()) if window is not None
                    else float(sequence_stride))
    start = fft_length // 2 if center else 0
    if length is not None:
        stop = start + int(length)
    else:
        stop = signal.shape[-1] - (fft_length // 2 if center else 0)
    return S.getitem(signal, key=(Ellipsis, slice(start, stop)))


@keras_op
def view_as_complex(x):
    """A complex tensor from a real one whose last axis is `(real, imag)`.

    Args:
        x: Float tensor of shape `(..., 2)`.

    Returns:
        complex64 tensor of shape `(...)` (complex128 for float64 input).

    Example:

    >>> view_as_complex(np.array([[1.0, 2.0]], "float32")).numpy()
    array([1.+2.j], dtype=complex64)
    """
    x = convert_to_tensor(x)
    if x.ndim < 1 or x.shape[-1] != 2:
        raise ValueError("Last dimension of input must be size 2 (real and "
                         f"imaginary). Received shape: {x.shape}")
    x = x if x.dtype == np.float64 else cast(x, "float32")
    return E.complex_from_parts(x[..., 0], x[..., 1])


@keras_op
def view_as_real(x):
    """A real tensor `(..., 2)` holding the real and imaginary parts.

    Args:
        x: Complex (or real) tensor.

    Returns:
        Float tensor with a last axis of size 2.

    Example:

    >>> view_as_real(np.array([1 + 2j], "complex64")).numpy()
    array([[1., 2.]], dtype=float32)
    """
    x = convert_to_tensor(x)
    return stack([E.real(x), E.imag(x)], axis=-1)


from kerasish.ops.math_extra import (cdist, logdet, segment_min,  # noqa
                                     segment_prod)