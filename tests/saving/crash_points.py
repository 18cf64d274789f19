"""Kill a writer at every file event of a short run; check what is left.

`python -m tests.saving.crash_points <folder> [writer ...]` prints one
JSON line per writer (default: all of `WRITERS`): `{"writer": name,
"events": n, "kills": k, "checked": c, "failures": [...]}`. For each:

1. `setup` writes the previous state (a complete earlier run) once;
2. for N = 1, 2, ...: a copy of that state is made, and a forked child
   runs `run` with an audit hook (`sys.addaudithook`) that SIGKILLs it at
   the N-th file event inside the folder (the event's operation never
   happens); N stops growing when the child finishes without being killed;
3. after each kill that left files not seen after an earlier one, another
   forked child checks the folder (`check`: the previous state, or a newer
   complete one, loads) and runs the writer again to the end (`resume`,
   which checks the end state and that no temporary file is left).

File events are the operations that change files: opens for writing,
writes (`os.write` and Python file objects'), renames, removals, folder
creation and removal, truncation.
"""
import builtins
import csv
import hashlib
import io
import json
import logging
import os
import re
import shutil
import signal
import struct
import sys
import time
import traceback

import numpy as np

import kerasish as keras
from kerasish import estimator, train

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | \
    os.O_APPEND
_EVENTS = {"os.rename", "os.remove", "os.rmdir", "os.mkdir",
           "shutil.rmtree", "os.truncate"}
X = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)


def _batches(n=8):
    rng = np.random.default_rng(0)
    out = []
    for _ in range(n):
        x = rng.random((4, 3)).astype("float32")
        out.append((x, x.sum(axis=1, keepdims=True)))
    return out


def _model(seed=0):
    keras.utils.set_random_seed(seed)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2),
                              keras.layers.Dense(1)])
    model.compile("adam", "mse")
    return model


def _no_temporaries(folder):
    left = [os.path.join(parent, name)
            for parent, dirs, files in os.walk(folder)
            for name in dirs + files if name.startswith((".tmp-", ".old-"))]
    assert not left, f"temporary files left: {left}"


# -- writers ------------------------------------------------------------------
class MonitoredSessionWriter:
    """`MonitoredTrainingSession` checkpoints every step, keeping 2."""
    first, last = 2, 3

    def _train(self, folder, last_step):
        model = _model()
        scaffold = train.Scaffold(saver=train.Saver(max_to_keep=2))
        with train.MonitoredTrainingSession(
                model=model, input=_batches(), checkpoint_dir=folder,
                scaffold=scaffold, save_checkpoint_steps=1,
                save_summaries_steps=None, log_step_count_steps=None,
                hooks=[train.StopAtStepHook(last_step=last_step)]) as sess:
            while not sess.should_stop():
                sess.run()
        return model

    def setup(self, folder):
        self._train(folder, self.first)

    def run(self, folder):
        self._train(folder, self.last)

    def _step(self, folder):
        state = train.get_checkpoint_state(folder)
        assert state is not None, "no checkpoint index"
        for path in state.all_model_checkpoint_paths + \
                [state.model_checkpoint_path]:
            assert train.checkpoint_exists(path), \
                f"checkpoint lists a missing file: {path}"
        model = _model(1)
        train.Saver().restore(model, state.model_checkpoint_path)
        return int(state.model_checkpoint_path.rsplit("-", 1)[1])

    def check(self, folder):
        assert self._step(folder) >= self.first

    def resume(self, folder):
        self._train(folder, self.last)
        # As TF's StopAtStepHook: a run restored at `last_step` (killed
        # after its final checkpoint) still runs one step.
        assert self._step(folder) in (self.last, self.last + 1)
        assert len(train.get_checkpoint_state(folder)
                   .all_model_checkpoint_paths) == 2


def _model_fn(features, labels, mode):
    layer = keras.layers.Dense(1)
    predictions = layer(features["x"])
    if mode == estimator.ModeKeys.PREDICT:
        return estimator.EstimatorSpec(mode, predictions=predictions)
    loss = keras.ops.mean((predictions - labels) ** 2)
    train_op = keras.optimizers.SGD(0.1).minimize(
        loss, layer.trainable_variables)
    return estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


class EstimatorWriter:
    """`Estimator.train` checkpoints every step, keeping 2."""
    first, last = 2, 3

    def _estimator(self, folder):
        config = estimator.RunConfig(
            model_dir=folder, save_checkpoints_steps=1, keep_checkpoint_max=2,
            save_summary_steps=None, log_step_count_steps=None)
        return estimator.Estimator(_model_fn, config=config)

    def _input(self):
        x, y = _batches(1)[0]
        return {"x": x}, y

    def setup(self, folder):
        self._estimator(folder).train(self._input, max_steps=self.first)

    def run(self, folder):
        self._estimator(folder).train(self._input, max_steps=self.last)

    def _step(self, folder):
        state = train.get_checkpoint_state(folder)
        assert state is not None, "no checkpoint index"
        for path in state.all_model_checkpoint_paths + \
                [state.model_checkpoint_path]:
            assert train.checkpoint_exists(path), \
                f"checkpoint lists a missing file: {path}"
        est = self._estimator(folder)
        assert est.get_variable_value("global_step") >= 0
        return int(est.get_variable_value("global_step"))

    def check(self, folder):
        assert self._step(folder) >= self.first

    def resume(self, folder):
        self.run(folder)
        assert self._step(folder) == self.last


class CSVLoggerWriter:
    """`CSVLogger` over a log of 2 rows: appending, or replacing it."""

    def __init__(self, append):
        self.append = append

    def _fit(self, folder, epochs, append):
        x, y = _batches(1)[0]
        logger = keras.callbacks.CSVLogger(os.path.join(folder, "log.csv"),
                                           append=append)
        _model().fit(x, y, epochs=epochs, verbose=0, callbacks=[logger])

    def _rows(self, folder):
        with open(os.path.join(folder, "log.csv"), newline="") as f:
            text = f.read()
        assert text.endswith("\r\n"), f"a torn last row: {text!r}"
        rows = list(csv.reader(text.splitlines()))
        assert rows[0] == ["epoch", "loss", "val_loss"], rows
        assert all(len(row) == 3 for row in rows), rows
        return [int(row[0]) for row in rows[1:]]

    def setup(self, folder):
        self._fit(folder, 2, False)

    def run(self, folder):
        self._fit(folder, 3, self.append)

    def check(self, folder):
        epochs = self._rows(folder)
        if self.append:    # the old rows, then some of the new ones
            assert epochs[:2] == [0, 1] and epochs[2:] == \
                list(range(len(epochs) - 2)), epochs
        else:              # the old log, or the new one so far
            assert epochs in ([0, 1], [0], [0, 1, 2]), epochs

    def resume(self, folder):
        before = self._rows(folder)
        self.run(folder)
        expected = before + [0, 1, 2] if self.append else [0, 1, 2]
        assert self._rows(folder) == expected


class ModelFileWriter:
    """`model.save` of a new model over a saved one."""

    def __init__(self, name, **save_kwargs):
        self.name, self.save_kwargs = name, save_kwargs

    def _save(self, folder, seed):
        _model(seed).save(os.path.join(folder, self.name), **self.save_kwargs)

    def _predict(self, folder):
        model = keras.models.load_model(os.path.join(folder, self.name),
                                        compile=False)
        return model.predict(X, verbose=0)

    def setup(self, folder):
        self._save(folder, 1)

    def run(self, folder):
        self._save(folder, 2)

    def check(self, folder):
        got = self._predict(folder)
        options = [_model(seed).predict(X, verbose=0) for seed in (1, 2)]
        assert any(np.array_equal(got, o) for o in options), \
            "the file holds neither model"

    def resume(self, folder):
        self.run(folder)
        np.testing.assert_array_equal(self._predict(folder),
                                      _model(2).predict(X, verbose=0))


class TwoRenameFolderWriter(ModelFileWriter):
    """Folder saves where the system cannot swap two folders atomically:
    two renames, and a killed save's previous model is put back."""

    def __init__(self):
        super().__init__("saved", zipped=False)

    def _save(self, folder, seed):
        from kerasish.saving import file_utils
        file_utils.exchange_paths = lambda a, b: False
        super()._save(folder, seed)


class TensorBoardWriter:
    """The `TensorBoard` callback: a second run beside a first one's."""

    def _fit(self, folder):
        x, y = _batches(1)[0]
        _model().fit(x, y, epochs=2, verbose=0, callbacks=[
            keras.callbacks.TensorBoard(os.path.join(folder, "logs"))])

    def setup(self, folder):
        self._fit(folder)
        self.before = _event_files(folder)

    def run(self, folder):
        self._fit(folder)

    def check(self, folder):
        now = _event_files(folder)
        for path, data in self.before.items():
            assert now.get(path) == data, f"changed: {path}"
        for path, data in now.items():
            _records(data, path)

    def resume(self, folder):
        self._fit(folder)
        now = _event_files(folder)
        assert len(now) >= 2 * len(self.before), sorted(now)
        assert sum(len(_records(d, p)) for p, d in now.items()) > \
            sum(len(_records(d, p)) for p, d in self.before.items())


def _event_files(folder):
    out = {}
    for parent, _, files in os.walk(folder):
        for name in files:
            if "tfevents" in name:
                path = os.path.join(parent, name)
                with open(path, "rb") as f:
                    out[os.path.relpath(path, folder)] = f.read()
    return out


def _records(data, path):
    """TFRecord payloads; a record cut short is allowed only at the end
    (TensorBoard's readers stop there)."""
    records, offset = [], 0
    while offset + 12 <= len(data):
        (length,) = struct.unpack("<Q", data[offset:offset + 8])
        end = offset + 12 + length + 4
        if end > len(data):
            break
        records.append(data[offset + 12:offset + 12 + length])
        offset = end
    assert len(data) - offset < 12 + 1 << 20, path
    return records


WRITERS = {
    "monitored_session": MonitoredSessionWriter,
    "estimator": EstimatorWriter,
    "csv_append": lambda: CSVLoggerWriter(append=True),
    "csv_replace": lambda: CSVLoggerWriter(append=False),
    "legacy_h5": lambda: ModelFileWriter("m.h5"),
    "keras": lambda: ModelFileWriter("m.keras"),
    "folder": lambda: ModelFileWriter("saved", zipped=False),
    "folder_two_renames": TwoRenameFolderWriter,
    "tensorboard": TensorBoardWriter,
}


# -- the driver ---------------------------------------------------------------
def _inside(path, folder):
    if not isinstance(path, (str, bytes, os.PathLike)):
        return False
    path = os.path.abspath(os.fsdecode(path))
    return path == folder or path.startswith(folder + os.sep)


def _is_file_event(event, args, folder):
    if event == "open":
        path, mode, flags = args
        writing = (isinstance(flags, int) and flags & _WRITE_FLAGS) or \
            (isinstance(mode, str) and any(c in mode for c in "wax+"))
        return bool(writing) and _inside(path, folder)
    if event == "os.truncate":
        return True    # by file descriptor: only the writers truncate here
    return event in _EVENTS and any(_inside(a, folder) for a in args[:2])


def _fingerprint(folder):
    """The folder's names and contents (temporaries' process ids and
    tokens left out: the next run treats every dead one alike)."""
    items = []
    for parent, dirs, files in os.walk(folder):
        for name in sorted(dirs + files):
            path = os.path.join(parent, name)
            key = re.sub(r"\.[0-9a-f]{6}-\d+-[0-9a-f]{8}$", ".*",
                         os.path.relpath(path, folder))
            if os.path.isdir(path):
                items.append((key, "dir"))
            else:
                with open(path, "rb") as f:
                    items.append((key, hashlib.sha256(f.read()).digest()))
    return tuple(sorted(items))


def _kill_at(n, folder):
    count = [0]
    real_folder = os.path.realpath(folder)

    def tick():
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)

    def hook(event, args):
        if event in _EVENTS or event == "open":
            if _is_file_event(event, args, folder):
                tick()
    sys.addaudithook(hook)
    real_write = os.write

    def write(fd, data):
        # `os.write` raises no audit event; the writers append rows and
        # write whole files through it (file_utils.write_all).
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            path = None
        if path is not None and _inside(path, real_folder):
            tick()
        return real_write(fd, data)
    os.write = write
    real_open = io.open

    def open_(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax+") and _inside(file, folder):
            return _Ticking(f, tick)
        return f
    builtins.open = io.open = open_


class _Ticking:
    """A file whose every `write` is a file event (a kill point)."""

    def __init__(self, f, tick):
        self._f, self._tick = f, tick

    def write(self, data):
        self._tick()
        return self._f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


def _in_child(fn):
    """Run `fn()` in a forked child; returns `(signal or None, error)`."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        error = ""
        try:
            fn()
        except BaseException:
            error = traceback.format_exc()[-3000:]
        os.write(write, error.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while True:
        chunk = os.read(read, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    killed = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return killed, b"".join(chunks).decode()


def main(names, root):
    # A killed process loses nothing the kernel already holds: syncing to
    # the disk only matters for power loss, and here only costs time.
    os.fsync = lambda fd: None
    logging.disable(logging.WARNING)   # the legacy-format notices
    for name in names:
        started = time.monotonic()
        report = crash_test(name, os.path.join(root, name))
        report.update(writer=name, seconds=round(time.monotonic() - started,
                                                 1))
        print(json.dumps(report), flush=True)


def crash_test(name, root):
    """Kill writer `name` at each of its file events; returns a report."""
    writer = WRITERS[name]()
    base = os.path.abspath(os.path.join(root, "base"))
    os.makedirs(base)
    writer.setup(base)
    failures, kills, n, seen = [], 0, 0, set()
    while True:
        n += 1
        trial = os.path.abspath(os.path.join(root, f"trial-{n}"))
        shutil.copytree(base, trial)

        def killed_run():
            keras.backend.clear_session(free_memory=False)
            _kill_at(n, trial)
            writer.run(trial)
        signal_number, error = _in_child(killed_run)
        if signal_number is None:
            if error:
                failures.append(f"unkilled run failed: {error}")
            shutil.rmtree(trial)
            break
        kills += 1
        state = _fingerprint(trial)
        if state in seen:   # the same files as an earlier kill left
            shutil.rmtree(trial)
            continue
        seen.add(state)

        def check_and_resume():
            keras.backend.clear_session(free_memory=False)
            writer.check(trial)
            writer.resume(trial)
            _no_temporaries(trial)
        signal_number, error = _in_child(check_and_resume)
        if signal_number is not None or error:
            failures.append(f"killed at event {n}: {error or signal_number}")
        shutil.rmtree(trial)
    return {"events": n - 1, "kills": kills, "checked": len(seen),
            "failures": failures}


if __name__ == "__main__":
    main(sys.argv[2:] or sorted(WRITERS), sys.argv[1])
