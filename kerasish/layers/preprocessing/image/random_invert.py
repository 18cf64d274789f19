"""`RandomInvert`: invert pixel values (`high - x`) with some probability."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def draw_applied(layer, rng, batch):
    """Per image: whether to act, with a probability drawn from the
    layer's factor range."""
    probability = rng.uniform(layer.factor[0], layer.factor[1], (batch,))
    return rng.uniform(size=(batch,)) < probability


@builtin("keras.layers")
class RandomInvert(BaseImagePreprocessingLayer):
    """Randomly invert images during training (`x -> high - x`).

    Each image is inverted with a probability drawn from the factor range;
    outputs are in the compute dtype. Identity at inference.

    Args:
        factor: Probability of inverting, a float in `[0, 1]` or a range.
            Defaults to 1.0.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomInvert(factor=(1.0, 1.0), value_range=(0, 1))
    >>> layer(np.array([[[0.25], [1.0]]]))[..., 0].numpy()
    array([[0.75, 0.  ]], dtype=float32)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self.images_of(data)
        self._is_batched(images)
        apply = draw_applied(self, self._rng(seed), self.batch_size(images))
        return {"apply_inversion": apply}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        apply = np.reshape(transformation["apply_inversion"], (-1, 1, 1, 1))
        return ops.where(apply, self.value_range[1] - images, images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
