"""`BaseAdaptivePooling`: pool to a fixed output size (Keras 3.15's
AdaptiveAverage/MaxPooling 1D/2D/3D)."""
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.ops.conv import adaptive_average_pool, adaptive_max_pool


def output_size_tuple(cls_name, output_size, rank, axes_hint):
    """`output_size` (an int or `rank` ints) as a tuple of positive ints."""
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        values = (output_size,) * rank
    elif isinstance(output_size, (tuple, list)) and \
            len(output_size) == rank:
        values = tuple(output_size)
    elif isinstance(output_size, (tuple, list)) and rank == 1:
        raise ValueError(
            f"{cls_name}: for 1D input, `output_size` tuple must have "
            f"length 1. Received: {output_size}")
    else:
        raise TypeError(
            f"{cls_name}: `output_size` must be an integer or {axes_hint} "
            f"tuple. Received: {output_size} of type {type(output_size)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
               for v in values):
        raise ValueError(
            f"{cls_name}: `output_size` must hold positive integers. "
            f"Received: output_size={output_size}")
    return values


class BaseAdaptivePooling(Layer):
    """Abstract adaptive pooling over `len(output_size)` spatial axes.

    Args:
        output_size: Tuple of ints, the output's spatial size.
        data_format: `"channels_last"` or `"channels_first"`.
    """

    _pool = None

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = tuple(output_size)
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.input_spec = InputSpec(ndim=len(self.output_size) + 2)
        self.built = True

    def call(self, inputs):
        return type(self)._pool(inputs, output_size=self.output_size,
                                data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0],) + self.output_size + (input_shape[-1],)
        return (input_shape[0], input_shape[1]) + self.output_size

    def get_config(self):
        config = super().get_config()
        config.update({"output_size": self.output_size,
                       "data_format": self.data_format})
        return config


class BaseAdaptiveAveragePooling(BaseAdaptivePooling):
    """Adaptive average pooling (see `AdaptiveAveragePooling2D`)."""

    _pool = staticmethod(adaptive_average_pool)


class BaseAdaptiveMaxPooling(BaseAdaptivePooling):
    """Adaptive max pooling (see `AdaptiveMaxPooling2D`)."""

    _pool = staticmethod(adaptive_max_pool)
