"""`RandomGrayscale`: turn images to grayscale with some probability."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomGrayscale(BaseImagePreprocessingLayer):
    """Randomly convert images to grayscale during training.

    Each image is replaced, with probability `factor`, by its luma
    (ITU-R 601 weights) repeated over the channels, so the shape and
    dtype are kept. Identity at inference.

    Args:
        factor: Probability of converting an image, in `[0, 1]`. Defaults
            to 0.5.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomGrayscale(factor=1.0)
    >>> layer(np.array([[[255.0, 0.0, 0.0]]])).numpy().round(2)
    array([[[76.22, 76.22, 76.22]]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if not factors.is_number(factor) or not 0 <= factor <= 1:
            raise ValueError("`factor` should be between 0 and 1. "
                             f"Received: factor={factor}")
        self.factor = factor
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        draws = self._rng(seed).uniform(size=(self.batch_size(images),))
        return (draws < self.factor).reshape(-1, 1, 1, 1)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        if transformation is None:
            transformation = self.get_random_transformation(images)
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        return ops.where(np.asarray(transformation), gray, images)

    def _output_dtype(self, input_dtype):
        return input_dtype

    def get_config(self):
        config = super().get_config()
        # `seed` too (Keras leaves it out, losing it in a round trip).
        config.update({"factor": self.factor, "seed": self.seed})
        return config
