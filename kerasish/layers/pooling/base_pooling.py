"""`BasePooling`: shared body of the Max/Average Pooling 1D/2D/3D layers."""
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.ops.conv import (
    average_pool, max_pool, spatial_tuple, standardize_padding)


class BasePooling(Layer):
    """Abstract pooling layer over `pool_dimensions` spatial axes.

    Args:
        pool_size: int or tuple of ints, the window size.
        strides: int, tuple of ints or None (default: `pool_size`).
        pool_dimensions: Number of spatial axes (1, 2 or 3).
        pool_mode: `"max"` or `"average"`.
        padding: `"valid"` or `"same"`.
        data_format: `"channels_last"` or `"channels_first"`.
    """

    def __init__(self, pool_size, strides, pool_dimensions, pool_mode="max",
                 padding="valid", data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        cls = type(self).__name__
        try:
            self.pool_size = spatial_tuple(
                pool_size, pool_dimensions, "pool_size")
            self.strides = spatial_tuple(
                pool_size if strides is None else strides, pool_dimensions,
                "strides")
            self.padding = standardize_padding(padding)
        except ValueError as e:
            raise ValueError(f"{cls}: {e}") from None
        if pool_mode not in ("max", "average"):
            raise ValueError(
                f"{cls}: `pool_mode` must be either 'max' or 'average'. "
                f"Received: pool_mode={pool_mode!r}")
        self.pool_mode = pool_mode
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self.built = True

    def call(self, inputs):
        pool = max_pool if self.pool_mode == "max" else \
            average_pool
        self.compute_output_shape(inputs.shape)
        return pool(inputs, pool_size=self.pool_size, strides=self.strides,
                    padding=self.padding, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        last = self.data_format == "channels_last"
        sizes = input_shape[1:-1] if last else input_shape[2:]
        out = tuple(None if n is None else self._out_size(n, i, input_shape)
                    for i, n in enumerate(sizes))
        if last:
            return (input_shape[0],) + out + (input_shape[-1],)
        return input_shape[:2] + out

    def _out_size(self, n, i, input_shape):
        s = self.strides[i]
        if self.padding == "same":
            return (n - 1) // s + 1
        size = (n - self.pool_size[i]) // s + 1
        if size <= 0:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): computed "
                "output size would be zero or negative: the input is "
                "smaller than the pooling window with padding='valid'. "
                f"Received: input shape={input_shape}, "
                f"pool_size={self.pool_size}, strides={self.strides}")
        return size

    def get_config(self):
        config = super().get_config()
        config.update({
            "pool_size": self.pool_size,
            "padding": self.padding,
            "strides": self.strides,
            "data_format": self.data_format,
        })
        return config
