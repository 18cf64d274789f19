"""`SGD`: gradient descent with optional (Nesterov) momentum."""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.optimizers.deferred_rows import apply_sgd_rows
from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "sgd")
class SGD(Optimizer):
    """Stochastic gradient descent, Keras 3's update rule.

    `m = momentum * m - lr * g`; `w += m` (Nesterov:
    `w += momentum * m - lr * g`); without momentum `w -= lr * g`.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.01.
        momentum: Float in [0, 1]. Defaults to 0.
        nesterov: Use Nesterov momentum. Defaults to False.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> opt = SGD(learning_rate=0.1)
    >>> _ = opt.apply_gradients([(np.array([2.0], "float32"), w)])
    >>> w.numpy()
    array([0.8], dtype=float32)
    """

    _supports_sparse = True

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False,
                 weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(variables,
                                                          "momentum")

    def update_step(self, gradient, variable, learning_rate):
        lr = self._lr(learning_rate, variable.dtype)
        if isinstance(gradient, IndexedSlices) and self.momentum != 0 and \
                apply_sgd_rows(self, gradient, variable,
                               self.momentums[self._get_variable_index(
                                   variable)], lr):
            return
        w = variable._value
        if isinstance(gradient, IndexedSlices):
            if self.momentum == 0:
                w[gradient.indices] -= gradient.values * lr
                return
            gradient = gradient.to_dense()
        g = np.asarray(getattr(gradient, "_value", gradient))
        if self.momentum == 0:
            w -= g * lr
            return
        m = self.momentums[self._get_variable_index(variable)]._value
        momentum = np.asarray(self.momentum, variable.dtype)
        m *= momentum
        m -= g * lr
        if self.nesterov:
            w += m * momentum - g * lr
        else:
            w += m

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum,
                "nesterov": self.nesterov}
