"""`Lamb`: layer-wise adaptive large-batch optimization (You et al.)."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "lamb")
class Lamb(Optimizer):
    """LAMB: the Adam direction, rescaled per variable by the trust ratio
    `||w|| / ||update||`.

        m += (g - m) * (1 - beta_1);  v += (g^2 - v) * (1 - beta_2)
        update = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + eps)
        w -= ratio * lr * update

    The ratio is 1 when either norm is 0.

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
    >>> w = kerasish.Variable([3.0, 4.0])
    >>> _ = Lamb(learning_rate=0.1).apply([np.array([1.0, 1.0], "float32")],
    ...                                   [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [2.6464, 3.6464]
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
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        step = self._local_step(dtype)
        beta_1_power = np.power(np.asarray(self.beta_1, dtype), step)
        beta_2_power = np.power(np.asarray(self.beta_2, dtype), step)
        index = self._get_variable_index(variable)
        m = self._momentums[index]._value
        v = self._velocities[index]._value
        t1, t2 = self._scratch(variable)
        np.subtract(gradient, m, out=t1)
        t1 *= np.asarray(1 - self.beta_1, dtype)
        m += t1
        np.square(gradient, out=t1)
        t1 -= v
        t1 *= np.asarray(1 - self.beta_2, dtype)
        v += t1
        np.divide(m, 1.0 - beta_1_power, out=t1)
        np.divide(v, 1.0 - beta_2_power, out=t2)
        np.sqrt(t2, out=t2)
        t2 += np.asarray(self.epsilon, dtype)
        t1 /= t2                      # the Adam direction
        w_norm = np.sqrt(np.sum(np.square(variable._value)))
        g_norm = np.sqrt(np.sum(np.square(t1)))
        ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else \
            np.asarray(1.0, dtype)
        t1 *= ratio * lr
        variable._value -= t1

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2, "epsilon": self.epsilon}
