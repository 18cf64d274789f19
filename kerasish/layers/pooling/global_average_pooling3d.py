"""`GlobalAveragePooling3D`: average over every position."""
from kerasish.layers.pooling.base_global_pooling import GlobalAveragePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalAvgPool3D")
class GlobalAveragePooling3D(GlobalAveragePooling):
    """Global average pooling over all three spatial axes.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, d1, d2, d3, channels)`, or `"channels_first"`, inputs
            `(batch, channels, d1, d2, d3)`.
        keepdims: Keep the 3 spatial axes with size 1. Defaults to
            False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.ones((2, 4, 5, 6, 3), "float32")
    >>> GlobalAveragePooling3D(keepdims=True)(x).shape
    (2, 1, 1, 1, 3)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=3, data_format=data_format,
                         keepdims=keepdims, **kwargs)
