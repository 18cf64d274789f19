"""Exponential, inverse-time, piecewise-constant and polynomial decay."""
import numpy as np

from kerasish.optimizers.schedules.learning_rate_schedule import (
    MODULE, LearningRateSchedule, as_float, cast, check_decay_steps, result)
from kerasish.saving.object_registration import builtin


@builtin(MODULE)
class ExponentialDecay(LearningRateSchedule):
    """`initial_learning_rate * decay_rate ** (step / decay_steps)`.

    Args:
        initial_learning_rate: Float, the rate at step 0.
        decay_steps: Positive int, the steps per `decay_rate` factor.
        decay_rate: Float, the decay factor.
        staircase: Decay in whole steps (`floor(step / decay_steps)`).
            Defaults to False.
        name: Defaults to `"ExponentialDecay"`.

    Example:

    >>> schedule = ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    >>> round(float(schedule(20)), 6)
    0.025
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate,
                 staircase=False, name="ExponentialDecay"):
        check_decay_steps(decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate = decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        lr = as_float(self.initial_learning_rate)
        p = cast(step, lr.dtype) / cast(self.decay_steps, lr.dtype)
        if self.staircase:
            p = np.floor(p)
        return result(lr * np.power(cast(self.decay_rate, lr.dtype), p))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase,
                "name": self.name}


@builtin(MODULE)
class InverseTimeDecay(LearningRateSchedule):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)`.

    Args:
        initial_learning_rate: Float, the rate at step 0.
        decay_steps: Positive number of steps per unit of decay.
        decay_rate: Float, the decay rate.
        staircase: Decay in whole steps. Defaults to False.
        name: Defaults to `"InverseTimeDecay"`.

    Example:

    >>> schedule = InverseTimeDecay(0.1, decay_steps=1, decay_rate=0.5)
    >>> round(float(schedule(2)), 6)
    0.05
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate,
                 staircase=False, name="InverseTimeDecay"):
        check_decay_steps(decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate = decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        lr = as_float(self.initial_learning_rate)
        p = cast(step, lr.dtype) / cast(self.decay_steps, lr.dtype)
        if self.staircase:
            p = np.floor(p)
        denom = np.asarray(1, lr.dtype) + cast(self.decay_rate, lr.dtype) * p
        return result(lr / denom)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase,
                "name": self.name}


@builtin(MODULE)
class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[i]` for steps in `(boundaries[i - 1], boundaries[i]]`.

    Args:
        boundaries: Increasing step boundaries.
        values: Rates, one more than `boundaries`.
        name: Defaults to `"PiecewiseConstant"`.

    Example:

    >>> schedule = PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [round(float(schedule(s)), 6) for s in (10, 11, 21)]
    [1.0, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length "
                f"of values. Received: boundaries={boundaries} of length "
                f"{len(boundaries)}, and values={values} of length "
                f"{len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step):
        values = [as_float(v) for v in self.values]
        step = np.asarray(getattr(step, "_value", step))
        bounds = [cast(b, step.dtype) for b in self.boundaries]
        dtype = values[0].dtype
        if step <= bounds[0]:
            return result(values[0].astype(dtype))
        if step > bounds[-1]:
            return result(values[-1].astype(dtype))
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
            if low < step <= high:
                return result(value.astype(dtype))
        return result(np.zeros((), dtype))

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values,
                "name": self.name}


@builtin(MODULE)
class PolynomialDecay(LearningRateSchedule):
    """Polynomial decay from `initial_learning_rate` to
    `end_learning_rate` over `decay_steps` steps.

        (initial - end) * (1 - step / decay_steps) ** power + end

    With `cycle=True` the decay restarts with a longer period
    (`decay_steps * ceil(step / decay_steps)`) instead of staying at the end
    rate.

    Args:
        initial_learning_rate: Float, the rate at step 0.
        decay_steps: Positive number of steps to decay over.
        end_learning_rate: The final rate. Defaults to 0.0001.
        power: The polynomial's power. Defaults to 1.0.
        cycle: Restart past `decay_steps`. Defaults to False.
        name: Defaults to `"PolynomialDecay"`.

    Example:

    >>> schedule = PolynomialDecay(0.1, decay_steps=10, end_learning_rate=0.0)
    >>> round(float(schedule(5)), 6)
    0.05
    """

    def __init__(self, initial_learning_rate, decay_steps,
                 end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        check_decay_steps(decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate, self.power = end_learning_rate, power
        self.cycle, self.name = cycle, name

    def __call__(self, step):
        lr = as_float(self.initial_learning_rate)
        dtype = lr.dtype
        end = cast(self.end_learning_rate, dtype)
        step = cast(step, dtype)
        decay_steps = cast(self.decay_steps, dtype)
        if self.cycle:
            multiplier = np.asarray(1.0, dtype) if step == 0 else \
                np.ceil(step / np.asarray(self.decay_steps, dtype))
            decay_steps = decay_steps * multiplier
        else:
            step = np.minimum(step, decay_steps)
        p = step / decay_steps
        return result((lr - end) * np.power(1 - p, cast(self.power, dtype))
                      + end)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}
