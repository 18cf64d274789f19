"""`ReLU`: rectified linear unit with optional cap, slope and threshold."""
from kerasish import activations
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import real_number
from kerasish.saving.object_registration import builtin


def _check_non_negative(value, name, allow_none=False):
    if value is None and allow_none:
        return
    if value is not None:
        real_number(ReLU, name, value)
    if value is None or value < 0.0:
        what = "a negative value" if allow_none else \
            "None or a negative value"
        raise ValueError(f"{name} of a ReLU layer cannot be {what}. "
                         f"Received: {name}={value}")


@builtin("keras.layers")
class ReLU(Layer):
    """Rectified linear unit:

        f(x) = max_value                          if x >= max_value
        f(x) = x                                  if threshold <= x < max_value
        f(x) = negative_slope * (x - threshold)   otherwise

    Args:
        max_value: Float >= 0, the largest output; `None` means no cap.
        negative_slope: Float >= 0, slope below the threshold. Defaults
            to 0.
        threshold: Float >= 0, where the unit turns on. Defaults to 0.
        **kwargs: Base layer arguments (`name`, `dtype`, ...).

    Example:

    >>> ReLU(max_value=1.0)(np.array([-1.0, 0.5, 3.0], "float32")).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0,
                 **kwargs):
        super().__init__(**kwargs)
        _check_non_negative(max_value, "max_value", allow_none=True)
        _check_non_negative(negative_slope, "negative_slope")
        _check_non_negative(threshold, "threshold")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value,
                                threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value,
                       "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config
