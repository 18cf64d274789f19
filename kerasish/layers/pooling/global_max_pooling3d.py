"""`GlobalMaxPooling3D`: max over every position."""
from kerasish.layers.pooling.base_global_pooling import GlobalMaxPooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalMaxPool3D")
class GlobalMaxPooling3D(GlobalMaxPooling):
    """Global max pooling over all three spatial axes.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, d1, d2, d3, channels)`, or `"channels_first"`, inputs
            `(batch, channels, d1, d2, d3)`.
        keepdims: Keep the 3 spatial axes with size 1. Defaults to
            False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.arange(48, dtype="float32").reshape(2, 2, 2, 2, 3)
    >>> GlobalMaxPooling3D()(x).numpy()
    array([[21., 22., 23.],
           [45., 46., 47.]], dtype=float32)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=3, data_format=data_format,
                         keepdims=keepdims, **kwargs)
