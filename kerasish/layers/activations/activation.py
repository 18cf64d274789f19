"""`Activation`: apply an activation function as a layer."""
from kerasish import activations
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Activation(Layer):
    """Apply `activation` to the input.

    Args:
        activation: Activation name (`"relu"`) or callable.

    Example:

    >>> Activation("relu")(np.array([-1.0, 2.0], "float32")).numpy()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)
        self.built = True     # as Keras: built at init, no build config

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config
