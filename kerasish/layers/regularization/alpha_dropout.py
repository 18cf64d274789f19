"""`AlphaDropout`: dropout that keeps SELU's self-normalizing statistics."""
from kerasish import ops
from kerasish.backend import random
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import unit_interval
from kerasish.saving.object_registration import builtin

_ALPHA = 1.6732632423543772848170429916717
_SCALE = 1.0507009873554804934193349852946


@builtin("keras.layers")
class AlphaDropout(Layer):
    """Dropout for SELU networks: dropped units take SELU's negative
    saturation value and an affine correction keeps the mean and variance
    of the inputs (Klambauer et al., 2017).

    Args:
        rate: Float in [0, 1], the drop probability.
        noise_shape: Optional shape of the keep-mask (None entries follow
            the input).
        seed: Optional int seed.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = AlphaDropout(0.1, seed=0)
    >>> x = np.random.default_rng(0).standard_normal((4000, 50))
    >>> y = layer(x.astype("float32"), training=True).numpy()
    >>> abs(float(y.mean())) < 0.05, round(float(y.std()), 1)
    (True, 1.0)
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        unit_interval(type(self), "rate", rate)
        self.rate, self.seed, self.noise_shape = rate, seed, noise_shape
        if rate > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate <= 0:
            return inputs
        shape = inputs.shape if self.noise_shape is None else tuple(
            inputs.shape[i] if d is None else d
            for i, d in enumerate(self.noise_shape))
        alpha_p = -_ALPHA * _SCALE
        keep = random.uniform(shape, seed=self.seed_generator,
                              dtype=inputs.dtype) >= self.rate
        keep = ops.cast(keep, inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        x = inputs * keep + alpha_p * (1 - keep)
        return a * x + b

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed,
                       "noise_shape": self.noise_shape})
        return config
