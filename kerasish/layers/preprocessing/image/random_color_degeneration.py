"""`RandomColorDegeneration`: blend images towards their grayscale."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def check_rgb(layer, input_shape):
    if len(input_shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) "
                         "or rank 4 (batch of images). Received: "
                         f"input_shape={input_shape}")
    channels = input_shape[layer.channel_axis]
    if channels is not None and channels != 3:
        raise ValueError("Input images must have 3 channels, but received "
                         f"images with {channels} channels.")
    return input_shape


@builtin("keras.layers")
class RandomColorDegeneration(BaseImagePreprocessingLayer):
    """Randomly reduce the colourfulness of images during training.

    Per image a factor `f` is drawn and the image becomes
    `x + f * (gray(x) - x)`: 0 keeps it, 1 makes it grayscale. Results are
    clipped to `value_range`, in the compute dtype.

    Args:
        factor: A float `f` in `[-1, 1]`, drawn from `[-|f|, |f|]` as
            Keras 3 does, or a pair `(lower, upper)`; `(0.5, 0.5)` always
            blends halfway.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        seed: Integer seed.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = RandomColorDegeneration(factor=(1.0, 1.0))
    >>> layer(np.array([[[255.0, 0.0, 0.0]]])).numpy().round(2)
    array([[[76.22, 76.22, 76.22]]], dtype=float32)
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None,
                 seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = factors.parse_value_range(value_range)
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        self._is_batched(images)
        shape = (self.batch_size(images), 1, 1, 1)
        factor = self._rng(seed).uniform(self.factor[0], self.factor[1],
                                         shape)
        return {"factor": factor.astype(self.compute_dtype)}

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        images = images + transformation["factor"] * (gray - images)
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def compute_output_shape(self, input_shape):
        return check_rgb(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor,
                       "value_range": self.value_range, "seed": self.seed})
        return config
