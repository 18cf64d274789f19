"""`Cropping1D`: trim steps from both ends of a sequence."""
from kerasish.layers.reshaping.spatial_pairs import BaseCropping, pair
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Cropping1D(BaseCropping):
    """Crop along the time axis (axis 1) of `(batch, steps, features)`.

    Args:
        cropping: int (same amount at both ends) or tuple of 2 ints
            `(start, end)`, the steps removed. Defaults to `(1, 1)`.

    Example:

    >>> Cropping1D((1, 2))(np.zeros((2, 6, 3), "float32")).shape
    (2, 3, 3)
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(rank=1, data_format="channels_last", **kwargs)
        self.cropping = pair("Cropping1D", cropping, "cropping")

    def _amounts(self):
        return (self.cropping,)

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        return config
