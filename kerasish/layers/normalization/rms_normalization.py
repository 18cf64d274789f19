"""`RMSNormalization`: scale each example by its root mean square."""
from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.layers.normalization.layer_normalization import \
    check_axis_in_bounds
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RMSNormalization(Layer):
    """Root-mean-square normalization (Zhang & Sennrich, 2019):
    `x * rsqrt(mean(x**2, axis) + epsilon) * scale`, with a learned
    `scale` over the normalized axes and no centering.

    Args:
        axis: Int or list of ints. Defaults to -1.
        epsilon: Added to the mean square. Defaults to 1e-6.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = RMSNormalization()
    >>> layer(np.array([[3.0, 4.0]], "float32")).numpy().round(4)
    array([[0.8485, 1.1314]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[a] for a in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape,
                                     initializer="ones")

    def call(self, x):
        return ops.rms_normalization(x, scale=self.scale, axis=self.axis,
                                     epsilon=self.epsilon)

    def compute_output_shape(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon})
        return config
