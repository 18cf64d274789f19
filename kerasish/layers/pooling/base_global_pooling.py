"""`BaseGlobalPooling`: reduce every spatial axis (Global Max/Average)."""
from kerasish import ops
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer


class BaseGlobalPooling(Layer):
    """Abstract global pooling over `pool_dimensions` spatial axes.

    Args:
        pool_dimensions: Number of spatial axes (1, 2 or 3).
        data_format: `"channels_last"` or `"channels_first"`.
        keepdims: Keep the spatial axes (with size 1). Defaults to False.
    """

    def __init__(self, pool_dimensions, data_format=None, keepdims=False,
                 **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend_config.standardize_data_format(
            data_format)
        if not isinstance(keepdims, bool):
            raise ValueError(
                f"{type(self).__name__}: `keepdims` must be a bool. "
                f"Received: keepdims={keepdims!r}")
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self.built = True

    def _spatial_axes(self, ndim):
        if self.data_format == "channels_last":
            return tuple(range(1, ndim - 1))
        return tuple(range(2, ndim))

    def _reduce(self, reduction, inputs):
        axes = self._spatial_axes(len(inputs.shape))
        return reduction(inputs, axis=axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        spatial = len(input_shape) - 2
        last = self.data_format == "channels_last"
        channels = input_shape[-1] if last else input_shape[1]
        if not self.keepdims:
            return (input_shape[0], channels)
        if last:
            return (input_shape[0],) + (1,) * spatial + (channels,)
        return (input_shape[0], channels) + (1,) * spatial

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format,
                       "keepdims": self.keepdims})
        return config


class GlobalMaxPooling(BaseGlobalPooling):
    """Global max pooling: the maximum over all spatial positions."""

    def call(self, inputs):
        return self._reduce(ops.max, inputs)


class GlobalAveragePooling(BaseGlobalPooling):
    """Global average pooling: the mean over all spatial positions."""

    def call(self, inputs):
        return self._reduce(ops.mean, inputs)
