"""`Cropping2D`: trim rows and columns at the image borders."""
from kerasish.layers.reshaping.spatial_pairs import BaseCropping, pairs
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Cropping2D(BaseCropping):
    """Crop the spatial borders of images.

    Args:
        cropping: int (all four sides), tuple of 2 ints `(symmetric_height,
            symmetric_width)`, or tuple of 2 tuples of 2 ints `((top,
            bottom), (left, right))`. Defaults to `((0, 0), (0, 0))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> Cropping2D(((2, 2), (4, 4)))(np.zeros((2, 28, 28, 3), "float32")).shape
    (2, 24, 20, 3)
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None,
                 **kwargs):
        super().__init__(rank=2, data_format=data_format, **kwargs)
        self.cropping = pairs("Cropping2D", cropping, 2, "cropping",
                              "symmetric_height_crop, symmetric_width_crop")

    def _amounts(self):
        return self.cropping

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping,
                       "data_format": self.data_format})
        return config
