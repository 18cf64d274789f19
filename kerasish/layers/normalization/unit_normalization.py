"""`UnitNormalization`: scale each example to unit L2 norm."""
from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.layers.normalization.layer_normalization import \
    check_axis_in_bounds
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class UnitNormalization(Layer):
    """Divide each example by its L2 norm over `axis` (norms below 1e-6
    are treated as 1e-6, so zeros stay zeros).

    Args:
        axis: Int or list of ints. Defaults to -1.
        **kwargs: Base layer arguments.

    Example:

    >>> UnitNormalization()(np.array([[3.0, 4.0]], "float32")).numpy()
    array([[0.6, 0.8]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(
                "Invalid value for `axis` argument: expected an int or a "
                f"list/tuple of ints. Received: axis={axis}")
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        return ops.normalize(inputs, axis=axis, order=2, epsilon=1e-12)

    def compute_output_shape(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
