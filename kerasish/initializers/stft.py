"""`STFT` initializer: Fourier-basis kernels for spectrogram layers."""
import numpy as np

from kerasish.backend import dtypes
from kerasish.initializers.initializers import Initializer
from kerasish.saving.object_registration import builtin


def _cosine_window(length, coefficients, periodic):
    """`sum_k (-1)^k a_k cos(2 pi k n / M)`, the generalized cosine family
    (M = length for periodic windows, length - 1 for symmetric ones)."""
    if length == 1:
        return np.ones(1)
    denom = length if periodic else length - 1
    n = np.arange(length)
    return sum((-1) ** k * a * np.cos(2 * np.pi * k * n / denom)
               for k, a in enumerate(coefficients))


def _bartlett(length, periodic):
    if length == 1:
        return np.ones(1)
    m = length + 1 if periodic else length
    n = np.arange(m)
    w = 1 - np.abs(2 * n / (m - 1) - 1)
    return w[:length]


_WINDOWS = {
    "hann": lambda n, p: _cosine_window(n, (0.5, 0.5), p),
    "hamming": lambda n, p: _cosine_window(n, (0.54, 0.46), p),
    "blackman": lambda n, p: _cosine_window(n, (0.42, 0.5, 0.08), p),
    "bartlett": _bartlett,
    "boxcar": lambda n, p: np.ones(n),
}
_ALIASES = {"hanning": "hann", "hamm": "hamming", "blackmanharris": None,
            "triangle": "bartlett", "rect": "boxcar",
            "rectangular": "boxcar", "ones": "boxcar"}


def get_window(name, length, periodic=False):
    """A named window of `length` samples (scipy's `get_window` names for
    the windows it supports; `periodic` is scipy's `fftbins`)."""
    key = _ALIASES.get(name, name)
    if key not in _WINDOWS:
        raise ValueError(
            f"Unknown window {name!r}: kerasish supports "
            f"{sorted(_WINDOWS)} (or pass the window as an array).")
    return np.asarray(_WINDOWS[key](int(length), bool(periodic)))


@builtin("keras.initializers", "stft", "STFTInitializer")
class STFT(Initializer):
    """Kernels of the real or imaginary part of a windowed DFT.

    For a kernel shape `(frame_length, input_channels, fft_bins)` entry
    `[t, 0, f]` is `cos(-2 pi t f / n_fft)` (`side="real"`) or its sine
    (`side="imag"`), times the window and divided by the window's scaling,
    with `n_fft = 2 (fft_bins - 1)`. A Conv1D with this kernel computes a
    short-time Fourier transform.

    Args:
        side: `"real"` or `"imag"`. Defaults to `"real"`.
        window: Window name (`"hann"`, `"hamming"`, `"blackman"`,
            `"bartlett"`, `"boxcar"`), an array of `frame_length` values, or
            None. Defaults to `"hann"`.
        scaling: `"density"` (divide by the window's L2 norm),
            `"spectrum"` (by its sum) or None. Defaults to `"density"`.
        periodic: Use a periodic window (for spectral analysis) instead of
            a symmetric one. Defaults to False.

    Example:

    >>> kernel = STFT(window=None)((4, 1, 3))
    >>> kernel[:, 0, 0]
    array([1., 1., 1., 1.], dtype=float32)
    """

    def __init__(self, side="real", window="hann", scaling="density",
                 periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            get_window(window, 1)
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(
                "Scaling is invalid, it must be `None`, 'density' or "
                f"'spectrum'. Received scaling={scaling}")
        self.side, self.window = side, window
        self.scaling, self.periodic = scaling, periodic

    def __call__(self, shape, dtype=None):
        dtype = dtypes.standardize_dtype(dtype)
        if len(shape) != 3:
            raise ValueError(
                "The STFT initializer needs a kernel shape (frame_length, "
                f"input_channels, fft_bins). Received: shape={shape}")
        frame_length, _, bins = shape
        n_fft = (bins - 1) * 2
        t = np.arange(frame_length).reshape(frame_length, 1, 1)
        f = np.arange(bins).reshape(1, 1, bins)
        angle = -2.0 * np.pi * t * f / n_fft
        kernel = np.cos(angle) if self.side == "real" else np.sin(angle)
        window = self._window(frame_length)
        if window is not None:
            kernel = kernel * window.reshape(frame_length, 1, 1)
            if self.scaling == "density":
                kernel = kernel / np.sqrt(np.sum(np.square(window)))
            elif self.scaling == "spectrum":
                kernel = kernel / np.sum(np.abs(window))
        return np.broadcast_to(kernel, tuple(shape)).astype(dtype)

    def _window(self, frame_length):
        if self.window is None:
            return None
        if isinstance(self.window, str):
            return get_window(self.window, frame_length, self.periodic)
        window = np.asarray(self.window, dtype="float64")
        if window.shape != (frame_length,):
            raise ValueError(
                "The shape of `window` must be equal to [frame_length]. "
                f"Received: window shape={window.shape}")
        return window

    def get_config(self):
        return {"side": self.side, "window": self.window,
                "periodic": self.periodic, "scaling": self.scaling}
