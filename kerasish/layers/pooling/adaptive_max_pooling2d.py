"""`AdaptiveMaxPooling2D`: max pooling to a fixed 2-D output size."""
from kerasish.layers.pooling.base_adaptive_pooling import (
    BaseAdaptiveMaxPooling, output_size_tuple)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AdaptiveMaxPooling2D(BaseAdaptiveMaxPooling):
    """Adaptive max pooling for images.

    Pools the input to `output_size` along each spatial axis whatever its
    size: output `i` of an axis of length `L` takes the max of input
    entries `floor(i * L / o)` to `ceil((i + 1) * L / o) - 1`.

    Args:
        output_size: int or tuple of 2 ints, the output's spatial
            size (an int is used for every axis).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> x = np.ones((4, 7, 9, 3), "float32")
    >>> AdaptiveMaxPooling2D((2, 3))(x).shape
    (4, 2, 3, 3)
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        output_size = output_size_tuple(
            "AdaptiveMaxPooling2D", output_size, 2, "(height, width)")
        super().__init__(output_size, data_format, **kwargs)
