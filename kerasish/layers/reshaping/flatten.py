"""`Flatten`: collapse all non-batch axes into one."""
import numpy as np

from kerasish import ops
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Flatten(Layer):
    """Flatten the input to `(batch, -1)`.

    Args:
        data_format: `"channels_last"` (default) or `"channels_first"`; with
            channels-first input the channels are moved last first, so the
            order matches a channels-last model.

    Example:

    >>> Flatten()(np.zeros((2, 3, 4), "float32")).shape
    (2, 12)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend_config.standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)
        self._channels_first = self.data_format == "channels_first"

    def call(self, inputs):
        rank = len(inputs.shape)
        if self._channels_first and rank > 1:
            inputs = ops.transpose(inputs, (0,) + tuple(range(2, rank)) + (1,))
        shape = self.compute_output_shape(inputs.shape)
        if shape[-1] is None:
            shape = (inputs.shape[0], -1)
        return ops.reshape(inputs, (inputs.shape[0],) + tuple(shape[1:]))

    def compute_output_shape(self, input_shape):
        non_batch = input_shape[1:]
        if not non_batch:
            return (input_shape[0], 1)
        if any(d is None for d in non_batch):
            return (input_shape[0], None)
        return (input_shape[0], int(np.prod(non_batch)))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config
