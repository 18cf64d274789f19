"""A full disk: every writer raises a clear `OSError`, keeps the previous
file and leaves no temporary file; stale temporaries are cleaned.

The disk is simulated (`full_disk.FullDisk`: writes into the folder fail
with ENOSPC past a byte budget), so it runs anywhere; one test also fills a
real tmpfs (root only, skipped elsewhere) to show HDF5 files never crash
the process in h5py's `File.close` as they once did.
"""
import errno
import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

import kerasish
from kerasish import train
from kerasish.callbacks.model_checkpoint import _save_legacy_weights
from kerasish.estimator.variable_store import (read_checkpoint,
                                               write_checkpoint)
from kerasish.saving import file_utils
from tests.saving.full_disk import FullDisk

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
X = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)


def _model(seed):
    kerasish.utils.set_random_seed(seed)
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 kerasish.layers.Dense(3),
                                 kerasish.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mean_squared_error")
    model.train_on_batch(X, np.ones((2, 2), "float32"))
    return model


def _predict_weights(folder, name):
    model = _model(99)
    model.load_weights(os.path.join(folder, name))
    return model.predict(X, verbose=0)


def _predict_model(folder, name):
    return kerasish.models.load_model(os.path.join(folder, name)) \
        .predict(X, verbose=0)


def _save_ckpt(model, folder, step):
    train.Saver(max_to_keep=1).save(model, os.path.join(folder, "model.ckpt"),
                                    global_step=step)


def _predict_ckpt(folder, name):
    model = _model(99)
    train.Saver().restore(model, train.latest_checkpoint(folder))
    return model.predict(X, verbose=0)


def _save_estimator(model, folder, step):
    write_checkpoint(os.path.join(folder, "est.weights.h5"),
                     {f"w{i}": v.numpy() for i, v in enumerate(model.weights)})


def _predict_estimator(folder, name):
    values = read_checkpoint(os.path.join(folder, "est.weights.h5"))
    model = _model(99)
    for i, v in enumerate(model.weights):
        v.assign(values[f"w{i}"])
    return model.predict(X, verbose=0)


# (name, save(model, folder, step), predictions of what the folder holds)
WRITERS = {
    "keras": (lambda m, d, s: m.save(os.path.join(d, "m.keras")),
              lambda d: _predict_model(d, "m.keras")),
    "legacy_h5": (lambda m, d, s: m.save(os.path.join(d, "m.h5")),
                  lambda d: _predict_model(d, "m.h5")),
    "weights_h5": (lambda m, d, s: m.save_weights(
        os.path.join(d, "m.weights.h5")),
        lambda d: _predict_weights(d, "m.weights.h5")),
    "checkpoint_h5": (lambda m, d, s: _save_legacy_weights(
        m, os.path.join(d, "ck.h5")),
        lambda d: _predict_weights(d, "ck.h5")),
    "folder": (lambda m, d, s: m.save(os.path.join(d, "saved"),
                                      zipped=False),
               lambda d: _predict_model(d, "saved")),
    "saver": (_save_ckpt, lambda d: _predict_ckpt(d, None)),
    "estimator": (_save_estimator, lambda d: _predict_estimator(d, None)),
}


def _snapshot(folder):
    """`{relative path: sha256}` of every file and folder under `folder`."""
    out = {}
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            key = os.path.relpath(path, folder)
            if os.path.isdir(path):
                out[key] = "dir"
            else:
                with open(path, "rb") as f:
                    out[key] = hashlib.sha256(f.read()).hexdigest()
    return out


def _bytes_needed(tmp_path, monkeypatch, save):
    folder = tmp_path / "measure"
    folder.mkdir()
    with monkeypatch.context() as patch:
        disk = FullDisk(patch, folder, 1 << 40)
        save(_model(2), str(folder), 2)
    return (1 << 40) - disk.budget


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_full_disk_raises_and_keeps_the_previous_state(tmp_path, monkeypatch,
                                                      writer):
    save, predict = WRITERS[writer]
    folder = tmp_path / "out"
    folder.mkdir()
    save(_model(1), str(folder), 1)
    expected, before = predict(str(folder)), _snapshot(folder)
    needed = _bytes_needed(tmp_path, monkeypatch, save)
    new = _model(2)
    for budget in [0, 1, 100, 3000, needed // 2, needed - 1]:
        with monkeypatch.context() as patch:
            FullDisk(patch, folder, budget)
            with pytest.raises(OSError) as info:
                save(new, str(folder), 2)
        assert info.value.errno == errno.ENOSPC, (budget, info.value)
        assert "No space left on device: could not write" in \
            str(info.value), budget
        assert _snapshot(folder) == before, budget
        np.testing.assert_allclose(predict(str(folder)), expected)
    save(new, str(folder), 2)       # space again: the save goes through
    np.testing.assert_allclose(predict(str(folder)),
                               new.predict(X, verbose=0), rtol=1e-6)
    assert not [n for n in os.listdir(folder) if n.startswith(".")]


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _temp(folder, target, pid, host=file_utils._HOST):
    return os.path.join(folder, f".tmp-{target}.{host}-{pid}-0123abcd")


@pytest.mark.parametrize("writer", ["keras", "legacy_h5", "folder", "saver"])
def test_next_save_removes_only_stale_temporaries(tmp_path, writer):
    folder = str(tmp_path)
    dead, alive = _dead_pid(), os.getppid()
    stale = [_temp(folder, "m.h5", dead), _temp(folder, "model.ckpt-7", dead),
             _temp(folder, "old.keras", os.getpid())]   # not live here
    kept = [_temp(folder, "m.h5", alive),               # still writing
            _temp(folder, "m.h5", dead, host="ffffff"),  # another machine
            os.path.join(folder, ".tmp-user-file"),      # not ours
            os.path.join(folder, ".tmp-m.h5abc12345")]   # not ours
    for path in stale + kept:
        with open(path, "wb") as f:
            f.write(b"partial")
    os.mkdir(_temp(folder, "saved", dead))              # a killed folder save
    stale.append(_temp(folder, "saved", dead))
    WRITERS[writer][0](_model(1), folder, 1)
    names = set(os.listdir(folder))
    assert not names & {os.path.basename(p) for p in stale}
    assert {os.path.basename(p) for p in kept} <= names


def test_a_temporary_of_this_process_in_use_is_kept(tmp_path):
    target = str(tmp_path / "a.bin")
    with file_utils.atomic_path(target) as tmp:
        file_utils.write_bytes(str(tmp_path / "b.bin"), b"b")
        assert os.path.exists(tmp)
        with open(tmp, "wb") as f:
            f.write(b"a")
    assert sorted(os.listdir(tmp_path)) == ["a.bin", "b.bin"]


# Fills a real small tmpfs to each free-space level and saves a legacy .h5
# over an existing one: prints one line per level; a crash ends the output.
TMPFS = """
import os, sys
sys.path.insert(0, {root!r})
import numpy as np, kerasish
folder = sys.argv[1]
model = kerasish.Sequential([kerasish.Input((4,)),
                             kerasish.layers.Dense(3000)])
model.compile("adam", "mse")
model.save(os.path.join(folder, "m.h5"))
with open(os.path.join(folder, "m.h5"), "rb") as f:
    before = f.read()
free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
for level in range(0, free, max(free // 22, 1)):
    filler = os.path.join(folder, "filler")
    with open(filler, "wb") as f:
        f.write(b"x" * (free - level))
    try:
        model.save(os.path.join(folder, "m.h5"))
        result = "saved"
    except OSError as e:
        result = "oserror" if e.errno == 28 else repr(e)
    with open(os.path.join(folder, "m.h5"), "rb") as f:
        same = f.read() == before
    extra = sorted(set(os.listdir(folder)) - {{"m.h5", "filler"}})
    print(level, result, same, extra, flush=True)
    os.remove(filler)
    before = open(os.path.join(folder, "m.h5"), "rb").read()
"""


def test_legacy_h5_on_a_real_full_tmpfs_never_crashes(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k",
                              "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root and "
                    f"mount rights): {mounted.stderr.decode().strip()}")
    try:
        run = subprocess.run(
            [sys.executable, "-c", TMPFS.format(root=ROOT), str(folder)],
            capture_output=True, text=True, timeout=120)
    finally:
        subprocess.run(["umount", str(folder)], check=True)
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [line.split(" ", 3) for line in run.stdout.splitlines()]
    assert len(rows) >= 20
    assert {result for _, result, _, _ in rows} == {"saved", "oserror"}
    for level, result, same, extra in rows:
        assert extra == "[]", (level, extra)
        if result == "oserror":
            assert same == "True", level


def test_a_folder_save_killed_between_its_renames_is_put_back(tmp_path):
    # Where folders cannot be swapped atomically, a save renames the old
    # model aside, then the new one in; killed between the two, the old
    # one is put back by the next load or save.
    path = str(tmp_path / "saved")
    old, new = _model(1), _model(2)
    old.save(path, zipped=False)
    aside = os.path.join(str(tmp_path), f".old-saved.{file_utils._HOST}-"
                                        f"{_dead_pid()}-0123abcd")
    os.replace(path, aside)
    np.testing.assert_allclose(_predict_model(str(tmp_path), "saved"),
                               old.predict(X, verbose=0))
    assert os.listdir(tmp_path) == ["saved"]
    os.replace(path, aside)
    new.save(path, zipped=False)
    np.testing.assert_allclose(_predict_model(str(tmp_path), "saved"),
                               new.predict(X, verbose=0), rtol=1e-6)
    assert os.listdir(tmp_path) == ["saved"]
