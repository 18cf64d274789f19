"""`MaxPooling2D`: the maximum over 2-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "MaxPool2D")
class MaxPooling2D(BasePooling):
    """Max pooling for 2D spatial data.

    Output size per spatial axis: `floor((input - pool_size) / strides) + 1`
    with `padding="valid"`, `ceil(input / strides)` with `"same"` (padding
    never wins the max). In training, each window's gradient goes to its
    first maximum (row-major order), as on Keras's JAX backend.

    Args:
        pool_size: int or tuple of 2 ints. Defaults to `(2, 2)`.
        strides: int, tuple of 2 ints or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, rows, cols, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> MaxPooling2D()(x).numpy()[0, :, :, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=2,
                         pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)
