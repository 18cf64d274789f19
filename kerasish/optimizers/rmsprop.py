"""`RMSprop`: divide the gradient by a running RMS of its magnitude."""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "rmsprop")
class RMSprop(Optimizer):
    """RMSprop (Hinton), optionally centered and with momentum.

        v = rho * v + (1 - rho) * g^2
        centered: a = rho * a + (1 - rho) * g;  denom = v - a^2 + eps
        otherwise: denom = v + eps
        step = lr * g / sqrt(denom)
        momentum: m = momentum * m + step;  w -= m   (else w -= step)

    Embedding gradients (rows) are applied as row updates when
    `momentum == 0`: the averages decay everywhere, as in the dense rule,
    but only the touched rows move.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        rho: Discount of the gradient history. Defaults to 0.9.
        momentum: Momentum factor. Defaults to 0.0.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        centered: Normalize by the estimated variance instead of the
            second moment. Defaults to False.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> _ = RMSprop(learning_rate=0.1).apply([np.array([0.5], "float32")],
    ...                                      [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.6838]
    """

    _supports_sparse = True

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0,
                 epsilon=1e-7, centered=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.rho, self.momentum = rho, momentum
        self.epsilon, self.centered = epsilon, centered

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        self._momentums = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list,
                                                           "momentum")
        self._average_gradients = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(
                var_list, "average_gradient")

    def update_step(self, gradient, variable, learning_rate):
        if isinstance(gradient, IndexedSlices):
            if self.momentum > 0:
                gradient = gradient.to_dense()
            else:
                return self._sparse_step(gradient, variable, learning_rate)
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        # As Keras: `1 - rho` in Python, then in the variable's dtype.
        rho = np.asarray(self.rho, dtype)
        decay = np.asarray(1 - self.rho, dtype)
        index = self._get_variable_index(variable)
        v = self._velocities[index]._value
        t1, t2 = self._scratch(variable)
        np.square(gradient, out=t1)
        t1 *= decay
        v *= rho
        v += t1
        if self.centered:
            a = self._average_gradients[index]._value
            np.multiply(gradient, decay, out=t1)
            a *= rho
            a += t1
            np.square(a, out=t2)
            np.subtract(v, t2, out=t2)
            t2 += np.asarray(self.epsilon, dtype)
        else:
            np.add(v, np.asarray(self.epsilon, dtype), out=t2)
        np.sqrt(t2, out=t2)
        np.multiply(gradient, lr, out=t1)
        t1 /= t2
        if self.momentum > 0:
            m = self._momentums[index]._value
            m *= np.asarray(self.momentum, dtype)
            m += t1
            variable._value -= m
        else:
            variable._value -= t1

    def _sparse_step(self, gradient, variable, learning_rate):
        """The dense rule with zero rows elsewhere: every average decays
        (`rho * x + 0` is exactly `rho * x`), only the rows move."""
        dtype = variable.dtype
        lr, rho = self._lr(learning_rate, dtype), np.asarray(self.rho, dtype)
        decay = np.asarray(1 - self.rho, dtype)
        rows, g = gradient.indices, gradient.values
        index = self._get_variable_index(variable)
        v = self._velocities[index]._value
        v_rows = v[rows] * rho + np.square(g) * decay
        v *= rho
        v[rows] = v_rows
        if self.centered:
            a = self._average_gradients[index]._value
            a_rows = a[rows] * rho + g * decay
            a *= rho
            a[rows] = a_rows
            denom = v_rows - np.square(a_rows) + np.asarray(self.epsilon,
                                                            dtype)
        else:
            denom = v_rows + np.asarray(self.epsilon, dtype)
        variable._value[rows] -= (g * lr) / np.sqrt(denom)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho,
                "momentum": self.momentum, "epsilon": self.epsilon,
                "centered": self.centered}
