"""`RandomBrightness`: add a random offset to all pixels of an image."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomBrightness(BaseImagePreprocessingLayer):
    """Randomly adjust the brightness of images during training.

    Per image, `delta = u * (high - low)` with `u` drawn from the factor
    range is added to every pixel, and the result clipped to
    `value_range = [low, high]`. Outputs are in the compute dtype; at
    inference images are only cast.

    Args:
        factor: A float `f` in `[-1, 1]` (range `[-|f|, |f|]`) or a pair
            `(lower, upper)`: the brightness change as a fraction of the
            value range. `factor=(0.2, 0.2)` always adds `0.2 * 255`.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`, `data_format`).

    Example:

    >>> layer = RandomBrightness(factor=(0.2, 0.2), value_range=(0, 1))
    >>> layer(np.array([[[0.1], [0.9]]]))[..., 0].numpy()
    array([[0.3, 1. ]], dtype=float32)
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        self.value_range = factors.parse_value_range(value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        self._is_batched(images)
        if not training:
            return {"rgb_delta": None}
        shape = (self.batch_size(images), 1, 1, 1)
        delta = self._rng(seed).uniform(self.factor[0], self.factor[1], shape)
        delta = delta * (self.value_range[1] - self.value_range[0])
        return {"rgb_delta": delta.astype(self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return ops.clip(images + transformation["rgb_delta"],
                        self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
