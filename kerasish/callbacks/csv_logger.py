"""`CSVLogger`: one CSV row per epoch."""
import collections
import csv
import os

import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin


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

    def on_train_begin(self, logs=None):
        self._existing = None
        if self.append:
            self._existing = self._read_existing()
            self.append_header = not self._existing
            mode = "a"
        else:
            mode = "w"
        self._close()
        self.csv_file = open(self.filename, mode, newline="")
        self.writer = None
        self.keys = None

    def _read_existing(self):
        if not os.path.exists(self.filename):
            return None
        with open(self.filename, newline="") as f:
            rows = list(csv.reader(f, delimiter=self.sep))
        return rows or None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = self._choose_keys(logs)
        if self.writer is None:
            self.writer = csv.DictWriter(
                self.csv_file, fieldnames=["epoch"] + self.keys,
                delimiter=self.sep, lineterminator="\r\n")
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((k, _cell(logs.get(k, "NA"))) for k in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

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
        """Widen an existing file's header, padding old rows with NA."""
        old_header, rows = self._existing[0], self._existing[1:]
        self.csv_file.close()
        with open(self.filename, "w", newline="") as f:
            writer = csv.writer(f, delimiter=self.sep, lineterminator="\r\n")
            writer.writerow(["epoch"] + columns)
            for row in rows:
                cells = dict(zip(old_header, row))
                writer.writerow([cells.get(c, "NA")
                                 for c in ["epoch"] + columns])
        self.csv_file = open(self.filename, "a", newline="")

    def on_train_end(self, logs=None):
        self._close()
        self.writer = None

    def _close(self):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()

    def get_state(self):
        self.csv_file.flush()
        with open(self.filename, newline="") as f:
            text = f.read()
        return {"text": text, "keys": self.keys}

    def set_state(self, state):
        self._close()
        with open(self.filename, "w", newline="") as f:
            f.write(state["text"])
        self.csv_file = open(self.filename, "a", newline="")
        self.keys = state["keys"]
        self.writer = None
        self.append_header = not state["text"]
