"""`GaussianDropout`: multiplicative 1-centred Gaussian noise in training."""
import math

from kerasish.backend import random
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import unit_interval
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class GaussianDropout(Layer):
    """Multiply the input by `N(1, rate / (1 - rate))` noise in training.

    Args:
        rate: Float in [0, 1], the equivalent drop probability.
        seed: Optional int seed.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = GaussianDropout(0.2, seed=0)
    >>> x = np.ones((2000, 10), "float32")
    >>> round(float(layer(x, training=True).numpy().std()), 1)  # sqrt(.25)
    0.5
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        unit_interval(type(self), "rate", rate)
        self.rate, self.seed = rate, seed
        if rate > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return inputs * random.normal(inputs.shape, 1.0, stddev,
                                          dtype=self.compute_dtype,
                                          seed=self.seed_generator)
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config
