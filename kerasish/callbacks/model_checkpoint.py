"""`ModelCheckpoint`: save the model or its weights during training."""
import os
import warnings

import numpy as np

from kerasish.callbacks.monitor_callback import MonitorCallback
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import print_msg


def _is_legacy_h5(filepath):
    return filepath.endswith((".h5", ".hdf5")) and \
        not filepath.endswith(".weights.h5")


def _write(model, filepath, weights_only):
    if not weights_only:
        model.save(filepath, overwrite=True)
    elif not _is_legacy_h5(filepath):
        model.save_weights(filepath, overwrite=True)
    else:
        _save_legacy_weights(model, filepath)


def _save_legacy_weights(model, filepath):
    """Weights in the legacy (Keras 2) HDF5 layout that `load_weights`
    reads for `.h5` paths; a full legacy model file if the saving package
    has no weights-only writer."""
    # lazy: kept out of `import kerasish`
    from kerasish.saving import legacy_h5
    writer = getattr(legacy_h5, "save_weights_to_hdf5_group", None)
    if writer is None:
        model.save(filepath, overwrite=True)
        return
    # lazy: kept out of `import kerasish`
    from kerasish.saving.file_utils import atomic_h5
    with atomic_h5(filepath) as f:
        writer(f, model)


@builtin("keras.callbacks")
class ModelCheckpoint(MonitorCallback):
    """Save the model (or weights) every epoch or every `save_freq` batches.

    Args:
        filepath: Path, may contain `{epoch:02d}` (1-based), `{batch}`
            (1-based, batch saves only) and any log key such as
            `{val_loss:.2f}`. `.weights.h5` when `save_weights_only`, else
            `.keras`; kerasish also accepts `.h5`/`.hdf5` (Keras raises):
            a full model is saved in the legacy HDF5 format, weights in the
            legacy HDF5 weights layout, both readable by `load_weights`.
        monitor: Log key compared when `save_best_only`.
        verbose: 1 prints a message at each save decision.
        save_best_only: Save only when `monitor` improves.
        save_weights_only: Save weights only (`model.save_weights`).
        mode: `"auto"`, `"min"` or `"max"` (see `MonitorCallback`).
        save_freq: `"epoch"` or an int number of batches (counted across
            epoch boundaries: 5 batches per epoch with `save_freq=3` saves
            after epoch 1 batch 3, epoch 2 batch 1, epoch 2 batch 4).
        initial_value_threshold: Starting `best` for `save_best_only`.
        max_to_keep: kerasish extension: keep only the newest
            `max_to_keep` files this callback wrote (deleting older ones;
            with `save_best_only` the newest are the best). Default `None`
            keeps all.

    Decisions where Keras misbehaves: with `save_best_only=True` and an int
    `save_freq`, Keras crashes on the second batch save (its comparison is
    only set up at epoch end); kerasish compares the running batch logs.
    When Ctrl-C stops `fit`, the model is saved as at an epoch end, from
    the interrupted batch's logs (with `save_best_only`, only if the
    monitored value is in them and improved).

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "e{epoch:02d}.weights.h5")
    >>> cb = keras.callbacks.ModelCheckpoint(path, save_weights_only=True,
    ...                                      max_to_keep=2)
    >>> _ = model.fit(np.ones((4, 3)), np.ones((4, 1)), epochs=3,
    ...               callbacks=[cb], verbose=0)
    >>> sorted(os.listdir(folder))
    ['e02.weights.h5', 'e03.weights.h5']
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0,
                 save_best_only=False, save_weights_only=False, mode="auto",
                 save_freq="epoch", initial_value_threshold=None,
                 max_to_keep=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0
        if max_to_keep is not None and (not isinstance(max_to_keep, int)
                                        or max_to_keep < 1):
            raise ValueError("`max_to_keep` must be a positive int or None. "
                             f"Received: max_to_keep={max_to_keep!r}")
        self.max_to_keep = max_to_keep
        self._saved_files = []
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                "'epoch' or integer values")
        self._check_extension()

    def _check_extension(self):
        if _is_legacy_h5(self.filepath):
            return
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

    def on_train_interrupted(self, epoch, batch, logs=None):
        logs = logs or {}
        if self.save_best_only and self.monitor not in logs:
            return
        if self.monitor_op is None:
            self._set_monitor_op()
        try:
            self._get_file_path(epoch, None, logs)
        except KeyError as e:
            print_msg(f"\nEpoch {epoch + 1}: interrupted; not saving a "
                      f"checkpoint ({e.args[0]})")
            return
        self._save_model(epoch, None, logs)

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
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
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
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved "
                          f"from {best} to {current:.5f}, saving model to "
                          f"{filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve "
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
        _write(self.model, filepath, self.save_weights_only)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: finished saving model to "
                      f"{filepath}")
        self._retain(filepath)

    def _retain(self, filepath):
        if filepath in self._saved_files:
            self._saved_files.remove(filepath)
        self._saved_files.append(filepath)
        if self.max_to_keep is None:
            return
        while len(self._saved_files) > self.max_to_keep:
            old = self._saved_files.pop(0)
            if os.path.exists(old):
                os.remove(old)

    # -- state (BackupAndRestore resumes it) ----------------------------------
    def get_state(self):
        return {"best": self.best, "epoch": self._current_epoch,
                "batches_seen": self._batches_seen_since_last_saving,
                "last_batch": self._last_batch_seen,
                "saved_files": list(self._saved_files)}

    def set_state(self, state):
        self.best = state["best"]
        self._current_epoch = state["epoch"]
        self._batches_seen_since_last_saving = state["batches_seen"]
        self._last_batch_seen = state["last_batch"]
        self._saved_files = list(state["saved_files"])

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
