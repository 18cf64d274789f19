"""`ActivityRegularization`: add an L1/L2 penalty on the activations."""
from kerasish import regularizers
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ActivityRegularization(Layer):
    """Pass the input through and add `l1 * sum|x| + l2 * sum x**2`
    (averaged over the batch) to the model's losses.

    Args:
        l1: L1 factor. Defaults to 0.
        l2: L2 factor. Defaults to 0.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = ActivityRegularization(l1=0.5)
    >>> _ = layer(np.array([[1.0, -3.0]], "float32"))
    >>> float(layer.losses[0])
    2.0
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(
            activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update({"l1": self.l1, "l2": self.l2})
        return config
