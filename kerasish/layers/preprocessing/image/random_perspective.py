"""`RandomPerspective`: move the image corners at random (a homography)."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.backend.tensor import Tensor
from kerasish.layers.preprocessing.image import affine, factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.ops.image_warps import homography
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters


def project_boxes(boxes, coefficients):
    """Envelopes of xyxy `boxes` `(batch, N, 4)` after the projective maps
    `(batch, 8)` `[h0..h7]`: `x' = (h0 x + h1 y + h2) / (h6 x + h7 y + 1)`,
    `y' = (h3 x + h4 y + h5) / (...)`."""
    h = [np.asarray(coefficients)[:, i][:, None, None] for i in range(8)]
    x1, y1, x2, y2 = [ops.squeeze(p, -1) for p in ops.split(boxes, 4, -1)]
    xs = ops.stack([x1, x2, x2, x1], axis=-1)
    ys = ops.stack([y1, y1, y2, y2], axis=-1)
    k = h[6] * xs + h[7] * ys + 1.0
    new_x = (h[0] * xs + h[1] * ys + h[2]) / k
    new_y = (h[3] * xs + h[4] * ys + h[5]) / k
    return ops.stack([ops.min(new_x, -1), ops.min(new_y, -1),
                      ops.max(new_x, -1), ops.max(new_y, -1)], axis=-1)


@builtin("keras.layers")
class RandomPerspective(BaseImagePreprocessingLayer):
    """Randomly warp the perspective of images during training.

    Each image is warped with probability drawn from `factor`: its four
    corners move by up to `scale / 2` times their coordinates and the
    image follows the homography; uncovered points get `fill_value`. Boxes
    become the envelopes of their projected corners. Identity at
    inference.

    Args:
        factor: Probability of warping an image, a float in `[0, 1]` or a
            `(low, high)` range it is drawn from per image. Defaults to 1.0.
        scale: Distortion strength in `[0, 1]`. Defaults to 1.0.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_value: Value outside the warped image. Defaults to 0.0.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomPerspective(scale=0.5, seed=0)
    >>> layer(np.ones((2, 8, 8, 3)), training=True).shape
    (2, 8, 8, 3)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear",
                 fill_value=0.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        if not factors.is_number(scale) or not 0.0 <= scale <= 1.0:
            raise ValueError("The `scale` argument should be a number in "
                             f"the range [0,1]. Received: scale={scale}")
        self.scale = scale
        self.fill_value = fill_value
        self.interpolation = affine.check_interpolation(interpolation)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        batch = self.batch_size(images)
        height, width = self.image_size(images)
        rng = self._rng(seed)
        probability = rng.uniform(self.factor[0], self.factor[1], (batch,))
        apply = rng.uniform(size=(batch,)) < probability
        shift = rng.uniform(-0.5 * self.scale, 0.5 * self.scale,
                            (batch, 4, 2))
        start = np.array([[0.0, 0.0], [width - 1, 0.0], [0.0, height - 1],
                          [width - 1, height - 1]], "float32")
        start = np.repeat(start[None], batch, axis=0)
        end = (start + start * shift).astype("float32")
        return {"apply_perspective": apply, "start_points": start,
                "end_points": end, "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        warped = ops.image.perspective_transform(
            images, transformation["start_points"],
            transformation["end_points"], interpolation=interpolation,
            fill_value=self.fill_value, data_format=self.data_format)
        apply = transformation["apply_perspective"].reshape(-1, 1, 1, 1)
        return ops.where(apply, warped, images)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = self.image_size(transformation["input_shape"])
        fmt = self.bounding_box_format
        boxes = converters.convert_format(bounding_boxes["boxes"], fmt,
                                          "xyxy", height=height, width=width)
        # The image reads its input at end -> start; content moves start ->
        # end, and so do the boxes.
        forward = homography(Tensor(transformation["end_points"]),
                             Tensor(transformation["start_points"]))
        moved = project_boxes(boxes, np.asarray(forward))
        apply = transformation["apply_perspective"].reshape(-1, 1, 1)
        result = converters.clip_to_image_size(
            {**bounding_boxes, "boxes": ops.where(apply, moved, boxes)},
            height, width)
        result["boxes"] = converters.convert_format(
            result["boxes"], "xyxy", fmt, height=height, width=width)
        return result

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation,
                       "fill_value": self.fill_value, "seed": self.seed})
        return config
