"""`RandomErasing`: cover a random rectangle of each image."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.random_invert import draw_applied
from kerasish.saving.object_registration import builtin


def rectangle_masks(layer, shape, x0, x1, y0, y1):
    """Boolean masks `(batch, ...)` (image layout, channels repeated) of
    the pixels with `x0 <= x < x1` and `y0 <= y < y1` per image."""
    height, width = shape[layer.height_axis], shape[layer.width_axis]
    ys = np.arange(height, dtype="float32")[None, :, None]
    xs = np.arange(width, dtype="float32")[None, None, :]
    masks = ((xs >= x0[:, None, None]) & (xs < x1[:, None, None])
             & (ys >= y0[:, None, None]) & (ys < y1[:, None, None]))
    axis = 3 if layer.data_format == "channels_last" else 1
    return np.repeat(np.expand_dims(masks, axis), shape[layer.channel_axis],
                     axis=axis)


def spans(rng, batch, length, ratio):
    """Random `[start, end)` spans of `ratio * length` within `length`."""
    size = (ratio * length).astype("float32")
    start = rng.uniform(size=(batch,)).astype("float32") * (length - size)
    return start, start + size


@builtin("keras.layers")
class RandomErasing(BaseImagePreprocessingLayer):
    """Randomly erase a rectangle of each image during training.

    Each image is erased with a probability drawn from `factor`. The
    rectangle's sides are `sqrt(s)` times the image sides, `s` drawn
    independently for each side from `scale`, at a random position; it is
    filled with `fill_value` (a number or 3 per-channel values) or, by
    default, Gaussian noise scaled by the top of `value_range`, clipped to
    the range. Identity at inference.

    Args:
        factor: Probability of erasing, a float in `[0, 1]` or a range.
            Defaults to 1.0.
        scale: Range of the erased area fraction per side (squared).
            Defaults to `(0.02, 0.33)`.
        fill_value: `None` (noise, default), a number, or 3 numbers.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomErasing(factor=(1.0, 1.0), scale=(0.25, 0.25),
    ...                       fill_value=0.0, seed=0)
    >>> out = layer(np.full((1, 8, 8, 1), 9.0)).numpy()
    >>> int((out == 0).sum())
    16
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None,
                 value_range=(0, 255), seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = factors.parse_factor(scale, self._FACTOR_BOUNDS,
                                          "scale")
        if fill_value is not None and not factors.is_number(fill_value) \
                and not (isinstance(fill_value, (tuple, list))
                         and len(fill_value) == 3):
            raise ValueError("The `fill_value` argument should be a number "
                             "(or a list of three numbers). Received: "
                             f"fill_value={fill_value}")
        self.fill_value = fill_value
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def _fill(self, rng, shape):
        if self.fill_value is None:
            fill = rng.standard_normal(shape) * self.value_range[1]
        else:
            fill = np.broadcast_to(np.asarray(self.fill_value, "float32"),
                                   shape) if factors.is_number(
                self.fill_value) else self._per_channel(shape)
        fill = np.clip(fill, self.value_range[0], self.value_range[1])
        return fill.astype(self.compute_dtype)

    def _per_channel(self, shape):
        values = np.asarray(self.fill_value, "float32")
        if self.data_format == "channels_first":
            values = values.reshape(3, 1, 1)
        return np.broadcast_to(values, shape)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        self._is_batched(images)
        shape = (1,) * (4 - len(images.shape)) + tuple(images.shape)
        batch = shape[0]
        height, width = self.image_size(shape)
        rng = self._rng(seed)
        ratios = np.sqrt(rng.uniform(self.scale[0], self.scale[1],
                                     (batch, 2)))
        x0, x1 = spans(rng, batch, width, ratios[:, 0])
        y0, y1 = spans(rng, batch, height, ratios[:, 1])
        return {"apply_erasing": draw_applied(self, rng, batch),
                "batch_masks": rectangle_masks(self, shape, x0, x1, y0, y1),
                "fill_value": self._fill(rng, shape)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        apply = np.reshape(transformation["apply_erasing"], (-1, 1, 1, 1))
        masks = np.logical_and(transformation["batch_masks"], apply)
        return ops.where(masks, transformation["fill_value"], images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "fill_value": self.fill_value,
                       "value_range": self.value_range, "seed": self.seed})
        return config
