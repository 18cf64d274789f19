"""`GaussianNoise`: add zero-centred Gaussian noise in training."""
from kerasish.backend import random
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import unit_interval
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class GaussianNoise(Layer):
    """Add `N(0, stddev**2)` noise to the input during training only.

    Args:
        stddev: Float in [0, 1], the noise standard deviation.
        seed: Optional int seed.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = GaussianNoise(0.1, seed=0)
    >>> x = np.zeros((1000, 10), "float32")
    >>> float(layer(x).numpy().std())  # identity at inference
    0.0
    >>> round(float(layer(x, training=True).numpy().std()), 1)
    0.1
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        unit_interval(type(self), "stddev", stddev)
        self.stddev, self.seed = stddev, seed
        if stddev > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            return inputs + random.normal(inputs.shape, 0.0, self.stddev,
                                          dtype=self.compute_dtype,
                                          seed=self.seed_generator)
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config
