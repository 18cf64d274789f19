"""`LearningRateSchedule`: a learning rate as a function of the step.

Schedules compute in floatx with numpy, in Keras's order of operations
(float32 results match Keras's), and return a 0-d `Tensor`.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend.tensor import Tensor
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtins_of

MODULE = "keras.optimizers.schedules"


class LearningRateSchedule:
    """Base class: `schedule(step) -> learning rate`.

    Subclasses implement `__call__(step)` and `get_config()`; pass an
    instance as an optimizer's `learning_rate` and it is evaluated at the
    optimizer's `iterations` every step.

    Example:

    >>> class Halving(LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 0.1 * 0.5 ** (int(step) // 10)
    ...     def get_config(self):
    ...         return {}
    >>> Halving()(25)
    0.025
    """

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override "
            "`__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override "
            "`get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        """Instantiate from `get_config()` output."""
        return cls(**config)


def as_float(value):
    """The initial rate as Keras's `convert_to_tensor` gives it: a Python
    number (or an integer array) in floatx, a float array as it is."""
    python_number = isinstance(value, (int, float))
    value = np.asarray(getattr(value, "_value", value))
    if python_number or value.dtype.kind != "f":
        value = value.astype(config.floatx())
    return value


def cast(value, dtype):
    return np.asarray(getattr(value, "_value", value)).astype(dtype)


def result(value):
    return Tensor(np.asarray(value))


def check_decay_steps(value, name="decay_steps"):
    if value <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: "
                         f"{name}={value}")


def serialize(learning_rate_schedule):
    """Serialize a schedule to Keras's config format.

    Example:

    >>> from kerasish.optimizers.schedules import ExponentialDecay
    >>> serialize(ExponentialDecay(0.1, 10, 0.5))["class_name"]
    'ExponentialDecay'
    """
    return serialization_lib.serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """Rebuild a schedule from `serialize`'s output.

    Example:

    >>> from kerasish.optimizers.schedules import ExponentialDecay
    >>> deserialize(serialize(ExponentialDecay(0.1, 10, 0.5))).decay_steps
    10
    """
    return serialization_lib.deserialize_keras_object(
        config, custom_objects=custom_objects,
        module_objects=builtins_of(MODULE))
