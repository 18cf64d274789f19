"""`ReduceLROnPlateau`: lower the learning rate when a metric stalls."""
import warnings

import numpy as np

from kerasish.callbacks.monitor_callback import MonitorCallback
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import print_msg


def current_lr(optimizer):
    """The optimizer's learning rate as a Python float."""
    lr = optimizer.learning_rate
    return float(np.asarray(getattr(lr, "_value", lr)))


def rate_owners(optimizer):
    """`(name, optimizer)` pairs whose learning rates the callbacks read
    and set: each inner optimizer of a `MultiOptimizer` (which has no rate
    of its own), else `(None, optimizer)`."""
    inner = getattr(optimizer, "optimizers", None)
    if inner is None:
        return [(None, optimizer)]
    return [(opt.name, opt) for opt in inner]


def log_learning_rates(optimizer, logs):
    """Add `learning_rate` (or Keras's `learning_rate_<name>` per inner
    optimizer of a `MultiOptimizer`) to `logs`."""
    for name, opt in rate_owners(optimizer):
        key = "learning_rate" if name is None else f"learning_rate_{name}"
        logs[key] = current_lr(opt)
    return logs


@builtin("keras.callbacks")
class ReduceLROnPlateau(MonitorCallback):
    """Multiply the learning rate by `factor` when `monitor` plateaus.

    Every epoch end first writes the epoch's learning rate into the logs
    (`logs["learning_rate"]`, so History and CSVLogger record it; with a
    `MultiOptimizer`, `learning_rate_<name>` for each inner optimizer, all
    of which are reduced together). After
    `patience` epochs without an improvement of at least `min_delta`, the
    rate becomes `max(lr * factor, min_lr)` and `cooldown` epochs pass
    before waiting starts again.

    Args:
        monitor: Log key to watch. Defaults to `"val_loss"`.
        factor: Multiplier, `< 1.0` (default 0.1).
        patience: Epochs without improvement before reducing (default 10).
        verbose: 1 prints each reduction.
        mode: `"auto"`, `"min"` or `"max"`.
        min_delta: Smallest change counted as improvement (default 1e-4).
        cooldown: Epochs to wait after a reduction (default 0).
        min_lr: Lower bound of the learning rate (default 0).

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile(keras.optimizers.SGD(0.0), "mse")
    >>> cb = keras.callbacks.ReduceLROnPlateau("loss", factor=0.5,
    ...                                        patience=1)
    >>> h = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=3,
    ...               callbacks=[cb], verbose=0)
    >>> h.history["learning_rate"]
    [0.0, 0.0, 0.0]
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10,
                 verbose=0, mode="auto", min_delta=1e-4, cooldown=0,
                 min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(
                "ReduceLROnPlateau does not support a factor >= 1.0. "
                f"Received factor={factor}")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def _reset(self):
        self.best = None
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        log_learning_rates(self.model.optimizer, logs)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                "Learning rate reduction is conditioned on metric "
                f"`{self.monitor}` which is not available. Available metrics "
                f"are: {','.join(list(logs.keys()))}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce_all(epoch):
                self.cooldown_counter = self.cooldown
                self.wait = 0

    def _reduce_all(self, epoch):
        # Every optimizer is tried (no short-circuit): each reduces unless
        # it is already at `min_lr`.
        reduced = [self._reduce(epoch, name, opt)
                   for name, opt in rate_owners(self.model.optimizer)]
        return any(reduced)

    def _reduce(self, epoch, name, optimizer):
        old_lr = current_lr(optimizer)
        if not old_lr > np.float32(self.min_lr):
            return False
        new_lr = max(old_lr * self.factor, self.min_lr)
        optimizer.learning_rate = new_lr
        if self.verbose > 0:
            which = f" {name}" if name else ""
            print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing"
                      f"{which} learning rate to {new_lr}.")
        return True

    def get_state(self):
        return {"best": self.best, "wait": self.wait,
                "cooldown_counter": self.cooldown_counter}

    def set_state(self, state):
        self.best = state["best"]
        self.wait = state["wait"]
        self.cooldown_counter = state["cooldown_counter"]
