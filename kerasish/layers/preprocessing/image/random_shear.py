"""`RandomShear`: shear images along x and/or y by random amounts."""
import numpy as np

from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import affine, factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

_FACTOR_MESSAGE = ("The `factor` argument should be a number (or a list of "
                   "two numbers) in the range [0, 1.0]. ")


def shear_transforms(shear_factors):
    """`(batch, 8)` transforms reading `(x + sx * y, sy * x + y)`."""
    shear_factors = np.asarray(shear_factors, "float32")
    ones = np.ones(len(shear_factors), "float32")
    zeros = np.zeros(len(shear_factors), "float32")
    return np.stack([ones, shear_factors[:, 0], zeros, shear_factors[:, 1],
                     ones, zeros, zeros, zeros], axis=-1)


@builtin("keras.layers")
class RandomShear(BaseImagePreprocessingLayer):
    """Randomly shear images during training (identity at inference).

    Per image, shear amounts `sx` and `sy` are drawn from the `x_factor`
    and `y_factor` ranges and both negated with probability 0.5; the
    output pixel `(x, y)` reads the input at `(x + sx * y, sy * x + y)`
    (a shear about the top-left corner). Boxes become the envelopes of
    their sheared corners; masks follow with `"nearest"`.

    Args:
        x_factor: A float `f` or a pair `(lower, upper)` in `[0, 1]`: the
            horizontal shear amount. Defaults to 0.0.
        y_factor: The same for the vertical shear. Defaults to 0.0.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: `"reflect"` (default), `"wrap"`, `"constant"` or
            `"nearest"`.
        fill_value: Value outside the image for `"constant"`. Defaults to
            0.0.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomShear(x_factor=0.3, seed=0)
    >>> layer(np.ones((2, 8, 8, 3)), training=True).shape
    (2, 8, 8, 3)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear",
                 fill_mode="reflect", fill_value=0.0, data_format=None,
                 seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.x_factor = self._parse(x_factor, "x_factor")
        self.y_factor = self._parse(y_factor, "y_factor")
        self.fill_mode = affine.check_fill_mode(fill_mode)
        self.interpolation = affine.check_interpolation(interpolation)
        self.fill_value = fill_value
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    @staticmethod
    def _parse(factor, name):
        # A number must lie in [0, 1]; a pair may reach -1 so that the
        # `(-f, f)` this layer saves in its config loads back (the sign is
        # drawn at random anyway).
        if isinstance(factor, (tuple, list)):
            return factors.parse_symmetric_factor(
                factor, name, lambda f: -1.0 <= f <= 1.0, _FACTOR_MESSAGE)
        return factors.parse_symmetric_factor(
            factor, name, lambda f: 0.0 <= f <= 1.0, _FACTOR_MESSAGE)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        shape = (self.batch_size(images), 1)
        rng = self._rng(seed)
        invert = np.where(rng.uniform(size=shape) > 0.5, -1.0, 1.0)
        shear_y = rng.uniform(self.y_factor[0], self.y_factor[1], shape)
        shear_x = rng.uniform(self.x_factor[0], self.x_factor[1], shape)
        shear = np.concatenate([shear_x, shear_y], axis=1) * invert
        return {"shear_factor": shear.astype("float32"),
                "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        transforms = shear_transforms(transformation["shear_factor"])
        return affine.warp_images(self, images, transforms, interpolation)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        transforms = shear_transforms(transformation["shear_factor"])
        size = self.image_size(transformation["input_shape"])
        return affine.warp_boxes(self, bounding_boxes, transforms, size)

    def get_config(self):
        config = super().get_config()
        config.update({"x_factor": self.x_factor, "y_factor": self.y_factor,
                       "fill_mode": self.fill_mode,
                       "interpolation": self.interpolation,
                       "seed": self.seed, "fill_value": self.fill_value,
                       "data_format": self.data_format})
        return config
