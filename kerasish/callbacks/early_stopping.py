"""`EarlyStopping`: stop training when a monitored value stops improving."""
import warnings

from kerasish.callbacks.monitor_callback import MonitorCallback
from kerasish.saving.object_registration import builtin


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

    Example: with `patience=3` on a loss that never improves, training
    runs exactly 4 epochs.

    >>> cb = EarlyStopping(monitor="loss", patience=3)
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
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best "
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
