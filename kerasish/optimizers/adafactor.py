"""`Adafactor`: Adam-like steps with factored second moments (Shazeer &
Stern, 2018): a matrix keeps one row and one column average instead of a
full second-moment matrix."""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.variable import Variable


def _rms(x):
    return np.sqrt(np.mean(np.square(x)))


@builtin("keras.optimizers", "adafactor")
class Adafactor(Optimizer):
    """Adafactor, with Keras's update rule.

    For a variable of rank >= 2 the second moment is the outer product of
    running row means `r` and column means `c` of `g^2 + epsilon_1`
    (normalised by `mean(r)`); smaller variables keep a full average `v`.
    The step `g / sqrt(v)` is clipped to RMS `clip_threshold` and scaled
    by `max(epsilon_2, rms(w)) * min(lr, 1 / sqrt(t))`.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        beta_2_decay: Exponent of the decay `1 - t^beta_2_decay`. Defaults
            to -0.8.
        epsilon_1: Added to the squared gradient. Defaults to 1e-30.
        epsilon_2: Floor of the parameter scale. Defaults to 1e-3.
        clip_threshold: RMS clipping threshold of the step. Defaults to 1.
        relative_step: Cap a float learning rate by `1 / sqrt(t)`.
            Defaults to True.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable(np.ones((2, 2), "float32"))
    >>> grad = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    >>> _ = Adafactor(learning_rate=0.5).apply([grad], [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [[0.6127, 0.4523], [0.4804, 0.5101]]
    """

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8,
                 epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0,
                 relative_step=True, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1, self.epsilon_2 = epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, \
            relative_step

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            if len(var.shape) < 2:
                # Unused placeholders, kept so that `variables` (and saved
                # files) line up with Keras's.
                self._r.append(self.add_variable((), dtype="int32",
                                                 name=var.name))
                self._c.append(self.add_variable((), dtype="int32",
                                                 name=var.name))
            elif var.overwrite_with_gradient:
                self._r.append(None)
                self._c.append(None)
            else:
                self._r.append(self.add_variable(
                    var.shape[:-1], dtype=var.dtype, name=var.name))
                self._c.append(self.add_variable(
                    var.shape[:-2] + (var.shape[-1],), dtype=var.dtype,
                    name=var.name))
            self._v.append(None if var.overwrite_with_gradient else
                           self.add_variable_from_reference(var, "velocity"))

    def _rates(self, learning_rate, dtype):
        lr = self._lr(learning_rate, dtype)
        step = self._local_step(dtype)
        inv_sqrt = 1 / np.sqrt(step)
        if isinstance(self._learning_rate, Variable) and self.relative_step:
            lr = np.minimum(lr, inv_sqrt)
        return np.minimum(lr, inv_sqrt), step

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        rho_t, step = self._rates(learning_rate, dtype)
        index = self._get_variable_index(variable)
        r, c, v = (self._r[index]._value, self._c[index]._value,
                   self._v[index]._value)
        alpha_t = np.maximum(np.asarray(self.epsilon_2, dtype),
                             _rms(variable._value)) * rho_t
        grad_sq = np.square(gradient) + np.asarray(self.epsilon_1, dtype)
        beta_2_t = 1 - np.power(step, np.asarray(self.beta_2_decay, dtype))
        if len(variable.shape) >= 2:
            r[...] = beta_2_t * r + (1 - beta_2_t) * np.mean(grad_sq, -1)
            c[...] = beta_2_t * c + (1 - beta_2_t) * np.mean(grad_sq, -2)
            row = r / np.mean(r, axis=-1, keepdims=True)
            v[...] = row[..., None] * c[..., None, :]
        else:
            v[...] = beta_2_t * v + (1 - beta_2_t) * grad_sq
        u_t = gradient / np.sqrt(v)
        clip = np.maximum(np.asarray(1.0, dtype),
                          _rms(u_t) / np.asarray(self.clip_threshold, dtype))
        variable._value -= alpha_t * (u_t / clip)

    def get_config(self):
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay,
                "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                "clip_threshold": self.clip_threshold,
                "relative_step": self.relative_step}
