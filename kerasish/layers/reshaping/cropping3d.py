"""`Cropping3D`: trim the borders of volumes."""
from kerasish.layers.reshaping.spatial_pairs import BaseCropping, pairs
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Cropping3D(BaseCropping):
    """Crop the three spatial axes of volumes.

    Args:
        cropping: int (every side), tuple of 3 ints (one symmetric amount
            per axis), or tuple of 3 tuples of 2 ints `((start, end), ...)`.
            Defaults to `((1, 1), (1, 1), (1, 1))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> Cropping3D(((1, 1), (2, 2), (0, 1)))(np.zeros((1, 4, 6, 5, 2))).shape
    (1, 2, 2, 4, 2)
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)),
                 data_format=None, **kwargs):
        super().__init__(rank=3, data_format=data_format, **kwargs)
        self.cropping = pairs("Cropping3D", cropping, 3, "cropping",
                              "symmetric_dim1_crop, symmetric_dim2_crop, "
                              "symmetric_dim3_crop")

    def _amounts(self):
        return self.cropping

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping,
                       "data_format": self.data_format})
        return config
