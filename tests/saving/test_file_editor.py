"""keras.saving.KerasFileEditor: reading, comparing, editing, resaving.

Summary and comparison texts follow what Keras 3.15.1's editor prints for
the same files (without its colours); match counts are the number of
matching weights (Keras's own count can add a nested object's matches
twice).
"""
import os

import h5py
import numpy as np
import pytest

import kerasish
from kerasish.saving import KerasFileEditor

KERAS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)),
                          "optimizers", "fixtures", "multi_optimizer.keras")


def _mlp(units=1):
    return kerasish.Sequential([kerasish.Input((3,)),
                                kerasish.layers.Dense(2),
                                kerasish.layers.Dense(units)])


@pytest.fixture
def weights_file(tmp_path):
    model = _mlp()
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    return model, path


def test_summary_lists_objects_and_arrays(weights_file, capsys):
    _, path = weights_file
    editor = KerasFileEditor(path)
    editor.summary()
    assert capsys.readouterr().out.splitlines() == [
        f"Keras model file '{path}'",
        "Weights structure",
        "  > layers",
        "      \u251c\u2500 dense ('dense')",
        "      \u2502   \u251c\u2500 0: shape=(3, 2), dtype=float32",
        "      \u2502   \u2514\u2500 1: shape=(2,), dtype=float32",
        "      \u2514\u2500 dense_1 ('dense_1')",
        "          \u251c\u2500 0: shape=(2, 1), dtype=float32",
        "          \u2514\u2500 1: shape=(1,), dtype=float32"]
    assert editor.config is None and editor.metadata is None


def test_compare_reports_shape_and_missing_objects(weights_file, capsys):
    model, path = weights_file
    editor = KerasFileEditor(path)
    assert editor.compare(model) == {"status": "success", "error_count": 0,
                                     "match_count": 4}
    result = editor.compare(_mlp(units=4))
    assert result == {"status": "error", "error_count": 2, "match_count": 2}
    out = capsys.readouterr().out
    assert "...Weight shape mismatch for /layers/dense_1/0\n" \
        "    In reference model: shape=(2, 4)\n" \
        "    In saved file: shape=(2, 1)" in out
    deeper = kerasish.Sequential([kerasish.Input((3,)),
                                  kerasish.layers.Dense(2),
                                  kerasish.layers.Dense(1),
                                  kerasish.layers.Dense(1)])
    assert editor.compare(deeper)["error_count"] == 1
    assert "...Object /layers/dense_2 present in reference model, " \
        "missing from saved file" in capsys.readouterr().out


def test_edit_and_resave_loads_into_changed_model(weights_file, tmp_path):
    model, path = weights_file
    editor = KerasFileEditor(path)
    editor.rename_object("dense_1", "dense_2")
    editor.add_object("layers/dense_1", {"0": np.full((2, 5), 0.5),
                                         "1": np.zeros(5)})
    editor.delete_weight("layers/dense_2", "1")
    editor.add_weights("dense_2", {"1": np.ones(1, "float32")})
    out = str(tmp_path / "edited.weights.h5")
    editor.resave_weights(out)
    changed = kerasish.Sequential([kerasish.Input((3,)),
                                   kerasish.layers.Dense(2),
                                   kerasish.layers.Dense(5),
                                   kerasish.layers.Dense(1)])
    assert KerasFileEditor(out).compare(changed)["status"] == "error"
    changed2 = kerasish.Sequential([kerasish.Input((3,)),
                                    kerasish.layers.Dense(2),
                                    kerasish.layers.Dense(2),
                                    kerasish.layers.Dense(1)])
    editor.delete_object("layers/dense_1")
    editor.add_object("layers/dense_1", {"0": np.eye(2), "1": np.zeros(2)})
    editor.save(out)
    changed2.load_weights(out)
    np.testing.assert_allclose(changed2.layers[0].kernel.numpy(),
                               model.layers[0].kernel.numpy())
    np.testing.assert_allclose(changed2.layers[2].kernel.numpy(),
                               model.layers[1].kernel.numpy())
    np.testing.assert_allclose(changed2.layers[2].bias.numpy(), [1.0])


def test_edit_errors_as_keras(weights_file, tmp_path):
    _, path = weights_file
    editor = KerasFileEditor(path)
    with pytest.raises(ValueError, match="does not appear in the model"):
        editor.delete_object("nothere")
    with pytest.raises(ValueError, match="Path 'layers/x' not found"):
        editor.delete_object("layers/x")
    with pytest.raises(ValueError, match="should be a leaf name"):
        editor.rename_object("dense", "a/b")
    with pytest.raises(ValueError, match="Weight 7 not found in object "
                                         "dense. Weights found"):
        editor.delete_weight("dense", "7")
    with pytest.raises(ValueError, match="should be a dict"):
        editor.add_weights("dense", [np.ones(2)])
    with pytest.raises(ValueError, match="Path 'nope' not found"):
        editor.add_object("nope/dense", {"0": np.ones(2)})
    editor.add_object("extra", {"dense": {"0": np.ones(1)}})
    with pytest.raises(ValueError, match="occurs more than once"):
        editor.delete_object("dense")
    with pytest.raises(ValueError, match="expected a `.weights.h5`"):
        editor.save(str(tmp_path / "x.h5"))
    with pytest.raises(ValueError, match="Invalid filename"):
        KerasFileEditor(str(tmp_path / "x.h5"))


def test_keras_written_file_reads_and_resaves_whole(tmp_path, capsys):
    editor = KerasFileEditor(KERAS_FILE)
    out = capsys.readouterr().out
    assert "Saved with Keras 3.15.1 - date: " in out
    assert editor.config["class_name"] == "Functional"
    optimizer = editor.weights_dict["optimizer"]
    assert list(optimizer)[:2] == ["0", "1"]
    assert set(optimizer["optimizers"]) == {"adam", "sgd"}
    resaved = str(tmp_path / "r.weights.h5")
    editor.save(resaved)
    model = kerasish.models.load_model(KERAS_FILE)
    reloaded = kerasish.models.load_model(KERAS_FILE)
    reloaded.load_weights(resaved)
    for a, b in zip(model.get_weights(), reloaded.get_weights()):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(model.optimizer.variables, reloaded.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert editor.compare(model)["status"] == "success"


def test_listed_lazily_in_keras_saving():
    assert "KerasFileEditor" in dir(kerasish.saving)
    assert kerasish.saving.KerasFileEditor is KerasFileEditor


def test_unsafe_files_are_refused(weights_file, tmp_path):
    _, path = weights_file
    with h5py.File(path, "a") as f:
        f["layers/dense/vars/link"] = h5py.SoftLink("/layers/dense_1")
    with pytest.raises(ValueError, match="Not allowed"):
        KerasFileEditor(path)


def test_save_is_atomic(weights_file, tmp_path):
    _, path = weights_file
    editor = KerasFileEditor(path)
    editor.add_weights("dense", {"bad": object()})
    target = str(tmp_path / "t.weights.h5")
    with open(target, "wb") as f:
        f.write(b"previous")
    with pytest.raises(TypeError):
        editor.save(target)
    with open(target, "rb") as f:
        assert f.read() == b"previous"
    assert [n for n in os.listdir(tmp_path) if n.startswith(".tmp")] == []
