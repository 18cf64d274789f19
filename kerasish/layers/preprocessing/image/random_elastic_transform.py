"""`RandomElasticTransform`: smooth random deformations of images."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import affine, factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters

FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _box_envelopes(sources, boxes):
    """Output-pixel envelopes `(batch, N, 4)` of the pixels whose source
    centre falls in each xyxy box (an empty set gives a zero box)."""
    sx = sources[:, None, :, :, 0] + 0.5
    sy = sources[:, None, :, :, 1] + 0.5
    x1, y1, x2, y2 = (boxes[..., i][:, :, None, None] for i in range(4))
    inside = (sx >= x1) & (sx <= x2) & (sy >= y1) & (sy <= y2)
    cols, rows = inside.any(axis=2), inside.any(axis=3)
    found = cols.any(axis=-1)
    width, height = cols.shape[-1], rows.shape[-1]
    left = np.argmax(cols, axis=-1)
    right = width - np.argmax(cols[..., ::-1], axis=-1)
    top = np.argmax(rows, axis=-1)
    bottom = height - np.argmax(rows[..., ::-1], axis=-1)
    out = np.stack([left, top, right, bottom], axis=-1).astype("float32")
    return np.where(found[..., None], out, 0.0).astype("float32")


@builtin("keras.layers")
class RandomElasticTransform(BaseImagePreprocessingLayer):
    """Randomly deform images with a smooth displacement field.

    Per call a distortion `d` is drawn from `scale`; images are warped
    (each with a probability drawn from `factor`) by a Gaussian-smoothed
    random field with `alpha = 0.1 * d * max(height, width)` and
    `sigma = 0.05 * d * min(height, width)`, then clipped to
    `value_range`. Masks get the same field (with `"nearest"`), and each
    box becomes the envelope of the output pixels whose source lies in it.
    Identity at inference.

    Args:
        factor: Probability of deforming an image, a float in `[0, 1]` or
            a range. Defaults to 1.0.
        scale: Distortion strength, a float in `[0, 1]` or a range.
            Defaults to 1.0.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: `"reflect"` (default), `"constant"`, `"nearest"`,
            `"wrap"` or `"mirror"`.
        fill_value: Value outside the image for `"constant"`. Defaults to
            0.0.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomElasticTransform(seed=0)
    >>> layer(np.ones((2, 16, 16, 3)), training=True).shape
    (2, 16, 16, 3)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear",
                 fill_mode="reflect", fill_value=0.0, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = factors.parse_factor(scale, self._FACTOR_BOUNDS,
                                          "scale")
        self.interpolation = affine.check_interpolation(interpolation)
        self.fill_mode = affine.check_fill_mode(fill_mode, FILL_MODES)
        self.fill_value = fill_value
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        images = self.images_of(data)
        batch = self.batch_size(images)
        rng = self._rng(seed)
        probability = rng.uniform(self.factor[0], self.factor[1], (batch,))
        apply = rng.uniform(size=(batch,)) < probability
        distortion = float(rng.uniform(self.scale[0], self.scale[1]))
        # One integer seed per call: images, masks and boxes share a field.
        field_seed = int(rng.integers(2**31 - 1))
        return {"apply_transform": apply, "distortion_factor": distortion,
                "seed": field_seed, "input_shape": tuple(images.shape)}

    def _params(self, transformation, image_size):
        height, width = image_size
        distortion = transformation["distortion_factor"]
        return (max(height, width) * 0.1 * distortion,
                min(height, width) * 0.05 * distortion)

    def _deform(self, images, transformation, interpolation, fill_value):
        alpha, sigma = self._params(transformation, self.image_size(images))
        if alpha <= 0 or sigma <= 0:
            return images
        return ops.image.elastic_transform(
            images, alpha=alpha, sigma=sigma, interpolation=interpolation,
            fill_mode=self.fill_mode, fill_value=fill_value,
            seed=transformation["seed"], data_format=self.data_format)

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        deformed = self._deform(images, transformation, interpolation,
                                self.fill_value)
        apply = transformation["apply_transform"].reshape(-1, 1, 1, 1)
        images = ops.where(apply, deformed, images)
        if interpolation == "nearest" and images.dtype.kind != "f":
            return images  # segmentation masks: no value range
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = self.image_size(transformation["input_shape"])
        fmt = self.bounding_box_format
        boxes = converters.convert_format(bounding_boxes["boxes"], fmt,
                                          "xyxy", height=height, width=width)
        batch = boxes.shape[0]
        grid = np.stack(np.meshgrid(np.arange(width), np.arange(height)),
                        axis=-1).astype("float32")
        grid = np.broadcast_to(grid, (batch, height, width, 2))
        sources = np.asarray(self._sources(grid, transformation))
        moved = _box_envelopes(sources, np.asarray(boxes))
        apply = transformation["apply_transform"].reshape(-1, 1, 1)
        result = converters.clip_to_image_size(
            {**bounding_boxes,
             "boxes": ops.where(apply, moved, boxes)}, height, width)
        result["boxes"] = converters.convert_format(
            result["boxes"], "xyxy", fmt, height=height, width=width)
        return result

    def _sources(self, grid, transformation):
        """Warp a picture of the pixel coordinates: each output pixel then
        holds where it was read from (-1e6: from outside the image)."""
        alpha, sigma = self._params(transformation, grid.shape[1:3])
        if alpha <= 0 or sigma <= 0:
            return grid
        return ops.image.elastic_transform(
            grid, alpha=alpha, sigma=sigma, interpolation="bilinear",
            fill_mode=self.fill_mode, fill_value=-1e6,
            seed=transformation["seed"], data_format="channels_last")

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation,
                       "fill_mode": self.fill_mode,
                       "fill_value": self.fill_value,
                       "value_range": self.value_range, "seed": self.seed})
        return config
