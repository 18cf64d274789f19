"""`Ftrl`: Follow The Regularized Leader (McMahan et al., 2013)."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin
from kerasish import initializers


def _check_nonnegative(**values):
    for name, value in values.items():
        if value < 0.0:
            raise ValueError(f"`{name}` needs to be positive or zero. "
                             f"Received: {name}={value}.")


@builtin("keras.optimizers", "ftrl")
class Ftrl(Optimizer):
    """FTRL-Proximal, as used for wide sparse linear models.

        g' = g + 2 * l2_shrinkage * w;  n' = n + g^2
        z += g' - (n'^-p - n^-p) / lr * w            (p = learning_rate_power)
        w = (clip(z, -l1, l1) - z) / (n'^-p / lr + 2 * (l2 + beta / (2 lr)))
        n = n'

    Every step recomputes the whole variable from `z` and `n`, so row
    gradients are applied densely.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        learning_rate_power: Float <= 0. Defaults to -0.5.
        initial_accumulator_value: Starting value of `n` (>= 0). Defaults
            to 0.1.
        l1_regularization_strength: L1 penalty (>= 0). Defaults to 0.
        l2_regularization_strength: L2 penalty (>= 0). Defaults to 0.
        l2_shrinkage_regularization_strength: L2 shrinkage penalty added to
            the gradient (>= 0). Defaults to 0.
        beta: The `beta` of the per-coordinate rate. Defaults to 0.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([0.0])
    >>> _ = Ftrl(learning_rate=0.1).apply([np.array([0.5], "float32")], [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [-0.0845]
    """

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0,
                 weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        _check_nonnegative(initial_accumulator_value=initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError(
                "`learning_rate_power` needs to be negative or zero. "
                f"Received: learning_rate_power={learning_rate_power}.")
        _check_nonnegative(
            l1_regularization_strength=l1_regularization_strength,
            l2_regularization_strength=l2_regularization_strength,
            l2_shrinkage_regularization_strength=(
                l2_shrinkage_regularization_strength))
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = \
            l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        start = initializers.Constant(self.initial_accumulator_value)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list, ["accumulator", "linear"], initializer=[start, "zeros"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        index = self._get_variable_index(variable)
        accum = self._accumulators[index]._value
        linear = self._linears[index]._value
        w = variable._value
        power = np.asarray(-self.learning_rate_power, dtype)
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        shrink = np.asarray(2 * self.l2_shrinkage_regularization_strength,
                            dtype)
        new_accum = accum + np.square(gradient)
        new_power = np.power(new_accum, power)
        linear += (gradient + shrink * w) - \
            (new_power - np.power(accum, power)) / lr * w
        quadratic = new_power / lr + 2 * l2
        l1 = self.l1_regularization_strength
        w[...] = (np.clip(linear, -l1, l1) - linear) / quadratic
        accum[...] = new_accum

    def get_config(self):
        return {**super().get_config(),
                "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength":
                    self.l1_regularization_strength,
                "l2_regularization_strength":
                    self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength,
                "beta": self.beta}
