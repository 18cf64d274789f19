"""`RandomGaussianBlur`: blur images with a Gaussian of random width."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.random_invert import draw_applied
from kerasish.saving.object_registration import builtin


def _kernel_size(value):
    message = f"kernel_size must be an odd number. Received: kernel_size=" \
              f"{value}"
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,
                                                                      value)
    if len(values) != 2:
        raise ValueError("The `kernel_size` argument should be a number (or "
                         f"a list of two numbers) Received: kernel_size="
                         f"{value}")
    if not all(factors.is_number(v) and int(v) == v and v % 2 == 1
               for v in values):
        raise ValueError(message)
    return tuple(int(v) for v in values)


@builtin("keras.layers")
class RandomGaussianBlur(BaseImagePreprocessingLayer):
    """Randomly blur images with a Gaussian kernel during training.

    Each image is blurred with a probability drawn from `factor`; per call
    the standard deviations (along the width and the height) are drawn
    from the `sigma` range. Clipped to `value_range`, in the compute
    dtype; identity at inference.

    Args:
        factor: Probability of blurring, a float in `[0, 1]` or a range.
            Defaults to 1.0.
        kernel_size: Odd kernel size, or a pair `(width, height)`. Defaults
            to 3.
        sigma: Standard deviation, a float in `[0, 1]` (drawn from
            `[0, sigma]`) or a range. Defaults to 1.0.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomGaussianBlur(factor=(1.0, 1.0), sigma=(1.0, 1.0))
    >>> image = np.zeros((3, 3, 1))
    >>> image[1, 1] = 100.0
    >>> round(float(layer(image)[1, 1, 0]), 2)
    20.42
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0,
                 value_range=(0, 255), data_format=None, seed=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.kernel_size = _kernel_size(kernel_size)
        self.sigma = factors.parse_factor(sigma, self._FACTOR_BOUNDS,
                                          "sigma")
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        self._is_batched(images)
        rng = self._rng(seed)
        apply = draw_applied(self, rng, self.batch_size(images))
        sigma = rng.uniform(self.sigma[0], self.sigma[1], (2,)) + 1e-6
        return {"should_apply_blur": apply,
                "blur_factor": sigma.astype(self.compute_dtype)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        sigma = tuple(float(s) for s in transformation["blur_factor"])
        blurred = ops.image.gaussian_blur(images, self.kernel_size, sigma,
                                          data_format=self.data_format)
        apply = np.reshape(transformation["should_apply_blur"], (-1, 1, 1, 1))
        images = ops.where(apply, blurred, images)
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "kernel_size": self.kernel_size, "sigma": self.sigma,
                       "value_range": self.value_range, "seed": self.seed})
        return config
