"""BackupAndRestore: Keras's contract, and kerasish's bit-exact resume."""
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import BackupAndRestore
from tests.callbacks.util import data, regression_model, weights_bytes

SCRIPT = os.path.join(os.path.dirname(__file__), "resume_script.py")


class Crash(keras.callbacks.Callback):
    """Raise at the start of global batch `at` (1-based)."""

    def __init__(self, at):
        super().__init__()
        self.at, self.seen = at, 0

    def on_train_batch_begin(self, batch, logs=None):
        self.seen += 1
        if self.seen == self.at:
            raise RuntimeError("simulated crash")


def train(backup, crash_at=None, save_freq=1, epochs=3, callbacks=()):
    keras.utils.set_random_seed(3)
    model = regression_model("adam", dropout=0.3)
    x, y = data(24)
    cbs = [BackupAndRestore(backup, save_freq=save_freq)] + list(callbacks)
    if crash_at:
        cbs.append(Crash(crash_at))
    history = model.fit(x, y, batch_size=4, epochs=epochs,
                        validation_split=0.25, callbacks=cbs, verbose=0)
    return model, history


@pytest.mark.parametrize("crash_at", [2, 6, 11])
def test_resume_is_bit_exact_from_any_batch(tmp_path, crash_at):
    # 18 training samples in batches of 4: 5 batches per epoch.
    reference, ref_history = train(str(tmp_path / "ref"))
    with pytest.raises(RuntimeError, match="simulated crash"):
        train(str(tmp_path / "b"), crash_at=crash_at)
    assert os.path.exists(tmp_path / "b" / "latest.weights.h5")
    resumed, history = train(str(tmp_path / "b"))
    assert weights_bytes(resumed) == weights_bytes(reference)
    assert history.history == ref_history.history
    assert history.epoch == [0, 1, 2]
    assert not os.path.exists(tmp_path / "b")


class Shards(keras.utils.PyDataset):
    """Six batches of four samples."""

    def __init__(self):
        super().__init__()
        self.x, self.y = data(24)

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return self.x[4 * i:4 * i + 4], self.y[4 * i:4 * i + 4]


def train_shuffled(backup, source, crash_at=None, steps_per_epoch=None):
    keras.utils.set_random_seed(4)
    model = regression_model("adam", dropout=0.3)
    cbs = [BackupAndRestore(backup, save_freq=1)]
    if crash_at:
        cbs.append(Crash(crash_at))
    if source == "pydataset":
        args = dict(x=Shards(), shuffle=True)
    else:
        x, y = data(24)
        args = dict(x=x, y=y, batch_size=4, shuffle=source)
    history = model.fit(epochs=3, callbacks=cbs, verbose=0,
                        steps_per_epoch=steps_per_epoch, **args)
    return model, history


@pytest.mark.parametrize("source,steps_per_epoch",
                         [("batch", None), ("pydataset", None), (True, 4)])
def test_resume_replays_the_shuffle_of_the_pass_under_way(
        tmp_path, source, steps_per_epoch):
    # Shuffles draw from the global RNGs (as Keras); a resumed pass
    # replays its draws, so the batches after the crash are the same.
    reference, ref_history = train_shuffled(str(tmp_path / "ref"), source,
                                            steps_per_epoch=steps_per_epoch)
    with pytest.raises(RuntimeError, match="simulated crash"):
        train_shuffled(str(tmp_path / "b"), source, crash_at=9,
                       steps_per_epoch=steps_per_epoch)
    resumed, history = train_shuffled(str(tmp_path / "b"), source,
                                      steps_per_epoch=steps_per_epoch)
    assert weights_bytes(resumed) == weights_bytes(reference)
    assert history.history == ref_history.history


def test_epoch_granular_backup_resumes_at_next_epoch(tmp_path):
    reference, ref_history = train(str(tmp_path / "ref"), save_freq="epoch")
    with pytest.raises(RuntimeError):
        train(str(tmp_path / "b"), crash_at=8, save_freq="epoch")
    with open(tmp_path / "b" / "training_metadata.json") as f:
        assert json.load(f) == {"epoch": 1, "batch": 0}
    resumed, history = train(str(tmp_path / "b"), save_freq="epoch")
    assert weights_bytes(resumed) == weights_bytes(reference)
    assert history.history == ref_history.history


def test_metadata_is_keras_format_mid_epoch(tmp_path):
    with pytest.raises(RuntimeError):
        train(str(tmp_path / "b"), crash_at=8, save_freq=1)
    with open(tmp_path / "b" / "training_metadata.json") as f:
        assert json.load(f) == {"epoch": 1, "batch": 1}


def test_keras_written_backup_resumes_epoch_granular(tmp_path):
    # A backup folder as Keras writes it: weights + {"epoch", "batch"}.
    folder = tmp_path / "b"
    model = regression_model("adam")
    x, y = data(24)
    model.fit(x, y, epochs=1, verbose=0)
    os.makedirs(folder)
    model.save_weights(str(folder / "latest.weights.h5"))
    with open(folder / "training_metadata.json", "w") as f:
        json.dump({"epoch": 2, "batch": 3}, f)
    fresh = regression_model("adam")
    history = fresh.fit(x, y, epochs=4, verbose=0,
                        callbacks=[BackupAndRestore(str(folder))])
    assert history.epoch == [2, 3]
    # Iterations continued from the restored optimizer: 1 + 2 epochs.
    assert int(fresh.optimizer.iterations.numpy()) == 3


def test_double_checkpoint_falls_back_to_previous(tmp_path):
    folder = tmp_path / "b"
    with pytest.raises(RuntimeError):
        _train_double(folder, 7)
    assert os.path.exists(folder / "latest.weights.h5.bkp")
    with open(folder / "latest.weights.h5", "wb") as f:
        f.write(b"corrupted")
    model, history = _train_double(folder, None)
    assert history.epoch == [0, 1, 2]


def _train_double(folder, crash_at):
    keras.utils.set_random_seed(3)
    model = regression_model("adam")
    x, y = data(24)
    cbs = [BackupAndRestore(str(folder), save_freq=1,
                            double_checkpoint=True)]
    if crash_at:
        cbs.append(Crash(crash_at))
    return model, model.fit(x, y, batch_size=4, epochs=3, callbacks=cbs,
                            verbose=0)


def test_delete_checkpoint_false_keeps_the_folder(tmp_path):
    model = regression_model()
    x, y = data(8)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[BackupAndRestore(
        str(tmp_path / "b"), delete_checkpoint=False)])
    assert sorted(os.listdir(tmp_path / "b")) == ["latest.weights.h5",
                                                  "training_metadata.json"]


def test_argument_errors():
    with pytest.raises(ValueError, match="Empty `backup_dir`"):
        BackupAndRestore("")
    with pytest.raises(ValueError, match="save_freq=weekly"):
        BackupAndRestore("b", save_freq="weekly")


def test_unbuilt_model_is_refused(tmp_path):
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Sub()
    model.compile("sgd", "mse")
    cb = BackupAndRestore(str(tmp_path / "b"))
    cb.set_model(model)
    with pytest.raises(ValueError, match="must be built before you call"):
        cb.on_train_begin()


@pytest.fixture
def python_sigint_handler():
    """Python's own Ctrl-C handler, as in a terminal. A process started in
    the background by a shell (as CI may be) inherits SIGINT ignored, and
    then kerasish rightly leaves the signal alone."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("python_sigint_handler")
def test_ctrl_c_stops_after_the_batch_and_resumes_exactly(tmp_path):
    reference, ref_history = train(str(tmp_path / "ref"))
    events = []

    class Interrupt(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = 0

        def on_train_batch_begin(self, batch, logs=None):
            self.seen += 1
            if self.seen == 7:
                # raise_signal delivers to this thread before it returns;
                # a process-wide kill may land on a BLAS worker thread and
                # reach Python a timer tick, and a batch or two, later.
                signal.raise_signal(signal.SIGINT)

        def on_train_batch_end(self, batch, logs=None):
            events.append(("batch_end", batch))

        def on_train_interrupted(self, epoch, batch, logs=None):
            events.append(("interrupted", epoch, batch, sorted(logs)))

        def on_train_end(self, logs=None):
            events.append("train_end")

    path = str(tmp_path / "ck" / "m-{epoch}.weights.h5")
    checkpoint = keras.callbacks.ModelCheckpoint(path, save_weights_only=True)
    model, history = train(str(tmp_path / "b"),
                           callbacks=[Interrupt(), checkpoint])
    assert events[-3:] == [("batch_end", 1),
                           ("interrupted", 1, 1, ["loss", "mae"]),
                           "train_end"]
    assert history.epoch == [0] and model.history is history
    assert os.path.exists(tmp_path / "b" / "latest.weights.h5")
    assert sorted(os.listdir(tmp_path / "ck")) == ["m-1.weights.h5",
                                                   "m-2.weights.h5"]
    resumed, history = train(str(tmp_path / "b"))
    assert weights_bytes(resumed) == weights_bytes(reference)
    assert history.history == ref_history.history


def _run(args, **kwargs):
    return subprocess.run([sys.executable, SCRIPT] + args, cwd=os.getcwd(),
                          capture_output=True, text=True, timeout=120,
                          **kwargs)


def _load(out):
    arrays = np.load(out)
    with open(out + ".json") as f:
        meta = json.load(f)
    return [arrays[k].tobytes() for k in arrays.files], meta


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference")
    ref = str(folder / "ref.npz")
    assert _run([str(folder / "b0"), ref, "0"]).returncode == 0
    return ref


@pytest.mark.slow
def test_sigkill_mid_epoch_then_rerun_is_byte_identical(tmp_path,
                                                        reference_run):
    ref = reference_run
    out = str(tmp_path / "out.npz")
    csv = str(tmp_path / "log.csv")
    killed = _run([str(tmp_path / "b1"), out, "9", csv])
    assert killed.returncode == -signal.SIGKILL
    assert _run([str(tmp_path / "b1"), out, "0", csv]).returncode == 0
    assert _load(out) == _load(ref)
    with open(csv) as f, open(ref + ".csv") as g:
        assert f.read() == g.read()


@pytest.mark.slow
def test_parent_kills_at_a_random_moment(tmp_path, reference_run):
    ref = reference_run
    out = str(tmp_path / "out.npz")
    folder = str(tmp_path / "b1")
    child = subprocess.Popen([sys.executable, SCRIPT, folder, out, "0"],
                             stdout=subprocess.PIPE, text=True)
    for _ in range(int(np.random.default_rng().integers(3, 12))):
        child.stdout.readline()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    child.stdout.close()
    assert _run([folder, out, "0"]).returncode == 0
    assert _load(out) == _load(ref)


def test_save_freq_false_backs_up_only_on_interruption(tmp_path):
    # Keras accepts `save_freq=False` (preemption-only checkpointing).
    folder = str(tmp_path / "backup")
    callback = BackupAndRestore(folder, save_freq=False,
                                delete_checkpoint=False)
    x, y = data(8)
    regression_model().fit(x, y, batch_size=4, epochs=2, verbose=0,
                           callbacks=[callback])
    assert not os.path.exists(folder) or not os.listdir(folder)
    with pytest.raises(ValueError, match="save_freq"):
        BackupAndRestore(folder, save_freq="batch")
