"""`MaxPooling3D`: the maximum over 3-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "MaxPool3D")
class MaxPooling3D(BasePooling):
    """Max pooling for 3D (spatial or spatio-temporal) data.

    Output size per spatial axis: `floor((input - pool_size) / strides) + 1`
    with `padding="valid"`, `ceil(input / strides)` with `"same"` (padding
    never wins the max). In training, each window's gradient goes to its
    first maximum (row-major order), as on Keras's JAX backend.

    Args:
        pool_size: int or tuple of 3 ints. Defaults to `(2, 2, 2)`.
        strides: int, tuple of 3 ints or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, d1, d2, d3, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.arange(64, dtype="float32").reshape(1, 4, 4, 4, 1)
    >>> MaxPooling3D()(x).numpy()[0, :, :, :, 0]
    array([[[21., 23.],
            [29., 31.]],
    <BLANKLINE>
           [[53., 55.],
            [61., 63.]]], dtype=float32)
    """

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=3,
                         pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)
