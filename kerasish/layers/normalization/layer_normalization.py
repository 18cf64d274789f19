"""`LayerNormalization`: normalize each example over its feature axes."""
import warnings

from kerasish import constraints, initializers, ops, regularizers
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


def check_axis_in_bounds(layer, axis, input_shape):
    """Raise Keras's out-of-bounds error for an int or list `axis`."""
    for a in (axis if isinstance(axis, (list, tuple)) else [axis]):
        if a >= len(input_shape) or a < -len(input_shape):
            raise ValueError(
                f"Axis {a} is out of bounds for input shape "
                f"{tuple(input_shape)}. Received: axis={axis} (layer "
                f"'{layer.name}', {type(layer).__name__})")


@builtin("keras.layers")
class LayerNormalization(Layer):
    """Layer normalization (Ba et al., 2016).

    Each example is normalized by its own mean and variance over `axis`,
    then scaled by `gamma` and shifted by `beta` (one value per position of
    the normalized axes). Runs as one fused primitive.

    Args:
        axis: Int or list of ints, the normalized axes. Defaults to -1.
        epsilon: Added to the variance. Defaults to 1e-3.
        center: Learn `beta`. Defaults to True.
        scale: Learn `gamma`. Defaults to True.
        beta_initializer, gamma_initializer: Default `"zeros"`, `"ones"`.
        beta_regularizer, gamma_regularizer: Optional regularizers.
        beta_constraint, gamma_constraint: Optional constraints.
        **kwargs: Base layer arguments. `rms_scaling=True` (deprecated in
            Keras, with a warning) scales by the inverse standard deviation
            without centering, and keeps only `gamma`.

    Example:

    >>> layer = LayerNormalization()
    >>> layer(np.array([[1.0, 3.0]], "float32")).numpy().round(4)
    array([[-0.9995,  0.9995]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):
        rms_scaling = kwargs.pop("rms_scaling", False)
        if rms_scaling:
            warnings.warn(
                "You passed `rms_scaling=True`, which is deprecated. This "
                "argument scales the input by the variance, not the root "
                "mean square. Use `keras.layers.RMSNormalization` for RMS "
                "normalization.")
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(
                "Expected an int or a list/tuple of ints for the argument "
                f"'axis', but received: {axis!r}")
        self.epsilon = epsilon
        self.center, self.scale = center, scale
        self.rms_scaling = rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.autocast = False

    def build(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        if isinstance(self.axis, list):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[a] for a in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        if None in shape:
            raise ValueError(
                f"Layer '{self.name}' (LayerNormalization) needs known sizes "
                f"on the normalized axes {self.axis}. Received input shape "
                f"{tuple(input_shape)}")
        self.gamma = self.beta = None
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(
                name="gamma", shape=shape,
                initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint, trainable=True,
                autocast=False)
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(
                name="beta", shape=shape, initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint, trainable=True,
                autocast=False)

    def call(self, inputs):
        with warnings.catch_warnings():
            # The deprecation was reported once, in the constructor.
            warnings.simplefilter("ignore")
            outputs = ops.layer_normalization(
                inputs, self.gamma, self.beta, self.axis, self.epsilon,
                rms_scaling=self.rms_scaling)
        return ops.cast(outputs, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "epsilon": self.epsilon,
            "center": self.center, "scale": self.scale,
            "rms_scaling": self.rms_scaling,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer":
                initializers.serialize(self.gamma_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer":
                regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
        })
        return config
