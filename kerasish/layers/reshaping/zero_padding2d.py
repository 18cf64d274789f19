"""`ZeroPadding2D`: add rows and columns of zeros around images."""
from kerasish.layers.reshaping.spatial_pairs import BaseZeroPadding, pairs
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ZeroPadding2D(BaseZeroPadding):
    """Zero-pad the borders of images.

    Args:
        padding: int (all four sides), tuple of 2 ints `(symmetric_height,
            symmetric_width)`, or tuple of 2 tuples of 2 ints `((top,
            bottom), (left, right))`. Defaults to `(1, 1)`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> x = np.ones((1, 2, 2, 1), "float32")
    >>> ZeroPadding2D(((1, 0), (0, 1)))(x).numpy()[0, :, :, 0]
    array([[0., 0., 0.],
           [1., 1., 0.],
           [1., 1., 0.]], dtype=float32)
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(rank=2, data_format=data_format, **kwargs)
        self.padding = pairs("ZeroPadding2D", padding, 2, "padding",
                             "symmetric_height_pad, symmetric_width_pad")

    def _amounts(self):
        return self.padding

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding,
                       "data_format": self.data_format})
        return config
