"""`AveragePooling3D`: the mean over 3-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "AvgPool3D")
class AveragePooling3D(BasePooling):
    """Average pooling for 3D (spatial or spatio-temporal) data.

    With `padding="same"`, a window overlapping the border averages only
    the input entries it covers (the padding is not counted), as Keras
    does.

    Args:
        pool_size: int or tuple of 3 ints, the window size (required).
        strides: int, tuple of 3 ints or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, d1, d2, d3, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.ones((1, 5, 6, 7, 2), "float32")
    >>> AveragePooling3D(3, strides=2, padding="same")(x).shape
    (1, 3, 3, 4, 2)
    """

    def __init__(self, pool_size, strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=3,
                         pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)
