"""`Nadam`: Adam with Nesterov momentum (Dozat, 2016)."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "nadam")
class Nadam(Optimizer):
    """Nesterov-accelerated Adam, with Keras's momentum schedule
    `u_t = beta_1 * (1 - 0.5 * 0.96^t)` and its running product.

    The product lives in one extra variable, saved last among
    `variables` (as Keras saves it).

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        beta_1: Decay of the first moment. Defaults to 0.9.
        beta_2: Decay of the second moment. Defaults to 0.999.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> _ = Nadam(learning_rate=0.1).apply([np.array([0.5], "float32")],
    ...                                    [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.8937]
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
        dtype = var_list[0].dtype if var_list else None
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        self._u_product = self.add_variable((), dtype=dtype,
                                            name="variable", value=1.0)
        # Keras creates it outside the optimizer's name scope (legacy .h5
        # files list it as "variable").
        self._u_product.path = "variable"

    def _update_all(self, grads, variables, learning_rate):
        # The momentum product advances once per step, before the updates.
        u = self._u_product._value
        decay = np.power(np.asarray(0.96, u.dtype), self._local_step(u.dtype))
        u[...] = u * np.asarray(self.beta_1, u.dtype) * (1.0 - 0.5 * decay)
        super()._update_all(grads, variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        step = self._local_step(dtype)
        decay, beta_1 = np.asarray(0.96, dtype), np.asarray(self.beta_1, dtype)
        beta_2 = np.asarray(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * np.power(decay, step))
        u_t_1 = beta_1 * (1.0 - 0.5 * np.power(decay, step + 1))
        u_product_t = self._u_product._value.astype(dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = np.power(beta_2, step)
        index = self._get_variable_index(variable)
        m = self._momentums[index]._value
        v = self._velocities[index]._value
        t1, t2 = self._scratch(variable)
        np.subtract(gradient, m, out=t1)
        t1 *= 1 - beta_1
        m += t1
        np.square(gradient, out=t1)
        t1 -= v
        t1 *= 1 - beta_2
        v += t1
        np.multiply(u_t_1, m, out=t1)
        t1 /= 1 - u_product_t_1
        np.multiply(1 - u_t, gradient, out=t2)
        t2 /= 1 - u_product_t
        t1 += t2                      # m_hat
        np.divide(v, 1 - beta_2_power, out=t2)
        np.sqrt(t2, out=t2)
        t2 += np.asarray(self.epsilon, dtype)
        t1 *= lr
        t1 /= t2
        variable._value -= t1

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2, "epsilon": self.epsilon}
