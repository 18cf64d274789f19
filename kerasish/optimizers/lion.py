"""`Lion`: sign momentum (Chen et al., 2023, "Symbolic Discovery")."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "lion")
class Lion(Optimizer):
    """Lion: move every coordinate by the learning rate, in the direction
    of the sign of an interpolated momentum.

        w -= lr * sign(beta_1 * m + (1 - beta_1) * g)
        m = beta_2 * m + (1 - beta_2) * g

    Use a learning rate 3-10x smaller than Adam's (the steps have unit
    size).

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        beta_1: Interpolation for the update direction. Defaults to 0.9.
        beta_2: Decay of the momentum. Defaults to 0.99.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0, 1.0])
    >>> _ = Lion(learning_rate=0.1).apply([np.array([0.5, -2.0], "float32")],
    ...                                   [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.9, 1.1]
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99,
                 weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(
                "Argument `beta_1` must be in the [0, 1] range. Otherwise, "
                f"the optimizer degenerates to SignSGD. Received: "
                f"beta_1={beta_1}.")

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        beta_1 = np.asarray(self.beta_1, dtype)
        beta_2 = np.asarray(self.beta_2, dtype)
        m = self._momentums[self._get_variable_index(variable)]._value
        t1, t2 = self._scratch(variable)
        np.multiply(m, beta_1, out=t1)
        np.multiply(gradient, 1.0 - beta_1, out=t2)
        t1 += t2
        np.sign(t1, out=t1)
        t1 *= lr
        variable._value -= t1
        np.multiply(gradient, 1.0 - beta_2, out=t2)
        m *= beta_2
        m += t2

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2}
