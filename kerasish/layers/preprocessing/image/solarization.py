"""`Solarization`: invert the pixels above a threshold (after an offset)."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

_FACTOR_MESSAGE = ("The `addition_factor` and `threshold_factor` arguments "
                   "should be a number (or a list of two numbers) in the "
                   "range [0, 1]. ")


def _parse(factor, name):
    """A number `f` means `(0, f)`; a pair is sorted; values in [0, 1]."""
    if factors.is_number(factor):
        factors.parse_symmetric_factor(factor, name, lambda f: 0 <= f <= 1,
                                       _FACTOR_MESSAGE)
        return 0, factor
    return factors.parse_symmetric_factor(factor, name,
                                          lambda f: 0 <= f <= 1,
                                          _FACTOR_MESSAGE)


@builtin("keras.layers")
class Solarization(BaseImagePreprocessingLayer):
    """Solarize images during training.

    On the `[0, 255]` scale, each image gets `x + a` (clipped), and the
    values at or above a threshold `t` become `255 - value`; `a` and `t`
    are drawn per image as the factor ranges times 255, as Keras
    documents. With the defaults (`a = t = 0`) every pixel is inverted.
    Outputs are in the compute dtype, in `value_range`.

    Args:
        addition_factor: A float `f` in `[0, 1]` (range `(0, f)`) or a
            pair: the offset as a fraction of 255. Defaults to 0.0.
        threshold_factor: The same for the threshold. Defaults to 0.0.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`, `data_format`).

    Example:

    >>> layer = Solarization(threshold_factor=(128 / 255, 128 / 255))
    >>> layer(np.array([[[0.0], [100.0], [191.0], [255.0]]]))[..., 0].numpy()
    array([[  0., 100.,  64.,   0.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, addition_factor=0.0, threshold_factor=0.0,
                 value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        self.addition_factor = _parse(addition_factor, "addition_factor")
        self.threshold_factor = _parse(threshold_factor, "threshold_factor")
        self.value_range = factors.parse_value_range(value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        shape = (self.batch_size(images), 1, 1, 1)
        rng = self._rng(seed)
        additions = rng.uniform(*self.addition_factor, shape) * 255
        thresholds = rng.uniform(*self.threshold_factor, shape) * 255
        return {"additions": additions.astype(self.compute_dtype),
                "thresholds": thresholds.astype(self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        images = self._transform_value_range(images, self.value_range,
                                             (0, 255), self.compute_dtype)
        shifted = ops.clip(images + transformation["additions"], 0, 255)
        results = ops.where(shifted < np.asarray(transformation["thresholds"]),
                            shifted, 255 - shifted)
        return self._transform_value_range(results, (0, 255),
                                           self.value_range,
                                           self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "addition_factor": self.addition_factor,
                       "threshold_factor": self.threshold_factor,
                       "seed": self.seed})
        return config
