"""`BackupAndRestore`: resume an interrupted `fit` exactly where it was."""
import json
import os
import shutil

from kerasish.callbacks.callback import Callback
from kerasish.callbacks import training_state
from kerasish.saving.object_registration import builtin

_STATE_GROUP = "kerasish_training_state"


@builtin("keras.callbacks")
class BackupAndRestore(Callback):
    """Back up the training state so a killed `fit` can resume.

    Rerun the same script after a crash, a kill or a preemption and `fit`
    continues from the last backup. Unlike Keras (which restarts the
    interrupted epoch), kerasish resumes **bit-exactly from the batch**
    after the backup: the backup holds the weights and optimizer state
    (`<backup_dir>/latest.weights.h5`, Keras's layout, loadable with
    `load_weights`) plus the metrics' running state, History and other
    callbacks' state, every random generator (kerasish's global one, each
    layer's `SeedGenerator`, numpy's and Python's), the data order and
    the epoch/batch position. The final weights, optimizer state and
    History equal those of an uninterrupted run, byte for byte.
    `<backup_dir>/training_metadata.json` holds Keras's
    `{"epoch": ..., "batch": ...}`. A backup written by Keras (weights and
    metadata only) is resumed at the epoch granularity Keras uses.

    Each backup is one file written atomically, so a kill during a save
    leaves the previous backup intact. Ctrl-C during `fit` writes a backup
    of the current batch and keeps the directory.

    Args:
        backup_dir: Folder for the backup files (created if missing).
        save_freq: `"epoch"` (default) or an int: back up every that many
            batches (counted across epochs). `False`: no regular backups,
            only on an interruption (Keras's preemption-only setting).
        double_checkpoint: Also keep the previous backup as `*.bkp`, used
            if the latest one cannot be read.
        delete_checkpoint: Delete `backup_dir` when training finishes
            (default `True`); kept after an exception or Ctrl-C.

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> folder = os.path.join(tempfile.mkdtemp(), "backup")
    >>> cb = keras.callbacks.BackupAndRestore(folder, save_freq=2,
    ...                                       delete_checkpoint=False)
    >>> _ = model.fit(np.ones((8, 3)), np.ones((8, 1)), batch_size=2,
    ...               epochs=2, callbacks=[cb], verbose=0)
    >>> sorted(os.listdir(folder))
    ['latest.weights.h5', 'training_metadata.json']
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and save_freq is not False and (
                not isinstance(save_freq, int) or
                isinstance(save_freq, bool)):
            raise ValueError(
                "Invalid value for argument `save_freq`. "
                f"Received: save_freq={save_freq}. "
                "Expected either 'epoch', an integer value or False.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir,
                                          "latest.weights.h5")
        self._training_metadata_path = os.path.join(
            self.backup_dir, "training_metadata.json")
        self._prev_weights_path = self._weights_path + ".bkp"
        self._prev_training_metadata_path = \
            self._training_metadata_path + ".bkp"
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        self._keep = False

    # -- restore ------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._keep = False
        if not self.model.built:
            raise ValueError(
                "To use the BackupAndRestore callback, you model must be "
                "built before you call `fit()`. "
                f"Model {self.model} is unbuilt. You can build it "
                "beforehand by calling it on a batch of data.")
        try:
            self._load()
        except (OSError, ValueError, KeyError) as error:
            if not os.path.exists(self._prev_weights_path):
                raise error
            shutil.copyfile(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_training_metadata_path):
                shutil.copyfile(self._prev_training_metadata_path,
                                self._training_metadata_path)
            self._load()

    def _load(self):
        if not os.path.exists(self._weights_path):
            return
        import h5py  # lazy: kept out of `import kerasish`
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_lib
        model = self.model
        if model.optimizer is not None and not model.optimizer.built:
            model.optimizer.build(model.trainable_variables)
        try:
            f = h5py.File(self._weights_path, "r")
        except OSError as e:
            raise OSError(f"Cannot read the backup {self._weights_path!r}: "
                          f"{e}") from None
        with f:
            saving_lib.read_weights(model, f, source=self._weights_path)
            state = (training_state.read_state(f[_STATE_GROUP])
                     if _STATE_GROUP in f else None)
        self._restore(state)

    def _restore(self, state):
        fit_state = getattr(self.model, "_fit_state", None)
        if state is not None and fit_state is not None:
            position = state["position"]
            self._current_epoch = position["epoch"]
            self._last_batch_seen = max(position["step"] - 1, 0)
            fit_state.schedule_restore(state)
            return
        # A Keras-written backup: resume at the epoch it recorded.
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as f:
                metadata = json.load(f)
            self._current_epoch = metadata["epoch"]
            self.model._initial_epoch = metadata["epoch"]

    # -- backup -------------------------------------------------------------
    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._request_save()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._request_save()

    def on_train_interrupted(self, epoch, batch, logs=None):
        self._keep = True
        self._last_batch_seen = batch
        self._request_save()

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch" or self.save_freq is False:
            return False
        if batch <= self._last_batch_seen:
            added = batch + 1
        else:
            added = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _request_save(self):
        fit_state = getattr(self.model, "_fit_state", None)
        if fit_state is None:
            self._save(None)
        else:
            # After every callback has seen this event (History included).
            fit_state.defer(lambda: self._save(fit_state))

    def _save(self, fit_state):
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_lib
        # lazy: kept out of `import kerasish`
        from kerasish.saving.file_utils import atomic_h5, write_bytes
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            self._copy_previous()
        with atomic_h5(self._weights_path) as f:
            saving_lib.write_weights(self.model, f)
            if fit_state is not None:
                training_state.write_state(
                    f.create_group(_STATE_GROUP), fit_state.capture())
        metadata = {"epoch": self._current_epoch,
                    "batch": self._last_batch_seen}
        write_bytes(self._training_metadata_path,
                    json.dumps(metadata).encode())

    def _copy_previous(self):
        # lazy: kept out of `import kerasish`
        from kerasish.saving.file_utils import atomic_path
        pairs = [(self._weights_path, self._prev_weights_path),
                 (self._training_metadata_path,
                  self._prev_training_metadata_path)]
        for source, target in pairs:
            if os.path.exists(source):
                with atomic_path(target) as tmp:
                    shutil.copyfile(source, tmp)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and not self._keep and \
                os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)

    # -- state ----------------------------------------------------------------
    def get_state(self):
        return {"batches_seen": self._batches_seen_since_last_saving,
                "last_batch": self._last_batch_seen}

    def set_state(self, state):
        self._batches_seen_since_last_saving = state["batches_seen"]
        self._last_batch_seen = state["last_batch"]
