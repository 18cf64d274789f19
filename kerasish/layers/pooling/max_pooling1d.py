"""`MaxPooling1D`: the maximum over 1-D windows."""
from kerasish.layers.pooling.base_pooling import BasePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "MaxPool1D")
class MaxPooling1D(BasePooling):
    """Max pooling for temporal data.

    Output size per spatial axis: `floor((input - pool_size) / strides) + 1`
    with `padding="valid"`, `ceil(input / strides)` with `"same"` (padding
    never wins the max). In training, each window's gradient goes to its
    first maximum (row-major order), as on Keras's JAX backend.

    Args:
        pool_size: int or tuple of 1 int. Defaults to 2.
        strides: int, tuple of 1 int or None (default: `pool_size`).
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` (`(batch, steps, channels)`,
            the default) or `"channels_first"`.

    Example:

    >>> x = np.array([1, 3, 2, 5, 4], "float32").reshape(1, 5, 1)
    >>> MaxPooling1D()(x).numpy().ravel()
    array([3., 5.], dtype=float32)
    >>> MaxPooling1D(padding="same")(x).numpy().ravel()
    array([3., 5., 4.], dtype=float32)
    """

    def __init__(self, pool_size=2, strides=None, padding="valid",
                 data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides, pool_dimensions=1,
                         pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)
