"""`TimeDistributed`: apply a layer to every temporal slice of an input."""
from kerasish import ops
from kerasish.layers.rnn.wrapper import Wrapper
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class TimeDistributed(Wrapper):
    """Apply the same layer (same weights) to each timestep of the input.

    The input is at least 3-D, `(batch, time, ...)`; axis 1 is time. As in
    Keras, the wrapped layer's `call` runs once per timestep, so layers
    whose result depends on the whole batch (BatchNormalization in
    training) see one timestep at a time.

    Args:
        layer: A `Layer` instance.

    Call arguments:
        inputs: `(batch, time, ...)` tensor.
        training: Passed to the wrapped layer if its `call` accepts it.
        mask: Optional `(batch, time)` mask, passed per step to a layer
            whose `call` accepts `mask`.

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.TimeDistributed(kerasish.layers.Dense(3))
    >>> layer(np.ones((2, 5, 4), "float32")).shape
    (2, 5, 3)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(
                "Please initialize `TimeDistributed` layer with a "
                f"`keras.layers.Layer` instance. Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def _child_input_shape(self, input_shape):
        if not isinstance(input_shape, (tuple, list)) or \
                len(input_shape) < 3:
            raise ValueError(
                "`TimeDistributed` Layer should be passed an `input_shape` "
                f"with at least 3 dimensions, received: {input_shape}")
        return (input_shape[0], *input_shape[2:])

    def compute_output_shape(self, input_shape):
        child = self.layer.compute_output_shape(
            self._child_input_shape(input_shape))
        return (child[0], input_shape[1], *child[1:])

    def build(self, input_shape):
        super().build(self._child_input_shape(input_shape))

    def call(self, inputs, training=None, mask=None):
        self._child_input_shape(tuple(inputs.shape))
        if mask is not None:
            self._check_mask(inputs, mask)
        spec = self.layer._spec()
        outputs = []
        for t in range(inputs.shape[1]):
            kwargs = {}
            if spec.has_mask and mask is not None:
                kwargs["mask"] = mask[:, t]
            if spec.has_training:
                kwargs["training"] = training
            outputs.append(self.layer.call(inputs[:, t], **kwargs))
        return ops.stack(outputs, axis=1)

    def _check_mask(self, inputs, mask):
        shape, mask_shape = tuple(inputs.shape), tuple(ops.shape(mask))
        if len(mask_shape) < 2:
            raise ValueError(
                "The `mask` passed to the `TimeDistributed` layer must be at "
                "least 2D (e.g., `(batch_size, timesteps)`), but it has "
                f"{len(mask_shape)} dimension(s) with shape {mask_shape}.")
        if mask_shape[:2] != shape[:2]:
            raise ValueError(
                "The `mask` passed to the `TimeDistributed` layer has a "
                f"shape {mask_shape} that is incompatible with the input "
                f"shape {shape}. The first two dimensions of the mask (batch "
                "size and timesteps) must match the input's first two "
                f"dimensions. Expected mask shape prefix: {shape[:2]}.")
