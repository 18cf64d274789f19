"""`UpSampling2D`: enlarge images by repetition or interpolation."""
from kerasish import ops
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.reshaping.resize_weights import KERNELS, resize_matrix
from kerasish.layers.reshaping.up_sampling3d import (scaled_shape,
                                                     spatial_axes)
from kerasish.ops.conv import spatial_tuple
from kerasish.saving.object_registration import builtin

INTERPOLATIONS = ("nearest",) + tuple(KERNELS)


@builtin("keras.layers")
class UpSampling2D(Layer):
    """Upsample images by `size` along rows and columns.

    `"nearest"` repeats each pixel. The other interpolations resize the
    way Keras does on JAX (`jax.image.resize`, no antialiasing): output
    pixel `j` samples the input at `(j + 0.5) / factor - 0.5`, and weights
    falling outside the image are dropped and the rest renormalised.

    Args:
        size: int or tuple of 2 ints, the factors for rows and columns.
            Defaults to `(2, 2)`.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        interpolation: `"nearest"` (default), `"bilinear"`, `"bicubic"`,
            `"lanczos3"` or `"lanczos5"`.

    Example:

    >>> x = np.array([0.0, 1.0], "float32").reshape(1, 1, 2, 1)
    >>> UpSampling2D((1, 2), interpolation="bilinear")(x).numpy().ravel()
    array([0.  , 0.25, 0.75, 1.  ], dtype=float32)
    """

    def __init__(self, size=(2, 2), data_format=None,
                 interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend_config.standardize_data_format(
            data_format)
        try:
            self.size = spatial_tuple(size, 2, "size")
        except ValueError as e:
            raise ValueError(f"UpSampling2D: {e}") from None
        value = interpolation.lower() if isinstance(interpolation, str) \
            else interpolation
        if value not in INTERPOLATIONS:
            raise ValueError(
                "UpSampling2D: invalid value for argument `interpolation`. "
                f"Expected one of {INTERPOLATIONS}. "
                f"Received: interpolation={interpolation!r}")
        self.interpolation = value
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        axes = spatial_axes(self.data_format, 2)
        if self.interpolation == "nearest":
            for axis, factor in zip(axes, self.size):
                inputs = ops.repeat(inputs, factor, axis=axis)
            return inputs
        rows, cols = (inputs.shape[a] for a in axes)
        along_rows = resize_matrix(rows, rows * self.size[0],
                                   self.interpolation, inputs.dtype)
        along_cols = resize_matrix(cols, cols * self.size[1],
                                   self.interpolation, inputs.dtype)
        spec = "nhwc" if self.data_format == "channels_last" else "nchw"
        out = ops.einsum(f"{spec},hk->{spec.replace('h', 'k')}", inputs,
                         along_rows)
        spec = spec.replace("h", "k")
        return ops.einsum(f"{spec},wl->{spec.replace('w', 'l')}", out,
                          along_cols)

    def compute_output_shape(self, input_shape):
        return scaled_shape(input_shape, spatial_axes(self.data_format, 2),
                            self.size)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format,
                       "interpolation": self.interpolation})
        return config
