"""`STFTSpectrogram`: short-time Fourier spectrograms as convolutions.

As in Keras, the STFT is two strided 1-D convolutions whose kernels
(`real_kernel`, `imag_kernel`, shape `(frame_length, 1, fft_length // 2 +
1)`, from the `STFT` initializer) hold the windowed cosine and sine bases.
Each input channel is convolved on its own (channels are folded into the
batch), so the kernels are shared across channels and the weights match
Keras's list, shapes and order: trainable like any weight unless the layer
is created with `trainable=False`.
"""
import math
import warnings

from kerasish import backend, ops
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.initializers.stft import STFT, get_window
from kerasish.saving.object_registration import builtin

_MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")


def _check_arguments(mode, frame_length, frame_step, fft_length, scaling,
                     padding, window):
    if frame_step is not None and (frame_step > frame_length or
                                   frame_step < 1):
        raise ValueError(
            "`frame_step` should be a positive integer not greater than "
            f"`frame_length`. Received frame_step={frame_step}, "
            f"frame_length={frame_length}")
    if fft_length is not None and fft_length < frame_length:
        raise ValueError(
            "`fft_length` should be not less than `frame_length`. "
            f"Received fft_length={fft_length}, frame_length={frame_length}")
    if fft_length is not None and (fft_length & -fft_length) != fft_length:
        warnings.warn("`fft_length` is recommended to be a power of two. "
                      f"Received fft_length={fft_length}", stacklevel=3)
    if mode not in _MODES:
        raise ValueError("Output mode is invalid, it must be one of "
                         f"{', '.join(_MODES)}. Received: mode={mode}")
    if scaling is not None and scaling not in ("density", "spectrum"):
        raise ValueError("Scaling is invalid, it must be `None`, 'density' "
                         f"or 'spectrum'. Received scaling={scaling}")
    if padding not in ("valid", "same"):
        raise ValueError("Padding is invalid, it should be 'valid', 'same'. "
                         f"Received: padding={padding}")
    if isinstance(window, str):
        get_window(window, 1)


@builtin("keras.layers")
class STFTSpectrogram(Layer):
    """Spectrogram of 1-D signals by a short-time Fourier transform.

    Input: `(batch, time, channels)` (`"channels_last"`) or `(batch,
    channels, time)`. Every channel gets the same transform; the frequency
    bins of all channels are laid side by side (or on a new axis with
    `expand_dims=True`).

    Args:
        mode: `"log"` (default, log magnitude), `"magnitude"`, `"psd"`
            (power spectral density, interior bins doubled), `"real"`,
            `"imag"`, `"angle"` or `"stft"` (real then imaginary bins).
        frame_length: Samples per frame. Defaults to 256.
        frame_step: Hop between frames. Defaults to `frame_length // 2`.
        fft_length: FFT size (>= `frame_length`). Defaults to the smallest
            power of two >= `frame_length`.
        window: `"hann"` (default), `"hamming"`, another window name, an
            array of `frame_length` values, or `None`.
        periodic: Periodic (instead of symmetric) window. Defaults to
            `False`.
        scaling: `"density"` (default, window L2 norm), `"spectrum"`
            (window sum) or `None`.
        padding: `"valid"` (default) or `"same"`.
        expand_dims: Put the frequency bins on their own axis (an image
            per channel). Defaults to `False`.
        data_format: `"channels_last"` or `"channels_first"`. Defaults to
            `kerasish.config.image_data_format()`.
        **kwargs: Base layer arguments (e.g. `trainable=False`).

    Example:

    >>> layer = STFTSpectrogram(frame_length=64, frame_step=32,
    ...                         fft_length=64)
    >>> layer(np.zeros((2, 512, 1), "float32")).shape
    (2, 15, 33)
    >>> [w.shape for w in layer.weights]
    [(64, 1, 33), (64, 1, 33)]
    """

    def __init__(self, mode="log", frame_length=256, frame_step=None,
                 fft_length=None, window="hann", periodic=False,
                 scaling="density", padding="valid", expand_dims=False,
                 data_format=None, **kwargs):
        _check_arguments(mode, frame_length, frame_step, fft_length,
                         scaling, padding, window)
        super().__init__(**kwargs)
        self.mode, self.frame_length = mode, frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or \
            2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic = window, periodic
        self.scaling, self.padding = scaling, padding
        self.expand_dims = expand_dims
        self.data_format = backend.standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        for side, skip in (("real", "imag"), ("imag", "real")):
            if self.mode != skip:
                kernel = self.add_weight(
                    name=f"{side}_kernel", shape=shape,
                    initializer=STFT(side, self.window, self.scaling,
                                     self.periodic))
                setattr(self, f"{side}_kernel", kernel)

    def _apply_conv(self, inputs, kernel):
        """`(batch, channels, bins, frames)` of one kernel."""
        last = self.data_format == "channels_last"
        if last:
            time, channels = inputs.shape[1], inputs.shape[2]
            x = ops.reshape(ops.transpose(inputs, (0, 2, 1)), (-1, time, 1))
        else:
            channels, time = inputs.shape[1], inputs.shape[2]
            x = ops.reshape(inputs, (-1, 1, time))
        y = ops.conv(x, ops.cast(kernel, inputs.dtype), padding=self.padding,
                     strides=self._frame_step, data_format=self.data_format)
        if last:
            y = ops.transpose(y, (0, 2, 1))
        return ops.reshape(y, (-1, channels) + tuple(y.shape[1:]))

    def _adjust_shapes(self, x):
        """`(batch, channels, bins, frames)` to the layer's output layout."""
        _, channels, bins, frames = x.shape
        if self.expand_dims:
            axes = (0, 3, 2, 1) if self.data_format == "channels_last" \
                else (0, 1, 3, 2)
            return ops.transpose(x, axes)
        x = ops.reshape(x, (-1, channels * bins, frames))
        if self.data_format == "channels_last":
            x = ops.transpose(x, (0, 2, 1))
        return x

    def call(self, inputs):
        dtype = backend.standardize_dtype(inputs.dtype)
        if dtype not in ("float16", "float32", "float64"):
            raise TypeError("Invalid input type. Expected `float16`, "
                            "`float32` or `float64`. Received: input "
                            f"type={dtype}")
        real = self._apply_conv(inputs, self.real_kernel) \
            if self.mode != "imag" else None
        imag = self._apply_conv(inputs, self.imag_kernel) \
            if self.mode != "real" else None
        if self.mode in ("real", "imag"):
            return self._adjust_shapes(real if imag is None else imag)
        if self.mode == "angle":
            return self._adjust_shapes(ops.arctan2(imag, real))
        if self.mode == "stft":
            return self._adjust_shapes(ops.concatenate([real, imag], axis=2))
        return self._from_power(ops.square(real) + ops.square(imag))

    def _from_power(self, power):
        if self.mode == "psd":
            # One-sided density: every bin but DC and Nyquist counts twice.
            inner = ops.pad(power[:, :, 1:-1, :],
                            [(0, 0), (0, 0), (1, 1), (0, 0)])
            return self._adjust_shapes(power + inner)
        eps = backend.epsilon()
        magnitude = self._adjust_shapes(ops.sqrt(ops.maximum(power, eps)))
        if self.mode == "magnitude":
            return magnitude
        return ops.log(ops.maximum(magnitude, eps))

    def _frames(self, time):
        if time is None:
            return None
        if self.padding == "same":
            return -(-time // self._frame_step)
        return (time - self.frame_length) // self._frame_step + 1

    def compute_output_shape(self, input_shape):
        last = self.data_format == "channels_last"
        channels = input_shape[-1] if last else input_shape[1]
        time = input_shape[1] if last else input_shape[-1]
        bins = self._fft_length // 2 + 1
        bins = 2 * bins if self.mode == "stft" else bins
        frames = self._frames(time)
        if self.expand_dims:
            return (input_shape[0], frames, bins, channels) if last else \
                (input_shape[0], channels, frames, bins)
        width = None if channels is None else bins * channels
        return (input_shape[0], frames, width) if last else \
            (input_shape[0], width, frames)

    def get_config(self):
        config = super().get_config()
        config.update({
            "mode": self.mode, "frame_length": self.frame_length,
            "frame_step": self.frame_step, "fft_length": self.fft_length,
            "window": self.window, "periodic": self.periodic,
            "scaling": self.scaling, "padding": self.padding,
            "data_format": self.data_format,
            "expand_dims": self.expand_dims,
        })
        return config
