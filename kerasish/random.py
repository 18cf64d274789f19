"""`kerasish.random`: `keras.random` draws and `SeedGenerator`."""
from kerasish.backend.random import (SeedGenerator, normal, uniform,  # noqa
                                     truncated_normal, randint, shuffle,
                                     dropout, categorical, gamma, binomial,
                                     beta)
