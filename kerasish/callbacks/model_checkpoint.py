"""`ModelCheckpoint`: save the model or its weights during training."""
import os
import warnings

import numpy as np

from kerasish.callbacks.monitor_callback import MonitorCallback
from kerasish.saving.object_registration import builtin


@builtin("keras.callbacks")
class ModelCheckpoint(MonitorCallback):
    """Save the model (or weights) every epoch or every `save_freq` batches.

    Args:
        filepath: Path, may contain `{epoch:02d}` (1-based), `{batch}` and
            any log key such as `{val_loss:.2f}`. `.weights.h5` when
            `save_weights_only`, else `.keras` or `.h5`.
        monitor: Log key compared when `save_best_only`.
        verbose: 1 prints a message at each save decision.
        save_best_only: Save only when `monitor` improves.
        save_weights_only: Save weights only (`model.save_weights`).
        mode: `"auto"`, `"min"` or `"max"`.
        save_freq: `"epoch"` or an int number of batches (counted across
            epoch boundaries).
        initial_value_threshold: Starting `best` for `save_best_only`.
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0,
                 save_best_only=False, save_weights_only=False, mode="auto",
                 save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                "'epoch' or integer values")
        self._check_extension()

    def _check_extension(self):
        if self.save_weights_only:
            if not self.filepath.endswith(".weights.h5"):
                raise ValueError(
                    "When using `save_weights_only=True` in `ModelCheckpoint`"
                    ", the filepath provided must end in `.weights.h5` "
                    f"(Keras weights format). Received: "
                    f"filepath={self.filepath}")
        elif not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model "
                f"format). Received: filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            # Resolved here too: Keras crashes when save_best_only meets an
            # int save_freq because it only resolves at epoch end.
            if self.monitor_op is None:
                self._set_monitor_op()
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            added = batch + 1
        else:
            added = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _should_save_model(self, epoch, logs, filepath):
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Can save best model only with {self.monitor} available.",
                stacklevel=2)
            return True
        if isinstance(current, np.ndarray) and current.ndim > 0:
            warnings.warn(
                "Can save best model only when `monitor` is a scalar value. "
                f"Received: {current}. Falling back to "
                "`save_best_only=False`.")
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from "
                      f"{best} to {current:.5f}, saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve "
                  f"from {best}")
        return False

    def _save_model(self, epoch, batch, logs):
        logs = logs or {}
        filepath = self._get_file_path(epoch, batch, logs)
        if os.path.isdir(filepath):
            raise IOError(
                "Please specify a non-directory filepath for ModelCheckpoint. "
                f"Filepath used is an existing directory: {filepath}")
        if not self._should_save_model(epoch, logs, filepath):
            return
        dirname = os.path.dirname(filepath)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1,
                                        **logs)
        except KeyError as e:
            raise KeyError(
                f'Failed to format this callback filepath: "{self.filepath}".'
                f" Reason: {e}") from None
