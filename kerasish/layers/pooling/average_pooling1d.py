"""`AveragePooling1D`: the mean over 1-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "AvgPool1D")
class AveragePooling1D(BasePooling):
    """Average pooling for temporal data.

    With `padding="same"`, a window overlapping the border averages only
    the input entries it covers (the padding is not counted), as Keras
    does.

    Args:
        pool_size: int or tuple of 1 int, the window size (required).
        strides: int, tuple of 1 int or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, steps, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.array([1, 3, 2, 5, 4], "float32").reshape(1, 5, 1)
    >>> AveragePooling1D(2, padding="same")(x).numpy().ravel()
    array([2. , 3.5, 4. ], dtype=float32)
    """

    def __init__(self, pool_size, strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=1,
                         pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)
