"""`AveragePooling2D`: the mean over 2-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "AvgPool2D")
class AveragePooling2D(BasePooling):
    """Average pooling for 2D spatial data.

    With `padding="same"`, a window overlapping the border averages only
    the input entries it covers (the padding is not counted), as Keras
    does.

    Args:
        pool_size: int or tuple of 2 ints, the window size (required).
        strides: int, tuple of 2 ints or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, rows, cols, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> AveragePooling2D(2)(x).numpy()[0, :, :, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    """

    def __init__(self, pool_size, strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=2,
                         pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)
