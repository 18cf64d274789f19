"""`MixUp`: blend each image (and label) with another of the batch."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def _per_sample(weight, ndim):
    return np.reshape(weight, (-1,) + (1,) * (ndim - 1))


@builtin("keras.layers")
class MixUp(BaseImagePreprocessingLayer):
    """MixUp augmentation (Zhang et al., 2018) during training.

    Per image a weight `w ~ Beta(alpha, alpha)` is drawn and a partner
    chosen by a random permutation of the batch; images, labels and
    segmentation masks become `w * own + (1 - w) * partner`. Bounding
    boxes of both images are kept (concatenated). Identity at inference.

    Args:
        alpha: Beta distribution parameter. Defaults to 0.2.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = MixUp(seed=0)
    >>> images = np.stack([np.zeros((2, 2, 1)), np.ones((2, 2, 1))])
    >>> labels = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> out = layer({"images": images, "labels": labels}, training=True)
    >>> out["labels"].numpy().sum(axis=1).round(5).tolist()
    [1.0, 1.0]
    """

    _USE_BASE_FACTOR = False

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if not isinstance(alpha, (int, float)) or alpha <= 0:
            raise ValueError("`alpha` must be a positive number. "
                             f"Received: alpha={alpha}")
        self.alpha = alpha
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        batch = self.batch_size(self.images_of(data))
        rng = self._rng(seed)
        order = rng.permutation(batch)
        weight = rng.beta(self.alpha, self.alpha, (batch,))
        return {"mix_weight": weight.astype("float32"),
                "permutation_order": order}

    def _mix(self, values, transformation):
        values = ops.cast(values, self.compute_dtype)
        weight = _per_sample(transformation["mix_weight"], values.ndim)
        partner = ops.take(values, transformation["permutation_order"], 0)
        return weight * values + (1.0 - weight) * partner

    def transform_images(self, images, transformation=None, training=True):
        if not training or transformation is None:
            return ops.cast(images, self.compute_dtype)
        return self._mix(images, transformation)

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        return self._mix(labels, transformation)

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        return self._mix(segmentation_masks, transformation)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        order = transformation["permutation_order"]
        result = dict(bounding_boxes)
        for key in ("boxes", "labels"):
            values = ops.convert_to_tensor(bounding_boxes[key])
            result[key] = ops.concatenate(
                [values, ops.take(values, order, 0)], axis=1)
        return result

    def get_config(self):
        config = super().get_config()
        config.update({"alpha": self.alpha, "seed": self.seed})
        return config
