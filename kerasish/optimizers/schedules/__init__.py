"""`kerasish.optimizers.schedules`: learning-rate schedules."""
from kerasish.optimizers.schedules.learning_rate_schedule import (  # noqa
    LearningRateSchedule, serialize, deserialize)
