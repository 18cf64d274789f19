"""`kerasish.optimizers.schedules`: learning-rate schedules."""
from kerasish.optimizers.schedules.learning_rate_schedule import (  # noqa
    LearningRateSchedule, serialize, deserialize)
from kerasish.optimizers.schedules.decay import (  # noqa: F401
    ExponentialDecay, InverseTimeDecay, PiecewiseConstantDecay,
    PolynomialDecay)
from kerasish.optimizers.schedules.cosine import (  # noqa: F401
    CosineDecay, CosineDecayRestarts)
