"""`Dropout`: randomly zero inputs during training."""
from kerasish.backend import random
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import unit_interval
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Dropout(Layer):
    """Zero each input with probability `rate` in training, scaling the
    rest by `1 / (1 - rate)`; identity at inference.

    Args:
        rate: Float in [0, 1), fraction of inputs to drop.
        noise_shape: Optional shape of the binary mask (None dims follow
            the input), e.g. `(batch, 1, features)` to share it over time.
        seed: Optional int seed.

    Example:

    >>> layer = kerasish.layers.Dropout(0.5, seed=0)
    >>> x = np.ones((2, 4), "float32")
    >>> np.asarray(layer(x, training=False)).tolist()
    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    >>> sorted(set(np.asarray(layer(x, training=True)).ravel().tolist()))
    [0.0, 2.0]
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        unit_interval(type(self), "rate", rate)
        self.rate = rate
        self.seed = seed
        self.noise_shape = noise_shape
        if rate > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return random.dropout(inputs, self.rate,
                                  noise_shape=self._noise_shape(inputs),
                                  seed=self.seed_generator)
        return inputs

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        return tuple(inputs.shape[i] if d is None else d
                     for i, d in enumerate(self.noise_shape))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed,
                       "noise_shape": self.noise_shape})
        return config
