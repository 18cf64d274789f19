"""`SpatialDropout1D/2D/3D`: drop whole feature maps, not single entries."""
from kerasish import backend
from kerasish.backend import random
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.regularization.dropout import Dropout
from kerasish.saving.object_registration import builtin


class BaseSpatialDropout(Dropout):
    """Dropout whose mask is shared over the spatial axes: adjacent
    positions of a feature map are strongly correlated, so dropping single
    entries barely regularizes."""

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return random.dropout(inputs, self.rate,
                                  noise_shape=self._get_noise_shape(inputs),
                                  seed=self.seed_generator)
        return inputs

    def _channels_noise_shape(self, inputs):
        shape = [1] * inputs.ndim
        shape[0] = inputs.shape[0]
        channel = 1 if getattr(self, "data_format", None) == \
            "channels_first" else inputs.ndim - 1
        shape[channel] = inputs.shape[channel]
        return tuple(shape)

    _get_noise_shape = _channels_noise_shape

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name,
                "dtype": self.dtype}


@builtin("keras.layers")
class SpatialDropout1D(BaseSpatialDropout):
    """Drop entire channels of `(batch, steps, channels)` inputs.

    Args:
        rate: Float in [0, 1], the fraction of channels to drop.
        seed: Optional int seed.
        name, dtype: Base layer arguments.

    Example:

    >>> layer = SpatialDropout1D(0.5, seed=1)
    >>> y = layer(np.ones((1, 4, 6), "float32"), training=True).numpy()
    >>> bool((y == y[:, :1]).all())  # same mask at every step
    True
    """

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=3)


class _SpatialDropoutND(BaseSpatialDropout):
    _rank = None

    def __init__(self, rate, data_format=None, seed=None, name=None,
                 dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = backend.standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


@builtin("keras.layers")
class SpatialDropout2D(_SpatialDropoutND):
    """Drop entire channels of 4-D feature maps.

    Args:
        rate: Float in [0, 1], the fraction of channels to drop.
        data_format: `"channels_last"` (default, from the Keras config) or
            `"channels_first"`.
        seed: Optional int seed.
        name, dtype: Base layer arguments.

    Example:

    >>> SpatialDropout2D(0.5)(np.ones((1, 2, 2, 3), "float32")).shape
    (1, 2, 2, 3)
    """

    _rank = 4


@builtin("keras.layers")
class SpatialDropout3D(_SpatialDropoutND):
    """Drop entire channels of 5-D feature volumes.

    Args:
        rate: Float in [0, 1], the fraction of channels to drop.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: Optional int seed.
        name, dtype: Base layer arguments.

    Example:

    >>> SpatialDropout3D(0.2)(np.ones((1, 2, 2, 2, 3), "float32")).shape
    (1, 2, 2, 2, 3)
    """

    _rank = 5
