"""`UpSampling3D`: repeat each voxel along the three spatial axes."""
from kerasish import ops
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.ops.conv import spatial_tuple
from kerasish.saving.object_registration import builtin


def spatial_axes(data_format, rank):
    first = 1 if data_format == "channels_last" else 2
    return tuple(range(first, first + rank))


def scaled_shape(input_shape, axes, size):
    """`input_shape` with each spatial axis multiplied by its factor."""
    shape = list(input_shape)
    for axis, factor in zip(axes, size):
        shape[axis] = None if shape[axis] is None else shape[axis] * factor
    return tuple(shape)


@builtin("keras.layers")
class UpSampling3D(Layer):
    """Upsample volumes by repeating entries along each spatial axis.

    Args:
        size: int or tuple of 3 ints, the factors. Defaults to `(2, 2, 2)`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Example:

    >>> UpSampling3D((1, 2, 3))(np.ones((1, 2, 2, 2, 4), "float32")).shape
    (1, 2, 4, 6, 4)
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend_config.standardize_data_format(
            data_format)
        try:
            self.size = spatial_tuple(size, 3, "size")
        except ValueError as e:
            raise ValueError(f"UpSampling3D: {e}") from None
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        for axis, factor in zip(spatial_axes(self.data_format, 3),
                                self.size):
            inputs = ops.repeat(inputs, factor, axis=axis)
        return inputs

    def compute_output_shape(self, input_shape):
        return scaled_shape(input_shape, spatial_axes(self.data_format, 3),
                            self.size)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config
