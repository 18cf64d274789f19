"""`Equalization`: histogram equalization of each channel of each image."""
import numpy as np

from kerasish import ops
from kerasish.backend.tensor import Tensor
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def _to_rows(layer, images):
    """`(batch * channels, height * width)` channel rows (channels last)."""
    if layer.data_format == "channels_first":
        images = np.moveaxis(images, 1, -1)
    batch, height, width, channels = images.shape
    rows = np.moveaxis(images, -1, 1).reshape(batch * channels, -1)
    return rows, (batch, height, width, channels)


def _from_rows(layer, rows, shape):
    batch, height, width, channels = shape
    images = np.moveaxis(rows.reshape(batch, channels, height, width), 1, -1)
    if layer.data_format == "channels_first":
        images = np.moveaxis(images, -1, 1)
    return images


def equalize_rows(rows, bins):
    """Equalize each row of values in `[0, 255]` (float32, as Keras)."""
    count = rows.shape[0]
    scaled = rows * np.float32(bins - 1) / np.float32(255.0)
    indices = np.clip(scaled.astype("int32"), 0, bins - 1)
    offsets = np.arange(count)[:, None] * bins
    hist = np.bincount((indices + offsets).ravel(),
                       minlength=count * bins).reshape(count, bins)
    cdf = np.cumsum(hist, axis=1)
    cdf_min = np.take_along_axis(cdf, np.argmax(cdf > 0, axis=1)[:, None], 1)
    denominator = cdf[:, -1:] - cdf_min
    denominator = np.where(denominator == 0, 1, denominator)
    # Integer counts divided in float32, as Keras's true division does.
    lookup = ((cdf - cdf_min) * 255).astype("float32") / \
        denominator.astype("float32")
    lookup = np.clip(np.round(lookup), 0, 255)
    position = np.clip(rows / np.float32(255.0) * np.float32(bins - 1), 0,
                       bins - 1).astype("int32")
    equalized = np.take_along_axis(lookup, position, axis=1)
    flat = (np.count_nonzero(hist, axis=1) <= 1)[:, None]
    return np.where(flat, rows, equalized).astype("float32")


@builtin("keras.layers")
class Equalization(BaseImagePreprocessingLayer):
    """Histogram-equalize each channel of each image.

    Values (mapped to `[0, 255]`) are binned into `bins` bins and replaced
    through the normalised cumulative histogram, spreading the most
    frequent intensities; a channel with a single occupied bin is left
    unchanged. Acts in training and inference (as Keras documents), on
    each image of a batch separately; outputs are in the compute dtype.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        bins: Number of histogram bins. Defaults to 256.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> image = np.array([[[10.0], [10.0], [20.0], [30.0]]])
    >>> Equalization()(image)[..., 0].numpy()
    array([[  0.,   0., 128., 255.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), bins=256, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if not isinstance(bins, int) or isinstance(bins, bool) or bins < 1:
            raise ValueError("`bins` must be a positive integer. "
                             f"Received: bins={bins!r}")
        self.bins = bins
        self.value_range = factors.parse_value_range(value_range)

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        low, high = self.value_range
        values = np.asarray(images, "float32")
        scale = np.float32(255.0 / (high - low))
        values = values * scale + np.float32(-low * scale)
        rows, shape = _to_rows(self, values)
        out = _from_rows(self, equalize_rows(rows, self.bins), shape)
        out = out * np.float32((high - low) / 255.0) + np.float32(low)
        return Tensor(out.astype(self.compute_dtype))

    def get_config(self):
        config = super().get_config()
        config.update({"bins": self.bins, "value_range": self.value_range})
        return config
