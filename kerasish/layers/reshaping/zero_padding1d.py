"""`ZeroPadding1D`: add zeros at both ends of a sequence."""
from kerasish.layers.reshaping.spatial_pairs import BaseZeroPadding, pair
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ZeroPadding1D(BaseZeroPadding):
    """Zero-pad the time axis of `(batch, steps, features)`.

    Args:
        padding: int (same amount at both ends) or tuple of 2 ints
            `(start, end)`. Defaults to 1.
        data_format: `"channels_last"` (default) or `"channels_first"`
            (`(batch, features, steps)`).

    Example:

    >>> x = np.ones((1, 2, 1), "float32")
    >>> ZeroPadding1D((1, 2))(x).numpy().ravel()
    array([0., 1., 1., 0., 0.], dtype=float32)
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(rank=1, data_format=data_format, **kwargs)
        self.padding = pair("ZeroPadding1D", padding, "padding")

    def _amounts(self):
        return (self.padding,)

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding,
                       "data_format": self.data_format})
        return config
