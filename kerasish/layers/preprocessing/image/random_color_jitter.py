"""`RandomColorJitter`: random brightness, contrast, saturation and hue."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.random_brightness import \
    RandomBrightness
from kerasish.layers.preprocessing.image.random_contrast import \
    RandomContrast
from kerasish.layers.preprocessing.image.random_hue import RandomHue
from kerasish.layers.preprocessing.image.random_saturation import \
    RandomSaturation
from kerasish.saving.object_registration import builtin

_STEPS = (("random_brightness", RandomBrightness, "brightness_factor"),
          ("random_contrast", RandomContrast, "contrast_factor"),
          ("random_saturation", RandomSaturation, "saturation_factor"),
          ("random_hue", RandomHue, "hue_factor"))


@builtin("keras.layers")
class RandomColorJitter(BaseImagePreprocessingLayer):
    """Randomly jitter brightness, contrast, saturation and hue.

    Applies, in this order, `RandomBrightness`, `RandomContrast`,
    `RandomSaturation` and `RandomHue` for each factor given (`None`
    skips that step), each with its own draw. Outputs are in the compute
    dtype; identity (a cast) at inference.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        brightness_factor: `RandomBrightness`'s factor, or `None`.
        contrast_factor: `RandomContrast`'s factor, or `None`.
        saturation_factor: `RandomSaturation`'s factor, or `None`.
        hue_factor: `RandomHue`'s factor, or `None`.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomColorJitter(brightness_factor=(0.1, 0.1),
    ...                           contrast_factor=(-0.5, 0.5))
    >>> layer(np.array([[[10.0], [20.0]]]))[..., 0].numpy()
    array([[33., 48.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), brightness_factor=None,
                 contrast_factor=None, saturation_factor=None,
                 hue_factor=None, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor = brightness_factor
        self.contrast_factor = contrast_factor
        self.saturation_factor = saturation_factor
        self.hue_factor = hue_factor
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        for attribute, cls, factor_name in _STEPS:
            factor = getattr(self, factor_name)
            layer = None if factor is None else cls(
                factor=factor, value_range=value_range, seed=seed,
                data_format=self.data_format, dtype=self.dtype_policy)
            setattr(self, attribute, layer)

    def _steps(self):
        return [(name, getattr(self, name)) for name, _, _ in _STEPS
                if getattr(self, name) is not None]

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        seed = self.generator if seed is None else seed
        return [(name, layer.get_random_transformation(data, seed=seed))
                for name, layer in self._steps()]

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        for name, step in transformation:
            images = getattr(self, name).transform_images(images, step)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "brightness_factor": self.brightness_factor,
                       "contrast_factor": self.contrast_factor,
                       "saturation_factor": self.saturation_factor,
                       "hue_factor": self.hue_factor, "seed": self.seed})
        return config
