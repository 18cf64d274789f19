"""`RandomPosterization`: keep only the top bits of each pixel value."""
import numpy as np

from kerasish import ops
from kerasish.backend.tensor import Tensor
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomPosterization(BaseImagePreprocessingLayer):
    """Randomly posterize images during training.

    Pixels are mapped to `[0, 255]`, truncated to 8-bit integers, and all
    but their top `bits` bits cleared, `bits` drawn per image from the
    factor range (both ends included); then mapped back to `value_range`.
    Outputs are in the compute dtype.

    Args:
        factor: Number of bits to keep, an int in `[1, 8]` (drawn from
            `[1, factor]`) or a pair `(lower, upper)`; `(4, 4)` always keeps
            4 bits.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomPosterization(factor=(2, 2))
    >>> layer(np.array([[[0.0], [100.0], [255.0]]]))[..., 0].numpy()
    array([[  0.,  64., 192.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (1, 8)
    _MAX_FACTOR = 8

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
        batch = self.batch_size(images)
        low, high = int(round(self.factor[0])), int(round(self.factor[1]))
        bits = self._rng(seed).integers(low, high + 1, (batch,))
        return {"shift_factor": (self._MAX_FACTOR - bits).astype("uint8")}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        pixels = self._transform_value_range(images, self.value_range,
                                             (0, 255), self.compute_dtype)
        pixels = np.clip(np.asarray(pixels), 0, 255).astype("uint8")
        shift = np.reshape(transformation["shift_factor"], (-1, 1, 1, 1))
        pixels = (pixels >> shift) << shift
        out = Tensor(pixels.astype(self.compute_dtype))
        return self._transform_value_range(out, (0, 255), self.value_range,
                                           self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
