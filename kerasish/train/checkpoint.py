"""Checkpoints of a session's model: `Saver`, `latest_checkpoint`,
`get_checkpoint_state`, `checkpoint_exists`.

A checkpoint `<dir>/model.ckpt-<step>` is the file
`model.ckpt-<step>.weights.h5` in Keras 3's weights layout (weights and
optimizer state, so the global step too; `model.load_weights` reads it).
As in TF1, `<dir>/checkpoint` lists the checkpoints in text form and
names the latest one; paths in it are relative to `<dir>`.
"""
import logging
import os
import re
import time

from kerasish.saving.file_utils import atomic_path
from kerasish.saving import saving_lib

logger = logging.getLogger("kerasish.train")

SUFFIX = ".weights.h5"
STATE_FILE = "checkpoint"


def _model_of(session):
    return getattr(session, "model", session)


def _quote(path):
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_checkpoint_state(checkpoint_dir, latest_filename=None):
    """`(latest, [all])` prefixes from `<dir>/checkpoint`, or `(None, [])`."""
    path = os.path.join(checkpoint_dir, latest_filename or STATE_FILE)
    if not os.path.exists(path):
        return None, []
    latest, paths = None, []
    with open(path) as f:
        for line in f:
            match = re.match(r'\s*(\w+):\s*"(.*)"\s*$', line)
            if not match:
                continue
            value = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
            if not os.path.isabs(value):
                value = os.path.join(checkpoint_dir, value)
            if match.group(1) == "model_checkpoint_path":
                latest = value
            else:
                paths.append(value)
    return latest, paths


def write_checkpoint_state(checkpoint_dir, latest, paths):
    lines = [f"model_checkpoint_path: "
             f"{_quote(os.path.relpath(latest, checkpoint_dir))}"]
    lines += [f"all_model_checkpoint_paths: "
              f"{_quote(os.path.relpath(p, checkpoint_dir))}" for p in paths]
    with atomic_path(os.path.join(checkpoint_dir, STATE_FILE)) as tmp:
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")


def latest_checkpoint(checkpoint_dir):
    """Prefix of the newest checkpoint in `checkpoint_dir`, or `None`.

    Example:

    >>> import tempfile
    >>> latest_checkpoint(tempfile.mkdtemp()) is None
    True
    """
    latest, _ = read_checkpoint_state(checkpoint_dir)
    if latest is not None and os.path.exists(latest + SUFFIX):
        return latest
    return None


def checkpoint_exists(checkpoint_prefix):
    """Whether a checkpoint was written at `checkpoint_prefix` (as TF's
    `tf.compat.v1.train.checkpoint_exists`).

    Example:

    >>> checkpoint_exists("/no/such/model.ckpt-0")
    False
    """
    return checkpoint_prefix is not None and \
        os.path.exists(str(checkpoint_prefix) + SUFFIX)


class CheckpointState:
    """What `<dir>/checkpoint` says (TF's `CheckpointState` message).

    Attributes:
        model_checkpoint_path: Prefix of the newest checkpoint.
        all_model_checkpoint_paths: Prefixes of the kept checkpoints,
            oldest first (the newest last).
    """

    def __init__(self, model_checkpoint_path, all_model_checkpoint_paths):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and \
            str(self) == str(other)

    def __str__(self):
        lines = [f"model_checkpoint_path: "
                 f"{_quote(self.model_checkpoint_path)}"]
        lines += [f"all_model_checkpoint_paths: {_quote(p)}"
                  for p in self.all_model_checkpoint_paths]
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The `CheckpointState` of `checkpoint_dir`, or `None` without one.

    As TF, paths relative to the folder are made absolute by joining them
    to `checkpoint_dir`, and a state file naming no checkpoint is an error.

    Args:
        checkpoint_dir: The folder of the checkpoints.
        latest_filename: Name of the state file (default `"checkpoint"`).

    Example:

    >>> import tempfile
    >>> get_checkpoint_state(tempfile.mkdtemp()) is None
    True
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    path = os.path.join(checkpoint_dir, latest_filename or STATE_FILE)
    if not os.path.exists(path):
        return None
    latest, paths = read_checkpoint_state(checkpoint_dir, latest_filename)
    if latest is None:
        raise ValueError(f"Invalid checkpoint state loaded from {path}: it "
                         "names no `model_checkpoint_path`.")
    return CheckpointState(latest, paths)


def _is_own_checkpoint(prefix, newest):
    """Whether rotation may delete `prefix`'s file: a regular file (not a
    link) named as this saver names checkpoints (`<stem>-<step>`), in the
    folder of its newest one. The `checkpoint` index is read from disk, so
    a hostile or stale entry (`../x`, an absolute path) must not make
    pruning delete files elsewhere.
    """
    folder = os.path.realpath(os.path.dirname(os.path.abspath(newest)))
    path = os.path.abspath(prefix + SUFFIX)
    stem = re.sub(r"-\d+$", "", os.path.basename(newest))
    return (os.path.realpath(os.path.dirname(path)) == folder
            and re.fullmatch(re.escape(stem) + r"(-\d+)?" +
                             re.escape(SUFFIX), os.path.basename(path))
            is not None
            and not os.path.islink(path) and os.path.isfile(path))


class Saver:
    """Save and restore checkpoints of a session's model.

    Args:
        max_to_keep: Newest checkpoints kept (older files are deleted);
            `None` or 0 keeps all. Defaults to 5.
        keep_checkpoint_every_n_hours: Also keep one checkpoint per this
            many hours, whatever `max_to_keep` says.

    Example:

    >>> import os, tempfile
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> prefix = Saver().save(model, os.path.join(tempfile.mkdtemp(),
    ...                                           "model.ckpt"), global_step=0)
    >>> os.path.basename(prefix)
    'model.ckpt-0'
    """

    def __init__(self, max_to_keep=5, keep_checkpoint_every_n_hours=10000.0):
        self.max_to_keep = max_to_keep
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._last = []
        self._next_keep_time = time.time() + \
            keep_checkpoint_every_n_hours * 3600

    @property
    def last_checkpoints(self):
        """Prefixes this saver keeps, oldest first."""
        return list(self._last)

    def save(self, sess, save_path, global_step=None, write_state=True):
        """Write a checkpoint of `sess`'s model (a session or a model).

        Returns:
            The checkpoint prefix (`save_path-<global_step>`).
        """
        model = _model_of(sess)
        if global_step is not None:
            if not isinstance(global_step, int):
                global_step = int(global_step.numpy()) \
                    if hasattr(global_step, "numpy") else int(global_step)
            save_path = f"{save_path}-{global_step}"
        folder = os.path.dirname(os.path.abspath(save_path))
        os.makedirs(folder, exist_ok=True)
        saving_lib.save_weights(model, save_path + SUFFIX)
        self._record(folder, save_path, write_state)
        return save_path

    def _record(self, folder, save_path, write_state):
        """As TF's Saver: with `write_state`, keep `save_path` in the list
        (unless `max_to_keep` is 0/None), delete what falls out of it and
        write the `checkpoint` file; without, only the files are written.
        """
        if not write_state:
            return
        if not self.max_to_keep:
            write_checkpoint_state(folder, save_path, [save_path])
            return
        previous = list(self._last)
        self._last = [p for p in self._last if p != save_path] + [save_path]
        dropped = self._drop_old()
        # The index is replaced (by rename) only after the file it names is
        # in place, and old files are deleted only after the new index no
        # longer names them: killed anywhere, the index lists files that
        # exist.
        try:
            write_checkpoint_state(folder, save_path, self._last)
        except OSError:
            # E.g. a full disk: back to the state the index still describes.
            self._last = previous
            if save_path not in previous:
                os.remove(save_path + SUFFIX)
            raise
        for old in dropped:
            # Only the saver's own files in its folder, whatever the index
            # listed (`../x` or an absolute path deletes nothing).
            if _is_own_checkpoint(old, save_path) and \
                    os.path.exists(old + SUFFIX):
                os.remove(old + SUFFIX)

    def recover_last_checkpoints(self, checkpoint_paths):
        """Take over the checkpoints an earlier saver kept (those whose
        files still exist), as a restoring session does (TF's)."""
        self._last = [p for p in checkpoint_paths if checkpoint_exists(p)]

    def _drop_old(self):
        """Take the checkpoints beyond `max_to_keep` off the list; returns
        those whose files are to be deleted (not the hourly keepers)."""
        dropped = []
        while len(self._last) > self.max_to_keep:
            old = self._last.pop(0)
            if time.time() >= self._next_keep_time:
                self._next_keep_time += \
                    self.keep_checkpoint_every_n_hours * 3600
                continue
            dropped.append(old)
        return dropped

    def restore(self, sess, save_path):
        """Load the checkpoint `save_path` (a prefix) into the model."""
        model = _model_of(sess)
        path = save_path if save_path.endswith(SUFFIX) else save_path + SUFFIX
        if not os.path.exists(path):
            raise ValueError(f"The passed save_path is not a valid "
                             f"checkpoint: {save_path}")
        logger.info("Restoring parameters from %s", save_path)
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None and not optimizer.built:
            optimizer.build(model.trainable_variables)
        model.load_weights(path)
