"""`LearningRateScheduler`: set the learning rate at each epoch start."""
import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.callbacks.reduce_lr_on_plateau import (
    current_lr, log_learning_rates, rate_owners)
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import print_msg


@builtin("keras.callbacks")
class LearningRateScheduler(Callback):
    """Set `optimizer.learning_rate = schedule(epoch, lr)` every epoch.

    `schedule` takes the 0-based epoch and the current rate (a schedule
    taking only the epoch also works) and returns a float. Epoch ends add
    `logs["learning_rate"]`. With a `MultiOptimizer`, each inner optimizer
    is scheduled from its own rate and logged as `learning_rate_<name>`.

    Args:
        schedule: Function `(epoch, lr) -> float` or `(epoch) -> float`.
        verbose: 1 prints the rate set at each epoch.

    A `BackupAndRestore` resume in the middle of an epoch calls
    `on_epoch_begin` again; the rate the schedule received is part of the
    backup, so a schedule such as `lr * 0.9` is not applied twice.

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile(keras.optimizers.SGD(0.1), "mse")
    >>> cb = keras.callbacks.LearningRateScheduler(lambda e, lr: lr / 2)
    >>> h = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2,
    ...               callbacks=[cb], verbose=0)
    >>> [round(v, 4) for v in h.history["learning_rate"]]
    [0.05, 0.025]
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose
        self._lr_in = None
        self._resume = None

    def _rates_in(self, epoch, owners):
        for _, optimizer in owners:
            if not hasattr(optimizer, "learning_rate"):
                raise ValueError('Optimizer must have a "learning_rate" '
                                 'attribute.')
        rates = [current_lr(optimizer) for _, optimizer in owners]
        resume, self._resume = self._resume, None
        if resume is not None and resume[0] == epoch:
            saved = resume[1]
            rates = list(saved) if isinstance(saved, (list, tuple)) \
                else [saved]
        self._lr_in = (epoch, rates)
        return rates

    def _scheduled(self, epoch, lr):
        try:
            learning_rate = self.schedule(epoch, lr)
        except TypeError:
            learning_rate = self.schedule(epoch)
        if not isinstance(learning_rate, (float, np.float32, np.float64)):
            raise ValueError(
                "The output of the `schedule` function should be a float. "
                f"Got: {learning_rate}")
        return learning_rate

    def on_epoch_begin(self, epoch, logs=None):
        # A MultiOptimizer's inner optimizers are scheduled one by one.
        owners = rate_owners(self.model.optimizer)
        for (name, optimizer), lr in zip(owners,
                                         self._rates_in(epoch, owners)):
            learning_rate = self._scheduled(epoch, lr)
            optimizer.learning_rate = learning_rate
            if self.verbose > 0:
                which = f" {name}" if name else ""
                print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler "
                          f"setting{which} learning rate to "
                          f"{learning_rate}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            log_learning_rates(self.model.optimizer, logs)

    def get_state(self):
        return {"lr_in": list(self._lr_in) if self._lr_in else None}

    def set_state(self, state):
        self._resume = tuple(state["lr_in"]) if state["lr_in"] else None
