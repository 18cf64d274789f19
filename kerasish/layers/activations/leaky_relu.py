"""`LeakyReLU`: `x` for `x >= 0`, `negative_slope * x` below."""
import warnings

from kerasish import activations
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class LeakyReLU(Layer):
    """Leaky rectified linear unit: `x if x >= 0 else negative_slope * x`.

    Args:
        negative_slope: Float >= 0, the slope for negative inputs.
            Defaults to 0.3. (The deprecated name `alpha` is accepted.)
        **kwargs: Base layer arguments.

    Example:

    >>> LeakyReLU()(np.array([-2.0, 1.0], "float32")).numpy()
    array([-0.6,  1. ], dtype=float32)
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use "
                          "`negative_slope` instead.")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(
                "The negative_slope value of a Leaky ReLU layer cannot be "
                "None or negative value. Expected a float. Received: "
                f"negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return activations.leaky_relu(inputs,
                                      negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config
