"""Cosine decay (with linear warmup) and cosine decay with restarts."""
import math

import numpy as np

from kerasish.optimizers.schedules.learning_rate_schedule import (
    MODULE, LearningRateSchedule, as_float, cast, check_decay_steps, result)
from kerasish.saving.object_registration import builtin


@builtin(MODULE)
class CosineDecay(LearningRateSchedule):
    """Cosine decay (Loshchilov & Hutter, SGDR), optionally after a linear
    warmup.

    Without warmup: `lr * ((1 - alpha) * 0.5 * (1 + cos(pi * t / T)) +
    alpha)` for `t = min(step, decay_steps)`. With `warmup_target`, the
    rate first rises linearly from `initial_learning_rate` to
    `warmup_target` over `warmup_steps`, then decays from `warmup_target`.

    Args:
        initial_learning_rate: Float, the rate at step 0.
        decay_steps: Positive number of steps to decay over.
        alpha: Minimum rate as a fraction of the initial (or warmup
            target) rate. Defaults to 0.
        name: Defaults to `"CosineDecay"`.
        warmup_target: Rate reached at the end of the warmup; None (the
            default) means no warmup.
        warmup_steps: Number of warmup steps. Defaults to 0.

    Example:

    >>> schedule = CosineDecay(0.0, decay_steps=10, warmup_target=0.1,
    ...                        warmup_steps=5)
    >>> [round(float(schedule(s)), 4) for s in (0, 5, 10, 15)]
    [0.0, 0.1, 0.05, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0,
                 name="CosineDecay", warmup_target=None, warmup_steps=0):
        check_decay_steps(decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.alpha, self.name = decay_steps, alpha, name
        self.warmup_steps, self.warmup_target = warmup_steps, warmup_target

    def _decay(self, step, decay_steps, decay_from, dtype):
        fraction = step / decay_steps
        cosine = 0.5 * (1.0 + np.cos(np.asarray(math.pi, dtype) * fraction))
        decayed = (1 - self.alpha) * cosine + self.alpha
        return decay_from * decayed

    def __call__(self, step):
        lr = as_float(self.initial_learning_rate)
        dtype = lr.dtype
        decay_steps = cast(self.decay_steps, dtype)
        step = cast(step, dtype)
        if self.warmup_target is None:
            return result(self._decay(np.minimum(step, decay_steps),
                                      decay_steps, lr, dtype))
        target = cast(self.warmup_target, dtype)
        warmup_steps = cast(self.warmup_steps, dtype)
        step = np.minimum(step, decay_steps + warmup_steps)
        if step < warmup_steps:
            return result((target - lr) * (step / warmup_steps) + lr)
        return result(self._decay(step - warmup_steps, decay_steps, target,
                                  dtype))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha,
                "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


@builtin(MODULE)
class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR).

    The first period lasts `first_decay_steps`; each later one is `t_mul`
    times longer and starts from `m_mul` times the previous peak rate.

    Args:
        initial_learning_rate: Float, the rate at step 0.
        first_decay_steps: Positive length of the first period.
        t_mul: Period length multiplier. Defaults to 2.0.
        m_mul: Peak rate multiplier per restart. Defaults to 1.0.
        alpha: Minimum rate as a fraction of the initial rate. Defaults
            to 0.
        name: Defaults to `"SGDRDecay"`.

    Example:

    >>> schedule = CosineDecayRestarts(0.1, first_decay_steps=10)
    >>> [round(float(schedule(s)), 4) for s in (0, 5, 10, 20)]
    [0.1, 0.05, 0.1, 0.05]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0,
                 m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        check_decay_steps(first_decay_steps, "first_decay_steps")
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul, self._m_mul = t_mul, m_mul
        self.alpha, self.name = alpha, name

    def _restart(self, fraction, t_mul, dtype):
        """(index of the current period, fraction done within it)."""
        if t_mul == 1.0:
            i_restart = np.floor(fraction)
            return i_restart, fraction - i_restart
        i_restart = np.floor(np.log(cast(1.0 - fraction * (1.0 - t_mul),
                                         dtype)) / np.log(t_mul))
        done = (1.0 - np.power(t_mul, i_restart)) / (1.0 - t_mul)
        return i_restart, (fraction - done) / np.power(t_mul, i_restart)

    def __call__(self, step):
        lr = as_float(self.initial_learning_rate)
        dtype = lr.dtype
        first = cast(self.first_decay_steps, dtype)
        alpha, t_mul = cast(self.alpha, dtype), cast(self._t_mul, dtype)
        m_mul = cast(self._m_mul, dtype)
        fraction = cast(step, dtype) / first
        i_restart, fraction = self._restart(fraction, t_mul, dtype)
        m_fac = np.power(m_mul, i_restart)
        cosine = 0.5 * m_fac * (1.0 + np.cos(np.asarray(math.pi, dtype) *
                                             fraction))
        return result(lr * ((1 - alpha) * cosine + alpha))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul,
                "alpha": self.alpha, "name": self.name}
