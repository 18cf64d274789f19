"""`AdaptiveAveragePooling3D`: average pooling to a fixed 3-D output size."""
from kerasish.layers.pooling.base_adaptive_pooling import (
    BaseAdaptiveAveragePooling, output_size_tuple)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AdaptiveAveragePooling3D(BaseAdaptiveAveragePooling):
    """Adaptive average pooling for volumes.

    Pools the input to `output_size` along each spatial axis whatever its
    size: output `i` of an axis of length `L` takes the average of input
    entries `floor(i * L / o)` to `ceil((i + 1) * L / o) - 1`.

    Args:
        output_size: int or tuple of 3 ints, the output's spatial
            size (an int is used for every axis).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> x = np.ones((1, 5, 4, 3, 2), "float32")
    >>> AdaptiveAveragePooling3D(2)(x).shape
    (1, 2, 2, 2, 2)
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        output_size = output_size_tuple("AdaptiveAveragePooling3D",
                                        output_size, 3,
                                        "(depth, height, width)")
        super().__init__(output_size, data_format, **kwargs)
