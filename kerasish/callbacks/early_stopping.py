"""`EarlyStopping`: stop training when a monitored value stops improving."""
import warnings

from kerasish.callbacks.monitor_callback import MonitorCallback
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import print_msg


@builtin("keras.callbacks")
class EarlyStopping(MonitorCallback):
    """Stop when `monitor` has not improved for `patience` epochs.

    Args:
        monitor: Log key to watch. Defaults to `"val_loss"`.
        min_delta: Smallest change that counts as an improvement.
        patience: Epochs without improvement before stopping (default 0).
        verbose: 1 prints when stopping and restoring.
        mode: `"auto"`, `"min"` or `"max"`.
        baseline: Training stops if the value does not beat it.
        restore_best_weights: Restore the best epoch's weights when
            training ends (whether or not it stopped early).
        start_from_epoch: Epochs to wait before monitoring starts.

    Training never stops at the first monitored epoch: `patience=0` stops at
    the first epoch that does not improve, `patience=p` after `p` of them.
    With `restore_best_weights`, the best epoch's weights come back in
    `on_train_end` even when training ran to the end (Keras 3's behaviour).

    `baseline`: Keras documents that training stops if the model does not
    improve over the baseline, but an epoch that improves on the best so
    far (without reaching the baseline) returns before its patience check,
    so a slowly improving metric that never reaches the baseline never
    stops. kerasish follows the documentation: epochs that do not beat the
    baseline count toward `patience` even when they improve the best.

    Example: with `patience=3` on a loss that never improves, training
    runs exactly 4 epochs.

    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile(keras.optimizers.SGD(0.0), "mse")
    >>> cb = keras.callbacks.EarlyStopping(monitor="loss", patience=3)
    >>> h = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=10,
    ...               callbacks=[cb], verbose=0)
    >>> len(h.epoch)
    4
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0,
                 verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.best_epoch = 0
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current,
                                                             self.baseline):
                self.wait = 0
                return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg("Restoring model weights from the end of the best "
                          f"epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(
                f"Early stopping conditioned on metric `{self.monitor}` which "
                "is not available. Available metrics are: "
                f"{','.join(list(logs.keys()))}", stacklevel=2)
        return value

    def get_state(self):
        return {"wait": self.wait, "stopped_epoch": self.stopped_epoch,
                "best": self.best, "best_epoch": self.best_epoch,
                "best_weights": self.best_weights}

    def set_state(self, state):
        self.wait = state["wait"]
        self.stopped_epoch = state["stopped_epoch"]
        self.best = state["best"]
        self.best_epoch = state["best_epoch"]
        weights = state["best_weights"]
        self.best_weights = None if weights is None else list(weights)
