"""`RandomHue`: rotate the hue of images by a random amount."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def replace_channel(layer, images, index, channel):
    """`images` with channel `index` replaced (any data format)."""
    axis = layer.channel_axis
    parts = [channel if i == index else ops.take(images, i, axis=axis)
             for i in range(3)]
    return ops.stack(parts, axis=axis)


@builtin("keras.layers")
class RandomHue(BaseImagePreprocessingLayer):
    """Randomly shift the hue of RGB images during training.

    Per image a shift `s` is drawn from the factor range, given a random
    sign and halved: the hue (in `[0, 1)`, a full turn) moves by `s` and
    wraps around. Pixel values are in `value_range`; outputs are in the
    compute dtype.

    Args:
        factor: A float `f` in `[0, 1]` (shifts up to `f / 2` of a turn)
            or a pair `(lower, upper)`.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomHue(factor=(1.0, 1.0), value_range=(0, 1))
    >>> layer(np.array([[[1.0, 0.0, 0.0]]])).numpy().round(3)
    array([[[0., 1., 1.]]], dtype=float32)
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None,
                 seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        self._is_batched(images)
        batch = self.batch_size(images)
        rng = self._rng(seed)
        sign = np.where(rng.uniform(size=(batch,)) > 0.5, -1.0, 1.0)
        shift = rng.uniform(self.factor[0], self.factor[1], (batch,))
        return {"factor": (sign * shift * 0.5).astype(self.compute_dtype)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        images = self._transform_value_range(images, self.value_range,
                                             (0, 1), self.compute_dtype)
        hsv = ops.image.rgb_to_hsv(images, data_format=self.data_format)
        shift = np.reshape(transformation["factor"], (-1, 1, 1))
        hue = ops.take(hsv, 0, axis=self.channel_axis) + shift
        hue = ops.where(hue > 1.0, hue - 1.0, hue)
        hue = ops.where(hue < 0.0, hue + 1.0, hue)
        images = ops.image.hsv_to_rgb(replace_channel(self, hsv, 0, hue),
                                      data_format=self.data_format)
        images = ops.clip(images, 0.0, 1.0)
        return self._transform_value_range(images, (0, 1), self.value_range,
                                           self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
