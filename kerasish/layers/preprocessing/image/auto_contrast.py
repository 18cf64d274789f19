"""`AutoContrast`: stretch each channel of each image to the full range."""
import numpy as np

from kerasish import ops
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AutoContrast(BaseImagePreprocessingLayer):
    """Rescale each channel of each image so its darkest pixel becomes the
    low end of `value_range` and its brightest the high end.

    Constant channels are left unchanged. Acts in training and inference;
    outputs are in the compute dtype.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        **kwargs: Base layer arguments (`name`, `dtype`, `data_format`).

    Example:

    >>> AutoContrast()(np.array([[[50.0], [100.0], [150.0]]]))[..., 0].numpy()
    array([[  0. , 127.5, 255. ]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = factors.parse_value_range(value_range)

    def transform_images(self, images, transformation=None, training=True):
        original = images
        images = self._transform_value_range(images, self.value_range,
                                             (0, 255), self.compute_dtype)
        images = ops.cast(images, self.compute_dtype)
        axes = (self.height_axis, self.width_axis)
        low = ops.min(images, axis=axes, keepdims=True)
        high = ops.max(images, axis=axes, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            # A constant channel divides by zero: NaN, replaced below.
            scale = 255.0 / (high - low)
            results = ops.clip(images * scale - low * scale, 0.0, 255.0)
        results = self._transform_value_range(results, (0, 255),
                                              self.value_range,
                                              self.compute_dtype)
        return ops.where(ops.isnan(results),
                         ops.cast(original, self.compute_dtype), results)

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range})
        return config
