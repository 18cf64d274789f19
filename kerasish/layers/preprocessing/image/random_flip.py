"""`RandomFlip`: mirror images left-right and/or top-bottom at random."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"


@builtin("keras.layers")
class RandomFlip(BaseImagePreprocessingLayer):
    """Randomly flip images during training (identity at inference).

    Each image is flipped with probability 0.5; with
    `"horizontal_and_vertical"` the same draw flips both axes. Boxes and
    segmentation masks are flipped with their image.

    Args:
        mode: `"horizontal"`, `"vertical"` or `"horizontal_and_vertical"`
            (default).
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomFlip("horizontal", seed=0)
    >>> image = np.arange(6.0).reshape(1, 2, 3, 1)
    >>> out = layer(image, training=True)[0, ..., 0].numpy()
    >>> out.tolist() in ([[0., 1., 2.], [3., 4., 5.]],
    ...                  [[2., 1., 0.], [5., 4., 3.]])
    True
    """

    _USE_BASE_FACTOR = False

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.mode = factors.check_choice(
            mode, (HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL), "mode")
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    @property
    def _horizontal(self):
        return self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL)

    @property
    def _vertical(self):
        return self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        draws = self._rng(seed).uniform(size=(self.batch_size(images),))
        return {"flips": (draws <= 0.5).reshape(-1, 1, 1, 1),
                "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        flips = transformation["flips"]
        if self._horizontal:
            images = ops.where(flips, ops.flip(images, self.width_axis),
                               images)
        if self._vertical:
            images = ops.where(flips, ops.flip(images, self.height_axis),
                               images)
        return images

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = self.image_size(transformation["input_shape"])
        fmt = self.bounding_box_format
        boxes = converters.convert_format(bounding_boxes["boxes"], fmt,
                                          "rel_xyxy", height, width)
        flips = np.reshape(transformation["flips"], (-1, 1, 1))
        x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
        if self._horizontal:
            x1, x2 = (ops.where(flips, 1.0 - x2, x1),
                      ops.where(flips, 1.0 - x1, x2))
        if self._vertical:
            y1, y2 = (ops.where(flips, 1.0 - y2, y1),
                      ops.where(flips, 1.0 - y1, y2))
        result = converters.clip_to_image_size(
            {**bounding_boxes, "boxes": ops.concatenate([x1, y1, x2, y2], -1)},
            bounding_box_format="rel_xyxy")
        result["boxes"] = converters.convert_format(
            result["boxes"], "rel_xyxy", fmt, height, width)
        return result

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "mode": self.mode,
                       "data_format": self.data_format})
        return config
