"""`GroupNormalization`: normalize groups of channels per example."""
from kerasish import constraints, initializers, ops, regularizers
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.normalization.layer_normalization import \
    check_axis_in_bounds
from kerasish.ops.nn_normalization import standardize
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class GroupNormalization(Layer):
    """Group normalization (Wu & He, 2018).

    The channels (`axis`) are split into `groups`; each example is
    normalized over the other non-batch axes and the channels of each
    group, then scaled and shifted per channel. `groups=-1` gives instance
    normalization, `groups=1` layer normalization over all axes.

    Args:
        groups: Number of groups (must divide the channels), or -1 for one
            group per channel. Defaults to 32.
        axis: The channel axis. Defaults to -1.
        epsilon: Added to the variance. Defaults to 1e-3.
        center, scale: Learn `beta` / `gamma`. Default True.
        beta_initializer, gamma_initializer: Default `"zeros"`, `"ones"`.
        beta_regularizer, gamma_regularizer: Optional regularizers.
        beta_constraint, gamma_constraint: Optional constraints.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = GroupNormalization(groups=2)
    >>> layer(np.array([[1.0, 3.0, 5.0, 9.0]], "float32")).numpy().round(4)
    array([[-0.9995,  0.9995, -0.9999,  0.9999]], dtype=float32)
    """

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True,
                 scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        if not isinstance(groups, int) or isinstance(groups, bool) or \
                (groups <= 0 and groups != -1):
            raise ValueError(
                "Received an invalid value for argument `groups`, expected "
                "a positive integer (or `-1` for instance normalization). "
                f"Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.autocast = False
        self.groups, self.axis, self.epsilon = groups, axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(
                f"Axis {self.axis} of input tensor should have a defined "
                "dimension but the layer received an input with shape "
                f"{tuple(input_shape)}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(
                f"Number of groups ({self.groups}) cannot be more than the "
                f"number of channels ({dim}).")
        if dim % self.groups:
            raise ValueError(
                f"Number of groups ({self.groups}) must be a divisor of the "
                f"number of channels ({dim}).")
        self.input_spec = InputSpec(ndim=len(input_shape),
                                    axes={self.axis: dim})
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = self.add_weight(
                shape=(dim,), name="gamma",
                initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint, autocast=False)
        if self.center:
            self.beta = self.add_weight(
                shape=(dim,), name="beta", initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint, autocast=False)

    def call(self, inputs):
        dtype = inputs.dtype
        x = inputs if dtype.itemsize >= 4 else ops.cast(inputs, "float32")
        axis = self.axis % x.ndim
        channels = x.shape[axis]
        # (..., C, ...) -> (..., groups, C // groups, ...)
        grouped_shape = (x.shape[:axis] + (self.groups,
                                           channels // self.groups) +
                         x.shape[axis + 1:])
        grouped = ops.reshape(x, grouped_shape)
        reduce = tuple(i for i in range(1, grouped.ndim) if i != axis)
        param_shape = [1] * grouped.ndim
        param_shape[axis:axis + 2] = [self.groups, channels // self.groups]
        gamma = None if self.gamma is None else ops.reshape(
            ops.cast(self.gamma, x.dtype), param_shape)
        beta = None if self.beta is None else ops.reshape(
            ops.cast(self.beta, x.dtype), param_shape)
        out = standardize(grouped, reduce, gamma, beta, self.epsilon)[0]
        return ops.cast(ops.reshape(out, x.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        check_axis_in_bounds(self, self.axis, input_shape)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "groups": self.groups, "axis": self.axis,
            "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale,
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
