"""`AdaptiveMaxPooling1D`: max pooling to a fixed 1-D output size."""
from kerasish.layers.pooling.base_adaptive_pooling import (
    BaseAdaptiveMaxPooling, output_size_tuple)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AdaptiveMaxPooling1D(BaseAdaptiveMaxPooling):
    """Adaptive max pooling for temporal data.

    Pools the input to `output_size` along each spatial axis whatever its
    size: output `i` of an axis of length `L` takes the max of input
    entries `floor(i * L / o)` to `ceil((i + 1) * L / o) - 1`.

    Args:
        output_size: int or tuple of 1 int, the output's spatial
            size.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> AdaptiveMaxPooling1D(2)(x).numpy().ravel()
    array([2., 4.], dtype=float32)
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        output_size = output_size_tuple(
            "AdaptiveMaxPooling1D", output_size, 1, "(length,)")
        super().__init__(output_size, data_format, **kwargs)
