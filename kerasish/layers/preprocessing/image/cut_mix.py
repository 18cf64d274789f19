"""`CutMix`: paste a rectangle of another image of the batch, mixing the
labels by area."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.random_erasing import (
    rectangle_masks, spans)
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters


@builtin("keras.layers")
class CutMix(BaseImagePreprocessingLayer):
    """CutMix augmentation (Yun et al., 2019) during training.

    Per call a Beta parameter `alpha` is drawn from `factor`; per image a
    weight `w ~ Beta(alpha, alpha)` gives a rectangle with sides
    `sqrt(1 - w)` times the image's, at a random position, which is
    replaced by the same rectangle of another image of the batch (a random
    permutation). Labels mix as `w' * own + (1 - w') * other`, `w'` the
    kept area fraction. Masks are pasted like images; boxes of the other
    image are cut to the rectangle and appended (empty ones get label -1).

    Args:
        factor: Range of `alpha`, a float in `[0, 1]` (range `[0, f]`) or
            a pair. Defaults to 1.0.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = CutMix(seed=0)
    >>> images = np.stack([np.zeros((8, 8, 3)), np.ones((8, 8, 3))])
    >>> labels = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> out = layer({"images": images, "labels": labels}, training=True)
    >>> out["labels"].numpy().sum(axis=1).tolist()
    [1.0, 1.0]
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        if len(images.shape) == 3:
            return None
        batch = images.shape[0]
        height, width = self.image_size(images)
        rng = self._rng(seed)
        alpha = rng.uniform(self.factor[0], self.factor[1]) + 1e-6
        ratio = np.sqrt(1.0 - rng.beta(alpha, alpha, (batch,)))
        x0, x1 = spans(rng, batch, width, ratio)
        y0, y1 = spans(rng, batch, height, ratio)
        masks = rectangle_masks(self, tuple(images.shape), x0, x1, y0, y1)
        kept = 1.0 - (x1 - x0) * (y1 - y0) / (width * height)
        return {"permutation_order": rng.permutation(batch),
                "batch_masks": masks, "mix_weight": kept.astype("float32"),
                "box": np.stack([x0, y0, x1, y1], axis=-1),
                "input_shape": tuple(images.shape)}

    def _paste(self, images, transformation):
        order = transformation["permutation_order"]
        return ops.where(transformation["batch_masks"],
                         ops.take(images, order, axis=0), images)

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return self._paste(images, transformation)

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        order = transformation["permutation_order"]
        weight = np.reshape(transformation["mix_weight"],
                            (-1,) + (1,) * (labels.ndim - 1))
        labels = ops.cast(labels, self.compute_dtype)
        return weight * labels + (1.0 - weight) * ops.take(labels, order, 0)

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        masks = transformation["batch_masks"]
        masks = masks[..., :1] if self.data_format == "channels_last" \
            else masks[:, :1]
        return ops.where(masks, ops.take(
            segmentation_masks, transformation["permutation_order"], 0),
            segmentation_masks)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = self.image_size(transformation["input_shape"])
        fmt = self.bounding_box_format
        boxes = converters.convert_format(bounding_boxes["boxes"], fmt,
                                          "xyxy", height=height, width=width)
        order = transformation["permutation_order"]
        x0, y0, x1, y1 = (transformation["box"][:, i][:, None, None]
                          for i in range(4))
        px1, py1, px2, py2 = ops.split(ops.take(boxes, order, 0), 4, -1)
        pasted = ops.concatenate(
            [ops.clip(px1, x0, x1), ops.clip(py1, y0, y1),
             ops.clip(px2, x0, x1), ops.clip(py2, y0, y1)], axis=-1)
        labels = ops.convert_to_tensor(bounding_boxes["labels"])
        result = converters.clip_to_image_size(
            {**bounding_boxes, "boxes": ops.concatenate([boxes, pasted], 1),
             "labels": ops.concatenate([labels, ops.take(labels, order, 0)],
                                       1)}, height, width)
        result["boxes"] = converters.convert_format(
            result["boxes"], "xyxy", fmt, height=height, width=width)
        return result

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "seed": self.seed})
        return config
