"""`Adagrad`: per-parameter rates from the sum of squared gradients."""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin
from kerasish import initializers


@builtin("keras.optimizers", "adagrad")
class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011).

        acc += g^2;  w -= lr * g / sqrt(acc + epsilon)

    Rows a gradient does not touch do not change at all, so embedding
    gradients are applied to their rows only (the result equals the dense
    update exactly).

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        initial_accumulator_value: Starting value of the accumulators.
            Defaults to 0.1.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> _ = Adagrad(learning_rate=0.1).apply([np.array([0.5], "float32")],
    ...                                      [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.9155]
    """

    _supports_sparse = True

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1,
                 epsilon=1e-7, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(
            var_list, "accumulator",
            initializer=initializers.Constant(self.initial_accumulator_value))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._lr(learning_rate, dtype)
        eps = np.asarray(self.epsilon, dtype)
        acc = self._accumulators[self._get_variable_index(variable)]._value
        if isinstance(gradient, IndexedSlices):
            rows, g = gradient.indices, gradient.values
            acc_rows = acc[rows] + np.square(g)
            acc[rows] = acc_rows
            variable._value[rows] -= (lr * g) / np.sqrt(acc_rows + eps)
            return
        t1, t2 = self._scratch(variable)
        np.square(gradient, out=t1)
        acc += t1
        np.add(acc, eps, out=t2)
        np.sqrt(t2, out=t2)
        np.multiply(gradient, lr, out=t1)
        t1 /= t2
        variable._value -= t1

    def get_config(self):
        return {**super().get_config(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
