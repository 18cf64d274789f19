"""`Adamax`: Adam with the infinity norm (Kingma & Ba, section 7)."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "adamax")
class Adamax(Optimizer):
    """Adamax: Adam whose second moment is an exponentially weighted
    infinity norm.

        m += (g - m) * (1 - beta_1);  u = max(beta_2 * u, |g|)
        w -= lr * m / ((1 - beta_1^t) * (u + epsilon))

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        beta_1: Decay of the first moment. Defaults to 0.9.
        beta_2: Decay of the weighted infinity norm. Defaults to 0.999.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> _ = Adamax(learning_rate=0.1).apply([np.array([0.5], "float32")],
    ...                                     [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.9]
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(
            var_list, ["momentum", "norm"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        beta_1_power = np.power(np.asarray(self.beta_1, dtype),
                                self._local_step(dtype))
        index = self._get_variable_index(variable)
        m, u = self._m[index]._value, self._u[index]._value
        t1, t2 = self._scratch(variable)
        np.subtract(gradient, m, out=t1)
        t1 *= np.asarray(1 - self.beta_1, dtype)
        m += t1
        np.multiply(u, np.asarray(self.beta_2, dtype), out=t1)
        np.maximum(t1, np.abs(gradient, out=t2), out=u)
        np.multiply(m, lr, out=t1)
        np.add(u, np.asarray(self.epsilon, dtype), out=t2)
        t2 *= 1 - beta_1_power
        t1 /= t2
        variable._value -= t1

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2, "epsilon": self.epsilon}
