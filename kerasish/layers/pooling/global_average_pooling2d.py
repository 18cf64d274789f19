"""`GlobalAveragePooling2D`: average over every position."""
from kerasish.layers.pooling.base_global_pooling import GlobalAveragePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalAvgPool2D")
class GlobalAveragePooling2D(GlobalAveragePooling):
    """Global average pooling over both spatial axes.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, rows, cols, channels)`, or `"channels_first"`, inputs
            `(batch, channels, rows, cols)`.
        keepdims: Keep the 2 spatial axes with size 1. Defaults to
            False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.ones((2, 4, 5, 3), "float32")
    >>> GlobalAveragePooling2D(keepdims=True)(x).shape
    (2, 1, 1, 3)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=2, data_format=data_format,
                         keepdims=keepdims, **kwargs)
