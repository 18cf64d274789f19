"""Sharded weights files (`.weights.json` + shards), Keras 3's layout.

`tests/fixtures/keras/sharded` was written by real Keras 3.15 (JAX) with
its `make_sharded.py`: a trained model's weights and Adam state in three
shards of at most 200 bytes.
"""
import json
import os

import numpy as np
import pytest

import kerasish
from tests.fixtures.keras.sharded import make_sharded as fixture

FOLDER = os.path.join(os.path.dirname(fixture.__file__))
EXPECTED = np.load(os.path.join(FOLDER, "expected.npz"))


def _trained_model():
    model = fixture.build(kerasish)
    model.fit(fixture.X, fixture.Y, epochs=1, shuffle=False, verbose=0)
    return model


def _shards(folder, base):
    return sorted(f for f in os.listdir(folder)
                  if f.startswith(base + "_") and f.endswith(".weights.h5"))


def test_loads_the_shards_keras_wrote():
    model = _trained_model()
    model.load_weights(os.path.join(FOLDER, "small.weights.json"))
    np.testing.assert_allclose(model.predict(fixture.X, verbose=0),
                               EXPECTED["pred"], rtol=1e-5, atol=1e-6)
    for i, weight in enumerate(model.get_weights()):
        np.testing.assert_array_equal(weight, EXPECTED[f"w{i}"])
    for i, variable in enumerate(model.optimizer.variables):
        np.testing.assert_array_equal(variable.numpy(), EXPECTED[f"opt{i}"])


def test_writes_keras_layout_and_reads_it_back(tmp_path):
    model = _trained_model()
    path = str(tmp_path / "small.weights.json")
    model.save_weights(path, max_shard_size=fixture.MAX_SHARD_SIZE)
    with open(path) as f:
        written = json.load(f)
    with open(os.path.join(FOLDER, "small.weights.json")) as f:
        keras_wrote = json.load(f)
    # The same model and limit give Keras's index and shards exactly.
    assert written == keras_wrote
    assert _shards(tmp_path, "small") == _shards(FOLDER, "small")
    clone = fixture.build(kerasish)
    clone.fit(fixture.X, fixture.Y, epochs=1, shuffle=False, verbose=0)
    clone.load_weights(path)
    for a, b in zip(clone.get_weights() + clone.optimizer.variables,
                    model.get_weights() + model.optimizer.variables):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_weights_h5_name_is_renamed_with_keras_warning(tmp_path):
    model = _trained_model()
    with pytest.warns(UserWarning, match="renamed to .*w.weights.json"):
        model.save_weights(str(tmp_path / "w.weights.h5"), max_shard_size=1)
    assert sorted(os.listdir(tmp_path)) == ["w.weights.json",
                                            "w_00000.weights.h5"]


def test_errors(tmp_path):
    model = _trained_model()
    with pytest.raises(ValueError, match="exceeds the maximum shard size"):
        model.save_weights(str(tmp_path / "a.weights.json"),
                           max_shard_size=10 / 1024 ** 3)
    assert not os.path.exists(tmp_path / "a.weights.json")
    with pytest.raises(ValueError, match="must end in `.weights.json`"):
        model.save_weights(str(tmp_path / "a.bin"), max_shard_size=1)
    path = str(tmp_path / "b.weights.json")
    model.save_weights(path, max_shard_size=fixture.MAX_SHARD_SIZE)
    os.remove(tmp_path / "b_00001.weights.h5")
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(FileNotFoundError, match="b_00001.weights.h5"):
        model.load_weights(path)
    for weight, kept in zip(model.get_weights(), before):
        np.testing.assert_array_equal(weight, kept)
