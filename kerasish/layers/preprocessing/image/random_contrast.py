"""`RandomContrast`: scale each channel's deviations from its mean."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomContrast(BaseImagePreprocessingLayer):
    """Randomly adjust the contrast of images during training.

    Per image a contrast factor `c` is drawn from `[1 - lower, 1 + upper]`
    and each channel becomes `(x - mean) * c + mean` (the mean over the
    image's pixels), clipped to `value_range`. Outputs are in the compute
    dtype; at inference images are only cast.

    Args:
        factor: A float `f` in `[0, 1]` -- Keras 3 reads it as
            `(lower, upper) = (0, f)`, drawing `c` from `[1, 1 + f]` -- or a
            pair `(lower, upper)`. `factor=(-0.5, 0.5)` always scales by 1.5.
        value_range: Range of the pixel values, `[low, high]`. Defaults to
            `(0, 255)`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`, `data_format`).

    Example:

    >>> layer = RandomContrast(factor=(-0.5, 0.5), value_range=(0, 10))
    >>> layer(np.array([[[2.0], [4.0]]]))[..., 0].numpy()
    array([[1.5, 4.5]], dtype=float32)
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        self._is_batched(images)
        shape = (self.batch_size(images), 1, 1, 1)
        if not training:
            return {"contrast_factor": None}
        factor = self._rng(seed).uniform(1.0 - self.factor[0],
                                         1.0 + self.factor[1], shape)
        return {"contrast_factor": factor.astype(self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        mean = ops.mean(images, axis=(self.height_axis, self.width_axis),
                        keepdims=True)
        out = (images - mean) * transformation["contrast_factor"] + mean
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
