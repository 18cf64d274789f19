"""`CSVLogger`: one CSV row per epoch."""
import collections
import csv
import errno
import io
import os

import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.saving import file_utils
from kerasish.saving.object_registration import builtin

_ENCODING = "utf-8"


def _cell(value):
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value
    if isinstance(value, collections.abc.Iterable):
        return f'"[{", ".join(map(str, value))}]"'
    return value


def _columns(logs):
    keys = sorted(logs)
    if keys and not any(k.startswith("val_") for k in keys):
        # Keras's columns: a val_<key> for every key when there is no
        # validation (filled with "NA").
        keys += [f"val_{k}" for k in keys]
    return keys


@builtin("keras.callbacks")
class CSVLogger(Callback):
    """Stream the epoch logs to a CSV file: `epoch,<sorted keys>`.

    `epoch` is 0-based. Without validation, Keras's `val_<key>` columns are
    added and filled with `NA`. Lists print as `"[a, b]"`. The file is
    flushed after each row.

    Appending (Keras writes rows that no longer match the header when the
    keys differ from the file's): kerasish keeps the file consistent. Rows
    follow the existing header's columns; if the new run has keys the
    header lacks, the file is rewritten with those columns added (`NA` in
    the earlier rows). A `BackupAndRestore` resume restores the file as it
    was at the backup, so no row is lost or duplicated.

    Crash safety: each row is appended whole or not at all (on a full
    disk the file is cut back and an `OSError` raised), and rewrites
    replace the file atomically. Without `append`, the previous log is
    replaced when the first row is written (Keras empties it when training
    begins), so a run killed before its first epoch ends keeps it.

    Args:
        filename: Path of the CSV file.
        separator: Column separator. Defaults to `","`.
        append: Append to an existing file instead of overwriting it.

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> import kerasish as keras
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2,
    ...               callbacks=[keras.callbacks.CSVLogger(path)], verbose=0)
    >>> with open(path) as f:
    ...     f.readline().strip()
    'epoch,loss,val_loss'
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None
        self._existing = None
        self._buffer = io.StringIO()
        self._replace_first = False

    def on_train_begin(self, logs=None):
        self._close()
        self._existing = self._read_existing() if self.append else None
        self.append_header = not self._existing
        if self.append:
            self._open_for_append()
        else:
            _check_folder(self.filename)
        # Keras truncates the file here; the first row replaces it instead
        # (atomically), so a run killed before it leaves the old log.
        self._replace_first = not self.append
        self.writer = None
        self.keys = None

    def _read_existing(self):
        if not os.path.exists(self.filename):
            return None
        with open(self.filename, newline="", encoding=_ENCODING) as f:
            rows = list(csv.reader(f, delimiter=self.sep))
        return rows or None

    def _open_for_append(self):
        self._close()
        self.csv_file = open(self.filename, "ab", buffering=0)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = self._choose_keys(logs)
        if self.writer is None:
            self.writer = csv.DictWriter(
                self._buffer, fieldnames=["epoch"] + self.keys,
                delimiter=self.sep, lineterminator="\r\n")
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((k, _cell(logs.get(k, "NA"))) for k in self.keys)
        self.writer.writerow(row)
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        self._write(text.encode(_ENCODING))

    def _write(self, data):
        """Add `data` (whole rows) to the file: all of it or nothing."""
        if self._replace_first:
            file_utils.write_bytes(self.filename, data)
            self._replace_first = False
            self._open_for_append()
            return
        file_utils.append_bytes(self.csv_file, data, self.filename)

    def _choose_keys(self, logs):
        keys = _columns(logs)
        if not self._existing:
            return keys
        header = self._existing[0][1:]
        missing = [k for k in keys if k not in header]
        if missing:
            self._rewrite(header + missing)
            return header + missing
        return header

    def _rewrite(self, columns):
        """Widen an existing file's header, padding old rows with NA (the
        whole file replaced at once: a kill keeps the old one)."""
        old_header, rows = self._existing[0], self._existing[1:]
        text = io.StringIO()
        writer = csv.writer(text, delimiter=self.sep, lineterminator="\r\n")
        writer.writerow(["epoch"] + columns)
        for row in rows:
            cells = dict(zip(old_header, row))
            writer.writerow([cells.get(c, "NA") for c in ["epoch"] + columns])
        self._close()
        file_utils.write_bytes(self.filename, text.getvalue().encode(
            _ENCODING))
        self._open_for_append()

    def on_train_end(self, logs=None):
        if self._replace_first:
            # No epoch ended: the empty log Keras leaves.
            file_utils.write_bytes(self.filename, b"")
            self._replace_first = False
        self._close()
        self.writer = None

    def _close(self):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()

    def get_state(self):
        if self._replace_first:   # the file still holds an earlier run
            return {"text": "", "keys": self.keys}
        with open(self.filename, newline="", encoding=_ENCODING) as f:
            text = f.read()
        return {"text": text, "keys": self.keys}

    def set_state(self, state):
        self._close()
        file_utils.write_bytes(self.filename, state["text"].encode(_ENCODING))
        self._replace_first = False
        self._open_for_append()
        self.keys = state["keys"]
        self.writer = None
        self.append_header = not state["text"]


def _check_folder(filename):
    """Fail at the start of training, as Keras's `open(filename, "w")`."""
    folder = os.path.dirname(os.path.abspath(filename))
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT),
                                filename)
    if os.path.isdir(filename):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR),
                                filename)
