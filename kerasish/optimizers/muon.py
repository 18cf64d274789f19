"""`Muon`: momentum orthogonalized by Newton-Schulz (Jordan et al., 2024),
with AdamW for the variables it does not suit."""
import re

import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.saving.object_registration import builtin


def _swap_last_axes(x):
    return np.swapaxes(x, -1, -2)


@builtin("keras.optimizers", "muon")
class Muon(Optimizer):
    """Muon for 2-D weight matrices, AdamW for everything else.

    A matrix's momentum `m += g + (momentum - 1) * m` (Nesterov: the step
    direction is `g + momentum * m`) is replaced by an approximately
    orthogonal matrix with `ns_steps` quintic Newton-Schulz iterations,
    scaled by `sqrt(max(rows, cols)) * rms_rate`, then subtracted times the
    learning rate. Variables that are not 2-D, embeddings (when
    `exclude_embeddings`) and paths matching `exclude_layers` use AdamW
    with `adam_lr_ratio * learning_rate` and `adam_weight_decay`.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        adam_beta_1, adam_beta_2: AdamW moment decays. Default 0.9, 0.999.
        adam_weight_decay: Weight decay of the AdamW variables. Defaults
            to 0.004.
        epsilon: AdamW fuzz. Defaults to 1e-7.
        weight_decay: Weight decay of the Muon variables. Defaults to
            0.004.
        exclude_layers: Regexes of variable paths that use AdamW.
        exclude_embeddings: Embedding tables use AdamW. Defaults to True.
        muon_a, muon_b, muon_c: Newton-Schulz coefficients. Default
            3.4445, -4.775, 2.0315.
        adam_lr_ratio: AdamW rate relative to `learning_rate`. Defaults
            to 1.
        momentum: Muon momentum. Defaults to 0.95.
        ns_steps: Newton-Schulz iterations. Defaults to 5.
        nesterov: Use Nesterov momentum. Defaults to True.
        rms_rate: Update RMS scaling (None disables it). Defaults to 0.2.
        clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum,
        ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable(np.zeros((2, 2), "float32"))
    >>> grad = np.array([[1.0, 0.0], [0.0, 0.0]], "float32")
    >>> _ = Muon(learning_rate=0.1, weight_decay=None).apply([grad], [w])
    >>> float(w.numpy()[0, 0]) < 0 and float(w.numpy()[1, 1]) == 0.0
    True
    """

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9,
                 adam_beta_2=0.999, adam_weight_decay=0.004, epsilon=1e-7,
                 weight_decay=0.004, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None,
                 exclude_layers=None, exclude_embeddings=True,
                 muon_a=3.4445, muon_b=-4.775, muon_c=2.0315,
                 adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True,
                 rms_rate=0.2, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.adam_beta_1, self.adam_beta_2 = adam_beta_1, adam_beta_2
        self.epsilon = epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio, self.momentum = adam_lr_ratio, momentum
        self.ns_steps, self.nesterov = ns_steps, nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay, self.rms_rate = adam_weight_decay, rms_rate

    def _should_use_adamw(self, variable):
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():
            return True
        return any(re.search(k, variable.path) for k in self.exclude_layers)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self.momentums = [None] * len(var_list)
        self.adam_velocities = [None] * len(var_list)
        for var in var_list:
            if var.overwrite_with_gradient:
                continue
            index = self._get_variable_index(var)
            self.momentums[index] = self.add_variable_from_reference(
                var, "momentum")
            if self._should_use_adamw(var):
                self.adam_velocities[index] = \
                    self.add_variable_from_reference(var, "velocity")

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m = self.momentums[index]._value
        v = self.adam_velocities[index]
        lr = self._lr(learning_rate, variable.dtype)
        if v is not None:
            self._adamw_step(gradient, variable, lr * self.adam_lr_ratio, m,
                             v._value)
        else:
            self._muon_step(gradient, variable, lr, m)

    def _muon_step(self, gradient, variable, lr, m):
        dtype = variable.dtype
        m += gradient + m * np.asarray(self.momentum - 1, dtype)
        direction = gradient + np.asarray(self.momentum, dtype) * m \
            if self.nesterov else m
        update = self.zeropower_via_newtonschulz5(direction, self.ns_steps)
        variable._value -= self.lr_adjust(lr * update)

    def _adamw_step(self, gradient, variable, lr, m, v):
        dtype = variable.dtype
        step = self._local_step(dtype)
        beta_1_power = np.power(np.asarray(self.adam_beta_1, dtype), step)
        beta_2_power = np.power(np.asarray(self.adam_beta_2, dtype), step)
        alpha = np.asarray(lr, dtype) * np.sqrt(1 - beta_2_power) / \
            (1 - beta_1_power)
        m += (gradient - m) * np.asarray(1 - self.adam_beta_1, dtype)
        v += (np.square(gradient) - v) * np.asarray(1 - self.adam_beta_2,
                                                    dtype)
        variable._value -= (m * alpha) / (np.sqrt(v) +
                                          np.asarray(self.epsilon, dtype))

    def lr_adjust(self, x):
        """Scale an update to a consistent RMS (`rms_rate`)."""
        if self.rms_rate is None:
            return x
        scale = np.sqrt(np.asarray(max(x.shape[0], x.shape[1]), x.dtype))
        return x * scale * np.asarray(self.rms_rate, x.dtype)

    def zeropower_via_newtonschulz5(self, x, steps):
        """An approximately orthogonal matrix with `x`'s singular vectors."""
        if x.ndim < 2:
            raise ValueError(
                "Expected gradient or momentum to have at least 2 "
                f"dimensions. Received: shape={x.shape}")
        dtype = x.dtype
        a, b, c = (np.asarray(k, dtype) for k in
                   (self.muon_a, self.muon_b, self.muon_c))
        tall = x.shape[-2] > x.shape[-1]
        if tall:
            x = _swap_last_axes(x)
        norm = np.sqrt(np.sum(np.square(x), axis=(-2, -1), keepdims=True))
        x = x / (norm + np.asarray(1e-7, dtype))
        for _ in range(steps):
            gram = x @ _swap_last_axes(x)
            poly = b * gram + c * gram @ gram
            x = a * x + poly @ x
        return _swap_last_axes(x) if tall else x

    def _apply_weight_decay(self, variables):
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            decay = self.adam_weight_decay if \
                self._should_use_adamw(variable) else self.weight_decay
            if decay is None:
                continue
            lr = self._lr(self.learning_rate, variable.dtype)
            wd = np.asarray(decay, variable.dtype)
            variable._value -= variable._value * wd * lr

    def get_config(self):
        return {**super().get_config(), "adam_beta_1": self.adam_beta_1,
                "adam_beta_2": self.adam_beta_2, "epsilon": self.epsilon,
                "exclude_layers": self.exclude_layers,
                "muon_a": self.muon_a, "muon_b": self.muon_b,
                "muon_c": self.muon_c, "adam_lr_ratio": self.adam_lr_ratio,
                "momentum": self.momentum, "ns_steps": self.ns_steps,
                "nesterov": self.nesterov,
                "exclude_embeddings": self.exclude_embeddings,
                "adam_weight_decay": self.adam_weight_decay,
                "rms_rate": self.rms_rate}
