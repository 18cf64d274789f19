"""`RandomTranslation`: shift images by a random fraction of their size."""
import numpy as np

from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import affine, factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

_FACTOR_MESSAGE = ("The `factor` argument should be a number (or a list of "
                   "two numbers) in the range [-1.0, 1.0]. ")


def translation_transforms(translations):
    """`(batch, 8)` transforms shifting by `(dx, dy)` pixels per image."""
    translations = np.asarray(translations, "float32")
    ones = np.ones(len(translations), "float32")
    zeros = np.zeros(len(translations), "float32")
    return np.stack([ones, zeros, -translations[:, 0], zeros, ones,
                     -translations[:, 1], zeros, zeros], axis=-1)


@builtin("keras.layers")
class RandomTranslation(BaseImagePreprocessingLayer):
    """Randomly translate images during training (identity at inference).

    Each image moves by `dy = u * height` and `dx = v * width` pixels,
    with `u`, `v` drawn from the height and width factor ranges (positive:
    down and right). Uncovered points are filled according to `fill_mode`.
    Boxes and masks move with their image.

    Args:
        height_factor: A float `f` (range `[-f, f]`) or a pair
            `(lower, upper)` of fractions of the height in `[-1, 1]`.
        width_factor: The same for the width.
        fill_mode: `"reflect"` (default), `"wrap"`, `"constant"` or
            `"nearest"`.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        seed: Integer seed.
        fill_value: Value outside the image for `"constant"`. Defaults to
            0.0.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomTranslation((0.5, 0.5), 0.0, fill_mode="constant")
    >>> layer(np.arange(4.0).reshape(2, 2, 1))[..., 0].numpy()
    array([[0., 0.],
           [0., 1.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.height_lower, self.height_upper = self._parse(height_factor,
                                                           "height_factor")
        self.width_factor = width_factor
        self.width_lower, self.width_upper = self._parse(width_factor,
                                                         "width_factor")
        self.fill_mode = affine.check_fill_mode(fill_mode)
        self.interpolation = affine.check_interpolation(interpolation)
        self.fill_value = fill_value
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    @staticmethod
    def _parse(factor, name):
        return factors.parse_symmetric_factor(
            factor, name, lambda f: -1.0 <= f <= 1.0, _FACTOR_MESSAGE)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        batch = self.batch_size(images)
        height, width = self.image_size(images)
        rng = self._rng(seed)
        dy = rng.uniform(self.height_lower, self.height_upper, (batch, 1))
        dx = rng.uniform(self.width_lower, self.width_upper, (batch, 1))
        translations = np.concatenate([dx * width, dy * height], axis=1)
        return {"translations": translations.astype("float32"),
                "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        transforms = translation_transforms(transformation["translations"])
        return affine.warp_images(self, images, transforms, interpolation)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        transforms = translation_transforms(transformation["translations"])
        size = self.image_size(transformation["input_shape"])
        return affine.warp_boxes(self, bounding_boxes, transforms, size)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor,
                       "width_factor": self.width_factor,
                       "fill_mode": self.fill_mode,
                       "interpolation": self.interpolation,
                       "seed": self.seed, "fill_value": self.fill_value,
                       "data_format": self.data_format})
        return config
