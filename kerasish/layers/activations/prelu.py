"""`PReLU`: leaky ReLU whose slope is a learned weight."""
from kerasish import activations, constraints, initializers, regularizers
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class PReLU(Layer):
    """Parametric ReLU: `x if x >= 0 else alpha * x`, `alpha` learned.

    `alpha` has the input's shape without the batch axis; the axes listed
    in `shared_axes` get size 1 (one slope shared along them, e.g. the
    spatial axes of a feature map).

    Args:
        alpha_initializer: Initializer of the slopes. Defaults to "Zeros".
        alpha_regularizer: Optional regularizer of the slopes.
        alpha_constraint: Optional constraint of the slopes.
        shared_axes: Int or list of ints (1-based, batch axis excluded)
            along which the slopes are shared. Defaults to None.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = PReLU(shared_axes=[1])
    >>> layer(np.ones((2, 5, 3), "float32")).shape
    (2, 5, 3)
    >>> layer.alpha.shape
    (1, 3)
    """

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if not 1 <= axis < len(input_shape):
                raise ValueError(
                    f"Layer '{self.name}' (PReLU): each of `shared_axes` "
                    "must be an input axis >= 1 (the batch axis 0 is always "
                    f"shared). Received: shared_axes={self.shared_axes} for "
                    f"input shape {tuple(input_shape)}")
            param_shape[axis - 1] = 1
        if any(d is None for d in param_shape):
            raise ValueError(
                f"Layer '{self.name}' (PReLU) needs known sizes on the "
                "non-shared axes to create `alpha`. Received input shape "
                f"{tuple(input_shape)}; list the unknown axes in "
                "`shared_axes`.")
        self.alpha = self.add_weight(
            shape=param_shape, name="alpha",
            initializer=self.alpha_initializer,
            regularizer=self.alpha_regularizer,
            constraint=self.alpha_constraint)
        axes = {i: input_shape[i] for i in range(1, len(input_shape))
                if i not in (self.shared_axes or ())}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)

    def call(self, inputs):
        positive = activations.relu(inputs)
        negative = -self.alpha * activations.relu(-inputs)
        return positive + negative

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "alpha_initializer": initializers.serialize(
                self.alpha_initializer),
            "alpha_regularizer": regularizers.serialize(
                self.alpha_regularizer),
            "alpha_constraint": constraints.serialize(self.alpha_constraint),
            "shared_axes": self.shared_axes,
        })
        return config
