"""`GlobalMaxPooling2D`: max over every position."""
from kerasish.layers.pooling.base_global_pooling import GlobalMaxPooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalMaxPool2D")
class GlobalMaxPooling2D(GlobalMaxPooling):
    """Global max pooling over both spatial axes.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, rows, cols, channels)`, or `"channels_first"`, inputs
            `(batch, channels, rows, cols)`.
        keepdims: Keep the 2 spatial axes with size 1. Defaults to
            False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.arange(24, dtype="float32").reshape(2, 2, 2, 3)
    >>> GlobalMaxPooling2D()(x).numpy()
    array([[ 9., 10., 11.],
           [21., 22., 23.]], dtype=float32)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=2, data_format=data_format,
                         keepdims=keepdims, **kwargs)
