"""`RandomZoom`: zoom images in or out by a random factor."""
import numpy as np

from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import affine, factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

_FACTOR_MESSAGE = ("The `height_factor` and `width_factor` arguments should "
                   "be a number (or a list of two numbers) in the range "
                   "(-1.0, 1.0]. ")


def zoom_transforms(zooms, height, width):
    """`(batch, 8)` transforms reading the input at `zoom` times the
    distance from the image centre (`zooms` is `(batch, [zx, zy])`)."""
    zooms = np.asarray(zooms, "float32")
    zx, zy = zooms[:, 0], zooms[:, 1]
    x_offset = (np.float32(width) - 1.0) / 2.0 * (1.0 - zx)
    y_offset = (np.float32(height) - 1.0) / 2.0 * (1.0 - zy)
    zeros = np.zeros_like(zx)
    return np.stack([zx, zeros, x_offset, zeros, zy, y_offset, zeros, zeros],
                    axis=-1).astype("float32")


@builtin("keras.layers")
class RandomZoom(BaseImagePreprocessingLayer):
    """Randomly zoom images during training (identity at inference).

    A factor `z` is drawn per image from `[1 + lower, 1 + upper]`; the
    output reads the input at `z` times the distance from the centre, so
    `z < 1` (negative factors) zooms in and `z > 1` zooms out (filling
    the border according to `fill_mode`). Without `width_factor` the same
    factor is used for both axes (the aspect ratio is kept).

    Args:
        height_factor: A float `f` (range `[-f, f]`) or a pair
            `(lower, upper)`, each in `(-1, 1]`.
        width_factor: The same for the width, or `None` (default) to follow
            the height.
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

    >>> layer = RandomZoom((1.0, 1.0), fill_mode="constant")
    >>> layer(np.ones((4, 4, 1)))[..., 0].numpy()
    array([[0., 0., 0., 0.],
           [0., 1., 1., 0.],
           [0., 1., 1., 0.],
           [0., 0., 0., 0.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.height_lower, self.height_upper = self._parse(height_factor,
                                                           "height_factor")
        self.width_factor = width_factor
        if width_factor is not None:
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
            factor, name, lambda f: -1.0 < f <= 1.0, _FACTOR_MESSAGE)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        shape = (self.batch_size(images), 1)
        rng = self._rng(seed)
        height_zoom = rng.uniform(1.0 + self.height_lower,
                                  1.0 + self.height_upper, shape)
        width_zoom = height_zoom if self.width_factor is None else \
            rng.uniform(1.0 + self.width_lower, 1.0 + self.width_upper,
                        shape)
        return {"height_zoom": height_zoom.astype("float32"),
                "width_zoom": width_zoom.astype("float32"),
                "input_shape": tuple(images.shape)}

    def _transforms(self, transformation, image_size):
        zooms = np.concatenate([transformation["width_zoom"],
                                transformation["height_zoom"]], axis=1)
        return zoom_transforms(zooms, *image_size)

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        transforms = self._transforms(transformation,
                                      self.image_size(images))
        return affine.warp_images(self, images, transforms, interpolation)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        size = self.image_size(transformation["input_shape"])
        return affine.warp_boxes(self, bounding_boxes,
                                 self._transforms(transformation, size), size)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor,
                       "width_factor": self.width_factor,
                       "fill_mode": self.fill_mode,
                       "interpolation": self.interpolation,
                       "seed": self.seed, "fill_value": self.fill_value,
                       "data_format": self.data_format})
        return config
