"""`Adadelta`: learning rates from windows of past updates (Zeiler)."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "adadelta")
class Adadelta(Optimizer):
    """Adadelta (Zeiler, 2012), with Keras's `learning_rate` factor.

        acc_g = rho * acc_g + (1 - rho) * g^2
        delta = -sqrt(acc_d + eps) * g / sqrt(acc_g + eps)
        acc_d = rho * acc_d + (1 - rho) * delta^2
        w += lr * delta

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001 (the
            original method uses 1.0).
        rho: Decay rate. Defaults to 0.95.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> _ = Adadelta(learning_rate=1.0).apply([np.array([0.5], "float32")],
    ...                                       [w])
    >>> np.round(w.numpy().astype(float), 5).tolist()
    [0.99859]
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7,
                 weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = \
            self.add_optimizer_variables(
                var_list, ["accumulated_grad", "accumulated_delta_var"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr, rho = self._lr(learning_rate, dtype), np.asarray(self.rho, dtype)
        decay = np.asarray(1 - self.rho, dtype)   # in Python first, as Keras
        eps = np.asarray(self.epsilon, dtype)
        index = self._get_variable_index(variable)
        acc_g = self._accumulated_grads[index]._value
        acc_d = self._accumulated_delta_vars[index]._value
        t1, t2 = self._scratch(variable)
        np.square(gradient, out=t1)
        t1 *= decay
        acc_g *= rho
        acc_g += t1
        np.add(acc_d, eps, out=t1)
        np.sqrt(t1, out=t1)
        t1 *= gradient
        np.add(acc_g, eps, out=t2)
        np.sqrt(t2, out=t2)
        t1 /= t2
        np.negative(t1, out=t1)       # delta
        np.square(t1, out=t2)
        t2 *= decay
        acc_d *= rho
        acc_d += t2
        t1 *= lr
        variable._value += t1

    def get_config(self):
        return {**super().get_config(), "rho": self.rho,
                "epsilon": self.epsilon}
