"""`LearningRateSchedule`: a learning rate as a function of the step."""
from kerasish.saving import serialization_lib

_MODULE = "keras.optimizers.schedules"


class LearningRateSchedule:
    """Base class: `schedule(step) -> learning rate` (a float or array)."""

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
        return cls(**config)


def serialize(learning_rate_schedule):
    return serialization_lib.serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    from kerasish.saving.object_registration import builtins_of
    return serialization_lib.deserialize_keras_object(
        config, custom_objects=custom_objects,
        module_objects=builtins_of(_MODULE))
