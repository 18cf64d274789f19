"""`RandomRotation`: rotate images by a random angle about their centre."""
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import affine
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomRotation(BaseImagePreprocessingLayer):
    """Randomly rotate images during training (identity at inference).

    The angle of each image is drawn uniformly from
    `[lower * 360, upper * 360]` degrees (counter-clockwise for positive
    values, as displayed with the origin at the top left); points
    outside the input are filled according to `fill_mode`. Boxes become
    the envelopes of their rotated corners; masks rotate with `"nearest"`.

    Args:
        factor: A float `f` (angles in `[-f, f]` turns) or a pair
            `(lower, upper)`, as fractions of a full turn in `[-1, 1]`.
            `factor=(0.25, 0.25)` always rotates by 90 degrees.
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

    >>> layer = RandomRotation((0.25, 0.25), interpolation="nearest")
    >>> layer(np.arange(4.0).reshape(2, 2, 1))[..., 0].numpy()
    array([[1., 3.],
           [0., 2.]], dtype=float32)
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        self.fill_mode = affine.check_fill_mode(fill_mode)
        self.interpolation = affine.check_interpolation(interpolation)
        self.fill_value = fill_value

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        height, width = self.image_size(images)
        angle = self._rng(seed).uniform(
            self.factor[0] * 360.0, self.factor[1] * 360.0,
            size=(self.batch_size(images),)).astype("float32")
        return {"angle": angle,
                "rotation_matrix": affine.rotation_transforms(angle, height,
                                                              width),
                "image_height": height, "image_width": width}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        return affine.warp_images(self, images,
                                  transformation["rotation_matrix"],
                                  interpolation)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        size = (transformation["image_height"],
                transformation["image_width"])
        return affine.warp_boxes(self, bounding_boxes,
                                 transformation["rotation_matrix"], size)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "data_format": self.data_format,
                       "fill_mode": self.fill_mode,
                       "fill_value": self.fill_value,
                       "interpolation": self.interpolation,
                       "seed": self.seed})
        return config
