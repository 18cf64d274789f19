"""`BatchNormalization`: normalize by batch statistics in training and by
their moving averages at inference."""
import numpy as np

from kerasish import backend, constraints, initializers, ops, regularizers
from kerasish.backend import normalization as BN
from kerasish.backend.capture import traced_effect
from kerasish.backend.common import call_context
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import integer, real_number
from kerasish.layers.normalization import renorm as renorm_utils
from kerasish.ops.nn_normalization import standardize
from kerasish.saving.object_registration import builtin


@traced_effect
def _update_moving_statistics(moving_mean, moving_variance, mean, variance,
                              *, momentum):
    """`moving = moving * momentum + batch * (1 - momentum)` for the mean
    and the variance: an effect, so a compiled step makes it too."""
    for var, stat in ((moving_mean, mean), (moving_variance, variance)):
        value = var._value
        stat = np.asarray(getattr(stat, "_value", stat))
        stat = stat.reshape(value.shape).astype(value.dtype, copy=False)
        var.assign(value * momentum + stat * (1.0 - momentum))


@builtin("keras.layers")
class BatchNormalization(Layer):
    """Batch normalization (Ioffe & Szegedy, 2015).

    In training (`training=True` and the layer trainable) the input is
    normalized with the mean and variance of the current batch over every
    axis but `axis`, and the moving statistics move toward them:
    `moving = moving * momentum + batch * (1 - momentum)`. Otherwise the
    moving statistics are used. As in Keras 3, setting `trainable = False`
    freezes the layer completely: it then always runs in inference mode.
    The moving statistics are never updated while a model is being traced
    for shape inference.

    Args:
        axis: The feature axis. Defaults to -1.
        momentum: Momentum of the moving averages. Defaults to 0.99.
        epsilon: Added to the variance. Defaults to 1e-3.
        center: Learn an offset `beta`. Defaults to True.
        scale: Learn a scale `gamma`. Defaults to True.
        beta_initializer, gamma_initializer: Default `"zeros"`, `"ones"`.
        moving_mean_initializer, moving_variance_initializer: Default
            `"zeros"`, `"ones"`.
        beta_regularizer, gamma_regularizer: Optional regularizers.
        beta_constraint, gamma_constraint: Optional constraints.
        synchronized: Accepted for compatibility; one process computes
            exact batch statistics already. Defaults to False.
        renorm: Batch renormalization (Ioffe, 2017). Defaults to False.
        renorm_clipping: Dict with optional `"rmax"`, `"rmin"`, `"dmax"`.
        renorm_momentum: Momentum of the renorm statistics. Defaults to
            0.99.
        **kwargs: Base layer arguments.

    Call arguments:
        inputs: Tensor of any rank.
        training: Whether to use (and update) batch statistics.
        mask: Optional mask of rank `inputs.ndim - 1`: masked positions
            do not count in the batch statistics.

    Example:

    >>> layer = BatchNormalization()
    >>> x = np.array([[1.0], [3.0]], "float32")
    >>> layer(x, training=True).numpy().round(4)
    array([[-0.9995],
           [ 0.9995]], dtype=float32)
    >>> layer.moving_mean.numpy()
    array([0.02], dtype=float32)
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True,
                 scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, synchronized=False, **kwargs):
        super().__init__(**kwargs)
        cls = type(self)
        self.axis = integer(cls, "axis", axis)
        self.synchronized = synchronized
        self.momentum = float(real_number(cls, "momentum", momentum))
        self.epsilon = float(real_number(cls, "epsilon", epsilon))
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(
            moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(
            moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.renorm = renorm
        if renorm:
            renorm_clipping = renorm_utils.check_clipping(renorm_clipping)
        self.renorm_clipping = renorm_clipping
        self.renorm_momentum = renorm_momentum
        self.gamma = self.beta = None
        self.moving_mean = self.moving_variance = None
        self._reduction_axes = None

    def build(self, input_shape):
        rank = len(input_shape)
        if not -rank <= self.axis < rank:
            raise ValueError(
                f"Layer '{self.name}' (BatchNormalization): axis {self.axis} "
                f"is out of bounds for input shape {tuple(input_shape)}.")
        size = input_shape[self.axis]
        if size is None:
            raise ValueError(
                f"Layer '{self.name}' (BatchNormalization) needs a known size "
                f"on axis {self.axis}. Received input shape "
                f"{tuple(input_shape)}")
        shape = (size,)
        if self.scale:
            self.gamma = self.add_weight(
                shape=shape, name="gamma", initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint, trainable=True,
                autocast=False)
        if self.center:
            self.beta = self.add_weight(
                shape=shape, name="beta", initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint, trainable=True,
                autocast=False)
        self.moving_mean = self.add_weight(
            shape=shape, name="moving_mean",
            initializer=self.moving_mean_initializer, trainable=False,
            autocast=False)
        self.moving_variance = self.add_weight(
            shape=shape, name="moving_variance",
            initializer=self.moving_variance_initializer, trainable=False,
            autocast=False)
        if self.renorm:
            renorm_utils.add_weights(self, shape)
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: size})
        self._reduction_axes = [i for i in range(rank)
                                if i != self.axis % rank]

    def _param_shape(self, ndim):
        shape = [1] * ndim
        shape[self.axis] = self.moving_mean.shape[0]
        return tuple(shape)

    def _params(self, inputs):
        shape = self._param_shape(inputs.ndim)
        gamma = None if self.gamma is None else \
            ops.reshape(ops.cast(self.gamma, inputs.dtype), shape)
        beta = None if self.beta is None else \
            ops.reshape(ops.cast(self.beta, inputs.dtype), shape)
        return gamma, beta

    def call(self, inputs, training=None, mask=None):
        if mask is not None and mask.ndim != inputs.ndim - 1:
            raise ValueError(
                "The mask provided should be one dimension less than the "
                f"inputs. Received: mask.shape={mask.shape}, "
                f"inputs.shape={inputs.shape}")
        if inputs.dtype.kind != "f" or inputs.dtype.itemsize < 4:
            inputs = ops.cast(inputs, "float32")
        if training and self.trainable:
            outputs = self._train_call(inputs, mask)
        else:
            outputs = ops.batch_normalization(
                inputs, ops.cast(self.moving_mean, inputs.dtype),
                ops.cast(self.moving_variance, inputs.dtype), self.axis,
                offset=self.beta, scale=self.gamma, epsilon=self.epsilon)
        return ops.cast(outputs, self.compute_dtype)

    def _train_call(self, inputs, mask):
        gamma, beta = self._params(inputs)
        axes = tuple(self._reduction_axes)
        if mask is None and not self.renorm:
            # The common case: one fused primitive for the whole layer.
            out, mean, variance = standardize(inputs, axes, gamma, beta,
                                              self.epsilon)
            self._update_moving(mean, variance)
            return out
        if mask is not None:
            mean, variance = self._masked_moments(inputs, mask)
        else:
            mean, variance = ops.moments(inputs, axes, keepdims=True)
        if self.renorm:
            gamma, beta = renorm_utils.compose(self, mean, variance, gamma,
                                               beta)
        self._update_moving(mean._value, variance._value)
        return BN.batch_norm(inputs, mean, variance,
                             1.0 if gamma is None else gamma,
                             0.0 if beta is None else beta,
                             epsilon=self.epsilon)

    def _masked_moments(self, inputs, mask):
        """Moments over the unmasked positions (differentiable)."""
        weights = ops.cast(ops.expand_dims(mask, -1), inputs.dtype)
        weights = ops.broadcast_to(weights, inputs.shape)
        axes = tuple(self._reduction_axes)
        count = ops.sum(weights, axis=axes, keepdims=True) + \
            backend.epsilon()
        mean = ops.sum(inputs * weights, axis=axes, keepdims=True) / count
        variance = ops.sum(ops.square((inputs - mean) * weights), axis=axes,
                           keepdims=True) / count
        return mean, variance

    def _update_moving(self, mean, variance):
        if call_context.in_trace():
            return
        if self.renorm:
            renorm_utils.update(self, mean, variance)
            return
        _update_moving_statistics(self.moving_mean, self.moving_variance,
                                  mean, variance, momentum=self.momentum)

    def compute_output_shape(self, input_shape):
        if not -len(input_shape) <= self.axis < len(input_shape):
            raise ValueError(
                f"Axis {self.axis} is out of bounds for input shape "
                f"{input_shape}. Received: axis={self.axis}")
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "momentum": self.momentum,
            "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer":
                initializers.serialize(self.gamma_initializer),
            "moving_mean_initializer":
                initializers.serialize(self.moving_mean_initializer),
            "moving_variance_initializer":
                initializers.serialize(self.moving_variance_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer":
                regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
            "synchronized": self.synchronized, "renorm": self.renorm,
            "renorm_clipping": self.renorm_clipping,
            "renorm_momentum": self.renorm_momentum,
        })
        return config
