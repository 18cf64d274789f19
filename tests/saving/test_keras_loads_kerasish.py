"""Real Keras 3 loads the files kerasish writes, with the same numbers.

Runs tests/fixtures/keras_check.py in an interpreter that has Keras: the
one in $KERASISH_KERAS_PYTHON, the project's Keras virtualenv, or this
interpreter if the `keras` distribution is installed in it (not merely a
folder named `keras`: tests/fixtures/keras is one). Without one the test
is skipped (Keras is not a dependency of kerasish; CI has none).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from tests import peers
from tests.fixtures import families
from tests.fixtures.npz_struct import flatten
from tests.saving import interop

CHECK = os.path.join(os.path.dirname(interop.FIXTURES), "keras_check.py")
KERAS_VENV = "/work/kvenv/bin/python"


def keras_python():
    """An interpreter that has Keras installed, else None."""
    for python in (os.environ.get("KERASISH_KERAS_PYTHON"), KERAS_VENV):
        if python and os.path.exists(python) and \
                peers.interpreter_has(python, "keras"):
            return python
    if peers.installed("keras"):
        return sys.executable
    return None


def _write_family(folder, name):
    case = interop.build(name)
    model, base = case.model, os.path.join(folder, name)
    # Only the formats in which Keras reloads its own file of the family
    # (Keras 3.15 cannot rebuild legacy .h5 op nodes or subclassed models).
    formats = interop.info(name)["keras_reloads"]
    for ext in case.formats:
        families.save(model, base + ext)
    arrays, structure = {}, {}
    for key, value in (("x", case.x),
                       ("pred", model.predict(case.x, verbose=0))):
        flat, structure[key] = flatten(value)
        arrays.update({f"{key}__{k}": v for k, v in flat.items()})
    arrays.update({f"weight__{i}": w
                   for i, w in enumerate(model.get_weights())})
    if case.y is not None:
        arrays.update({f"opt__{i}": np.asarray(v) for i, v in
                       enumerate(model.optimizer.variables)})
    np.savez(base + ".npz", **arrays)
    return {"structure": structure, "compiled": case.y is not None,
            "formats": formats}


def _check_in_keras(folder, names):
    """Write `names`' families with kerasish and load them in Keras."""
    python = keras_python()
    if python is None:
        pytest.skip("Keras not available")
    manifest = {"families": {name: _write_family(str(folder), name)
                             for name in names}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    # JAX compiles every initializer and op shape; its persistent cache
    # makes later runs about three times faster.
    cache = os.path.join(tempfile.gettempdir(), "kerasish-keras-check-jax")
    env = dict(os.environ, KERAS_BACKEND="jax",
               JAX_COMPILATION_CACHE_DIR=cache,
               JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
               JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")
    done = subprocess.run([python, CHECK, str(folder)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])["results"]
    expected = {f"{name}{ext}" for name, info in manifest["families"].items()
                for ext in info["formats"]}
    assert set(results) == expected
    failures = {k: v for k, v in results.items() if not v["ok"]}
    assert not failures, json.dumps(failures, indent=1)[:4000]


@pytest.mark.slow
def test_keras_loads_kerasish_files(tmp_path):
    _check_in_keras(tmp_path, interop.NAMES)


@pytest.mark.slow
def test_keras_loads_state_saved_by_overridden_hooks(tmp_path):
    # A layer's own `save_own_variables` (extra key) and `save_assets`
    # (a file) as kerasish writes them are what Keras's hooks read back.
    _check_in_keras(tmp_path, ["custom_state"])


def test_the_fixture_folder_named_keras_is_not_keras(monkeypatch):
    # Another test puts tests/fixtures on sys.path, where the folder
    # `keras` imports as a namespace package.
    monkeypatch.syspath_prepend(os.path.dirname(interop.FIXTURES))
    monkeypatch.delenv("KERASISH_KERAS_PYTHON", raising=False)
    monkeypatch.setattr(sys.modules[__name__], "KERAS_VENV",
                        "/nonexistent/bin/python")
    assert (keras_python() is not None) == peers.installed("keras")
