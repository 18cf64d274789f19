"""Saves are atomic: an interrupted save leaves the previous file intact.

A subprocess saves a large model over an existing file and is killed
with SIGKILL while the bytes are being written; the previous file must be
byte-for-byte unchanged and still load. Normal and failed saves leave no
temporary file behind.
"""
import hashlib
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import kerasish
from kerasish.saving import legacy_h5_weights

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FORMATS = [".keras", ".h5", ".weights.h5"]
X = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)

# Builds a ~64 MB model (zeros: quick to create) and saves it over argv[1].
WRITER = """
import sys
sys.path.insert(0, {root!r})
import kerasish
layers = [kerasish.layers.Dense(2048, kernel_initializer="zeros")
          for _ in range(4)]
model = kerasish.Sequential([kerasish.Input((2048,))] + layers)
path = sys.argv[1]
print("saving", flush=True)
if path.endswith(".weights.h5"):
    model.save_weights(path)
else:
    model.save(path)
print("saved", flush=True)
"""


def _small_model():
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 kerasish.layers.Dense(3),
                                 kerasish.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mean_squared_error")
    model.train_on_batch(X, np.ones((2, 2), "float32"))
    return model


def _save(model, path):
    if path.endswith(".weights.h5"):
        model.save_weights(path)
    else:
        model.save(path)


def _load_predictions(path):
    if path.endswith(".weights.h5"):
        model = _small_model()
        model.load_weights(path)
    else:
        model = kerasish.models.load_model(path)
    return model.predict(X, verbose=0)


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _temp_files(folder):
    return [name for name in os.listdir(folder) if name.startswith(".tmp-")]


def _kill_mid_write(path):
    """Start a writer over `path`; SIGKILL it once its temp file grows."""
    folder = os.path.dirname(path)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER.format(root=ROOT), path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and writer.poll() is None:
            temps = _temp_files(folder)
            sizes = [os.path.getsize(os.path.join(folder, t))
                     for t in temps if os.path.exists(
                         os.path.join(folder, t))]
            if sizes and max(sizes) > 1 << 20:
                writer.send_signal(signal.SIGKILL)
                writer.communicate()
                assert writer.returncode == -signal.SIGKILL
                return max(sizes)
            time.sleep(0.0005)
    finally:
        if writer.poll() is None:
            writer.kill()
    out, err = writer.communicate()
    pytest.fail(f"The writer finished before it could be killed "
                f"(returncode {writer.returncode}): {out!r} {err[-500:]!r}")


@pytest.mark.slow
@pytest.mark.parametrize("ext", FORMATS)
def test_killed_save_leaves_previous_file_intact(tmp_path, ext):
    path = str(tmp_path / f"model{ext}")
    model = _small_model()
    _save(model, path)
    before, expected = _digest(path), model.predict(X, verbose=0)
    partial = _kill_mid_write(path)
    assert partial < 60 << 20           # killed before the write finished
    assert _digest(path) == before
    np.testing.assert_allclose(_load_predictions(path), expected, rtol=1e-6)


@pytest.mark.parametrize("ext", FORMATS)
def test_normal_saves_leave_no_temporary_file(tmp_path, ext):
    path = str(tmp_path / f"model{ext}")
    model = _small_model()
    for _ in range(3):
        _save(model, path)
    assert sorted(os.listdir(tmp_path)) == [f"model{ext}"]
    assert os.stat(path).st_mode & 0o044      # readable like other files


def test_failed_save_keeps_previous_file_and_cleans_up(tmp_path,
                                                       monkeypatch):
    path = str(tmp_path / "model.h5")
    model = _small_model()
    model.save(path)
    before = _digest(path)

    def broken(group, weights):
        raise OSError("disk full")

    monkeypatch.setattr(legacy_h5_weights, "_save_subset", broken)
    with pytest.raises(OSError, match="disk full"):
        model.save(path)
    assert _digest(path) == before
    assert sorted(os.listdir(tmp_path)) == ["model.h5"]


@pytest.mark.parametrize("save, name", [
    (lambda m, p, **kw: m.save(p, **kw), "model.keras"),
    (lambda m, p, **kw: m.save(p, **kw), "model.h5"),
    (lambda m, p, **kw: m.save_weights(p, **kw), "model.weights.h5"),
    (lambda m, p, **kw: m.save_weights(p, max_shard_size=1, **kw),
     "model.weights.json")])
def test_overwrite_false_asks_first_as_keras(tmp_path, monkeypatch, save,
                                             name):
    path = str(tmp_path / name)
    model = _small_model()
    save(model, path)
    files = sorted(os.listdir(tmp_path))

    def digest():
        return [_digest(str(tmp_path / f)) for f in files]
    before = digest()
    answers, prompts = iter(["maybe", "n"]), []

    def answer(prompt):
        prompts.append(prompt)
        return next(answers)
    monkeypatch.setattr("builtins.input", answer)
    assert save(model, path, overwrite=False) is None
    assert prompts == [f"[WARNING] {path} already exists - overwrite? [y/n]",
                       'Enter "y" (overwrite) or "n" (cancel).']
    assert digest() == before and sorted(os.listdir(tmp_path)) == files
    model.layers[0].kernel.assign(np.zeros(model.layers[0].kernel.shape))
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    save(model, path, overwrite=False)
    assert digest() != before and sorted(os.listdir(tmp_path)) == files
