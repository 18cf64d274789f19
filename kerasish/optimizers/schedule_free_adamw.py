"""`ScheduleFreeAdamW`: AdamW without a learning-rate schedule (Defazio
et al., 2024): iterate averaging replaces the decay."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers")
class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW, with Keras's formulation.

    The `momentum` slot holds the base sequence `z` (starting at the
    weights), moved by Adam-scaled gradient steps; the weights `y` are an
    interpolation between `z` and the running average `x` of the `z`s:

        z -= lr * g / (sqrt(v / (1 - beta_2^t)) + eps)
        x = (1 - 1/t) * x_prev + (1/t) * z,  y = (1 - beta_1) * z + beta_1 * x

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.0025.
        beta_1: Interpolation weight. Defaults to 0.9.
        beta_2: Decay of the second moment. Defaults to 0.999.
        epsilon: Numerical fuzz. Defaults to 1e-8.
        warmup_steps: Steps of linear learning-rate warmup. Defaults to 0.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> opt = ScheduleFreeAdamW(learning_rate=0.1)
    >>> _ = opt.apply([np.array([0.5], "float32")], [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.9]
    """

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-8, warmup_steps=0, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.warmup_steps = warmup_steps

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        for momentum, var in zip(self._momentums, var_list):
            if momentum is not None:
                momentum.assign(var.numpy())

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        step = self._local_step(dtype)
        beta_1 = np.asarray(self.beta_1, dtype)
        beta_2 = np.asarray(self.beta_2, dtype)
        if self.warmup_steps > 0:
            warmup = np.asarray(self.warmup_steps, dtype)
            lr = lr * np.minimum(step / warmup, np.asarray(1.0, dtype))
        index = self._get_variable_index(variable)
        z = self._momentums[index]._value
        v = self._velocities[index]._value
        z_old = z.copy()
        correction = 1 - np.power(beta_2, step)
        v += (np.square(gradient) - v) * (1 - beta_2)
        denom = np.sqrt(v / correction) + np.asarray(self.epsilon, dtype)
        z -= (lr * gradient) / denom
        weight = np.asarray(1.0, dtype) / step
        x_old = (variable._value - (1 - beta_1) * z_old) / beta_1
        x_new = (1 - weight) * x_old + weight * z
        variable._value[...] = (1 - beta_1) * z + beta_1 * x_new

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2, "epsilon": self.epsilon,
                "warmup_steps": self.warmup_steps}
