"""`ELU`: exponential linear unit."""
from kerasish import activations
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ELU(Layer):
    """Exponential linear unit: `x if x > 0 else alpha * (exp(x) - 1)`.

    Args:
        alpha: Float, the scale of the negative part. Defaults to 1.0.
        **kwargs: Base layer arguments.

    Example:

    >>> ELU(alpha=2.0)(np.array([-1.0, 1.0], "float32")).numpy()
    array([-1.2642411,  1.       ], dtype=float32)
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config
