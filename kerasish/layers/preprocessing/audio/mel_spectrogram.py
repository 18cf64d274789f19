"""`MelSpectrogram`: audio signals to (decibel) mel spectrograms.

The steps are Keras's: a centred STFT (`ops.stft`, reflect padding), the
magnitude raised to `mag_exp`, a triangular HTK mel filterbank (peaks of
1.0, the DC bin excluded), then optionally decibels clipped `top_db` below
the maximum of the *whole batch* (Keras takes one maximum over the batch,
not one per signal). Every step is a differentiable op.
"""
import numpy as np

from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin

# HTK's mel scale: mel(f) = 1127 ln(1 + f / 700).
_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def hertz_to_mel(frequencies):
    """Frequencies in Hertz on HTK's mel scale."""
    return _MEL_HIGH_FREQUENCY_Q * np.log(
        1.0 + np.asarray(frequencies, "float64") / _MEL_BREAK_FREQUENCY_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129,
                                sampling_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype="float32"):
    """The `(num_spectrogram_bins, num_mel_bins)` mel filterbank.

    Args:
        num_mel_bins: Number of mel bands. Defaults to 20.
        num_spectrogram_bins: Bins of the linear spectrogram
            (`fft_length // 2 + 1`). Defaults to 129.
        sampling_rate: Samples per second of the signal. Defaults to 8000.
        lower_edge_hertz: Lower edge of the lowest band. Defaults to 125.
        upper_edge_hertz: Upper edge of the highest band. Defaults to 3800.
        dtype: Float dtype of the matrix. Defaults to `"float32"`.

    Returns:
        A numpy array of triangular filters with peaks of 1.0; the DC row
        is zero (HTK's convention).

    Example:

    >>> m = linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 4000.0)
    >>> m.shape, float(m[0].sum())
    ((9, 4), 0.0)
    """
    linear = np.linspace(0.0, sampling_rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = hertz_to_mel(linear)[:, None]
    edges = np.linspace(hertz_to_mel(lower_edge_hertz),
                        hertz_to_mel(upper_edge_hertz), num_mel_bins + 2)
    lower, center, upper = edges[:-2], edges[1:-1], edges[2:]
    rising = (bins_mel - lower) / (center - lower)
    falling = (upper - bins_mel) / (upper - center)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return np.pad(weights, [(1, 0), (0, 0)]).astype(dtype)


@builtin("keras.layers")
class MelSpectrogram(Layer):
    """Mel spectrograms of raw audio, in decibels by default.

    Input: a signal `(samples,)` or a batch `(batch, samples)`; output
    `(num_mel_bins, frames)` or `(batch, num_mel_bins, frames)` with
    `frames = 1 + samples // sequence_stride` (for an even `fft_length`).

    Args:
        fft_length: FFT size. Defaults to 2048.
        sequence_stride: Hop between frames. Defaults to 512.
        sequence_length: Window length (<= `fft_length`). Defaults to
            `fft_length`.
        window: `"hann"` (default), `"hamming"`, an array of
            `sequence_length` values, or `None` (no window).
        sampling_rate: Samples per second. Defaults to 16000.
        num_mel_bins: Number of mel bands. Defaults to 128.
        min_freq: Lowest band edge in Hz. Defaults to 20.0.
        max_freq: Highest band edge in Hz. Defaults to `sampling_rate / 2`.
        power_to_db: Convert to decibels. Defaults to `True`.
        top_db: Dynamic range kept below the maximum, in dB. Defaults to
            80.0.
        mag_exp: Exponent of the STFT magnitude (2.0: power). Defaults to
            2.0.
        min_power: Floor of the power before the logarithm. Defaults to
            1e-10.
        ref_power: Power mapped to 0 dB. Defaults to 1.0.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = MelSpectrogram(fft_length=256, sequence_stride=128,
    ...                        num_mel_bins=16)
    >>> layer(np.random.rand(2, 1024).astype("float32")).shape
    (2, 16, 9)
    """

    def __init__(self, fft_length=2048, sequence_stride=512,
                 sequence_length=None, window="hann", sampling_rate=16000,
                 num_mel_bins=128, min_freq=20.0, max_freq=None,
                 power_to_db=True, top_db=80.0, mag_exp=2.0,
                 min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError(
                "`fft_length` must be greater than or equal to "
                f"`sequence_length`. Received: `sequence_length`="
                f"{self.sequence_length}, `fft_length`={self.fft_length}.")
        if isinstance(window, str) and window not in ("hann", "hamming"):
            raise ValueError(
                "If a string is passed to `window`, it must be one of "
                f"'hann', 'hamming'. Received: window={window!r}")
        self.window, self.sampling_rate = window, sampling_rate
        self.num_mel_bins, self.min_freq = num_mel_bins, min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db = power_to_db, top_db
        self.mag_exp, self.min_power = mag_exp, min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)
        self.built = True

    def call(self, inputs):
        dtype = self.compute_dtype if self.compute_dtype in (
            "float32", "float64") else "float32"
        x = ops.cast(inputs, dtype)
        if len(x.shape) not in (1, 2):
            raise ValueError(
                f"Layer '{self.name}' (MelSpectrogram) expects a signal of "
                "shape (samples,) or a batch (batch, samples). Received: "
                f"inputs.shape={tuple(x.shape)}")
        spec = self._spectrogram(x)
        mel = ops.tensordot(spec, self._mel_matrix(spec.shape[-1], dtype),
                            axes=1)
        if self.power_to_db:
            mel = self._dbscale(mel)
        return ops.cast(ops.swapaxes(mel, -1, -2), self.compute_dtype)

    def _spectrogram(self, x):
        real, imag = ops.stft(x, sequence_length=self.sequence_length,
                              sequence_stride=self.sequence_stride,
                              fft_length=self.fft_length, window=self.window,
                              center=True)
        magnitude = ops.sqrt(ops.square(real) + ops.square(imag))
        return ops.power(magnitude, self.mag_exp)

    def _mel_matrix(self, bins, dtype):
        return linear_to_mel_weight_matrix(
            num_mel_bins=self.num_mel_bins, num_spectrogram_bins=bins,
            sampling_rate=self.sampling_rate,
            lower_edge_hertz=self.min_freq,
            upper_edge_hertz=self.max_freq, dtype=dtype)

    def _dbscale(self, power):
        db = 10.0 * ops.log10(ops.maximum(power, self.min_power))
        ref = max(abs(float(self.ref_power)), self.min_power)
        db = db - 10.0 * float(np.log10(ref))
        return ops.maximum(db, ops.max(db) - self.top_db)

    def compute_output_shape(self, input_shape):
        samples = input_shape[-1]
        frames = None if samples is None else 1 + (
            samples + 2 * (self.fft_length // 2) - self.fft_length) \
            // self.sequence_stride
        return tuple(input_shape[:-1]) + (self.num_mel_bins, frames)

    def get_config(self):
        config = super().get_config()
        config.update({
            "fft_length": self.fft_length,
            "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length, "window": self.window,
            "sampling_rate": self.sampling_rate,
            "num_mel_bins": self.num_mel_bins, "min_freq": self.min_freq,
            "max_freq": self.max_freq, "power_to_db": self.power_to_db,
            "top_db": self.top_db, "mag_exp": self.mag_exp,
            "min_power": self.min_power, "ref_power": self.ref_power,
        })
        return config
