"""`RandomSharpness`: blend images with a smoothed copy (sharpen or blur)."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

# PIL's SMOOTH filter: 5/13 on the centre, 1/13 on the 8 neighbours.
_SMOOTH = np.full((3, 3), 1.0 / 13.0)
_SMOOTH[1, 1] = 5.0 / 13.0


@builtin("keras.layers")
class RandomSharpness(BaseImagePreprocessingLayer):
    """Randomly sharpen or soften images during training.

    Per image `f` is drawn from the factor range and the image becomes
    `smooth + 2f * (x - smooth)` (`smooth`: a 3x3 smoothing of `x` with
    zero padding): `f = 0.5` keeps it, smaller values blur, larger values
    sharpen. Clipped to `value_range`, in the compute dtype.

    Args:
        factor: A float `f` in `[0, 1]` (drawn from `[0, f]`) or a pair
            `(lower, upper)`.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomSharpness(factor=(0.5, 0.5))
    >>> image = np.arange(9.0).reshape(3, 3, 1)
    >>> bool(np.allclose(layer(image).numpy(), image))
    True
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

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
        return {"factor": factor.astype(self.compute_dtype)}

    def _smooth(self, images):
        channels = images.shape[self.channel_axis]
        kernel = np.tile(_SMOOTH[:, :, None, None], (1, 1, channels, 1))
        return ops.depthwise_conv(images, kernel.astype(images.dtype), 1,
                                  padding="same",
                                  data_format=self.data_format)

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        sharpness = np.reshape(transformation["factor"] * 2.0, (-1, 1, 1, 1))
        smooth = self._smooth(images)
        images = images + (1.0 - sharpness) * (smooth - images)
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
