"""`ZeroPadding3D`: add zeros around volumes."""
from kerasish.layers.reshaping.spatial_pairs import BaseZeroPadding, pairs
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ZeroPadding3D(BaseZeroPadding):
    """Zero-pad the three spatial axes of volumes.

    Args:
        padding: int (every side), tuple of 3 ints (one symmetric amount
            per axis), or tuple of 3 tuples of 2 ints `((start, end), ...)`.
            Defaults to `((1, 1), (1, 1), (1, 1))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> ZeroPadding3D((1, 2, 0))(np.ones((1, 2, 2, 2, 3))).shape
    (1, 4, 6, 2, 3)
    """

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None,
                 **kwargs):
        super().__init__(rank=3, data_format=data_format, **kwargs)
        self.padding = pairs("ZeroPadding3D", padding, 3, "padding",
                             "symmetric_dim1_pad, symmetric_dim2_pad, "
                             "symmetric_dim3_pad")

    def _amounts(self):
        return self.padding

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding,
                       "data_format": self.data_format})
        return config
