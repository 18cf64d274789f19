"""`GlobalMaxPooling1D`: max over every step."""
from kerasish.layers.pooling.base_global_pooling import GlobalMaxPooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalMaxPool1D")
class GlobalMaxPooling1D(GlobalMaxPooling):
    """Global max pooling over the one spatial axis.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, steps, features)`, or `"channels_first"`, inputs
            `(batch, features, steps)`.
        keepdims: Keep the spatial axis with size 1. Defaults to False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.arange(24, dtype="float32").reshape(2, 4, 3)
    >>> GlobalMaxPooling1D()(x).numpy()
    array([[ 9., 10., 11.],
           [21., 22., 23.]], dtype=float32)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=1, data_format=data_format,
                         keepdims=keepdims, **kwargs)
