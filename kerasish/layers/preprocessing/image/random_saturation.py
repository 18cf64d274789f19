"""`RandomSaturation`: scale the colour saturation of images."""
import numpy as np

from kerasish import ops
from kerasish.backend import config
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.random_hue import replace_channel
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomSaturation(BaseImagePreprocessingLayer):
    """Randomly adjust the saturation of RGB images during training.

    Per image `f` is drawn from the factor range and the HSV saturation is
    multiplied by `f / (1 - f)` (clipped to `[0, 1]`): `f = 0.5` leaves
    the image unchanged, 0 makes it grayscale, values near 1 saturate it
    fully. Works for any `value_range` (hue and saturation do not depend
    on the scale); outputs are in the compute dtype.

    Args:
        factor: A float `f` in `[-1, 1]`, drawn from `[-|f|, |f|]` as
            Keras 3 does, or a pair `(lower, upper)`; `(0.5, 0.5)` is a
            no-op.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomSaturation(factor=(0.0, 0.0))
    >>> layer(np.array([[[200.0, 100.0, 50.0]]])).numpy()
    array([[[200., 200., 200.]]], dtype=float32)
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None,
                 seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = factors.parse_value_range(value_range)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        self._is_batched(images)
        factor = self._rng(seed).uniform(self.factor[0], self.factor[1],
                                         (self.batch_size(images),))
        factor = factor / (1.0 - factor + config.epsilon())
        return {"factor": factor.astype(self.compute_dtype)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        hsv = ops.image.rgb_to_hsv(images, data_format=self.data_format)
        scale = np.reshape(transformation["factor"], (-1, 1, 1))
        saturation = ops.clip(ops.take(hsv, 1, axis=self.channel_axis)
                              * scale, 0.0, 1.0)
        return ops.image.hsv_to_rgb(replace_channel(self, hsv, 1, saturation),
                                    data_format=self.data_format)

    def get_config(self):
        config_ = super().get_config()
        config_.update({"factor": self.factor,
                        "value_range": self.value_range, "seed": self.seed})
        return config_
