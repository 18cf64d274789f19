"""kerasish's own `.keras` and `.weights.h5` files, round trip."""
import json
import os
import zipfile

import numpy as np
import pytest

import kerasish
from kerasish import layers

X = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
Y = np.linspace(0, 1, 6, dtype="float32").reshape(3, 2)


def _model():
    inputs = kerasish.Input((4,), name="x")
    hidden = layers.Dense(5, activation="relu", name="hidden")(inputs)
    outputs = layers.Dense(2, name="out")(hidden)
    model = kerasish.Model(inputs, outputs)
    model.compile(optimizer=kerasish.optimizers.Adam(0.05),
                  loss="mean_squared_error", metrics=["mae"])
    return model


def _trained():
    model = _model()
    for _ in range(3):
        model.train_on_batch(X, Y)
    return model


def _assert_same_state(a, b):
    for x, y in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_array_equal(x, y)
    for x, y in zip(a.optimizer.variables, b.optimizer.variables):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


def test_keras_file_resumes_training_exactly(tmp_path):
    model = _trained()
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    _assert_same_state(loaded, model)
    assert loaded.get_compile_config() == model.get_compile_config()
    model.train_on_batch(X, Y)
    loaded.train_on_batch(X, Y)
    _assert_same_state(loaded, model)
    assert loaded.evaluate(X, Y, verbose=0) == model.evaluate(X, Y,
                                                              verbose=0)


def test_zip_members_and_metadata(tmp_path):
    path = str(tmp_path / "m.keras")
    _trained().save(path)
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["config.json", "metadata.json",
                                         "model.weights.h5"]
        assert {i.compress_type for i in zf.infolist()} == \
            {zipfile.ZIP_STORED}
        metadata = json.loads(zf.read("metadata.json"))
        config = json.loads(zf.read("config.json"))
    assert metadata["keras_version"] == "3.15.1"
    assert set(metadata) >= {"keras_version", "date_saved"}
    assert config["compile_config"]["loss"] == "mean_squared_error"
    assert config["build_config"] == {"input_shape": None}


def test_weights_file_carries_optimizer_state(tmp_path):
    model = _trained()
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    other = _model()
    other.optimizer.build(other.trainable_variables)
    other.load_weights(path)
    _assert_same_state(other, model)


def test_include_optimizer_false_and_compile_false(tmp_path):
    model = _trained()
    bare = str(tmp_path / "bare.keras")
    model.save(bare, include_optimizer=False)
    with zipfile.ZipFile(bare) as zf:
        assert "compile_config" not in json.loads(zf.read("config.json"))
    assert not kerasish.models.load_model(bare).compiled
    full = str(tmp_path / "full.keras")
    model.save(full)
    loaded = kerasish.models.load_model(full, compile=False)
    assert not loaded.compiled
    np.testing.assert_allclose(loaded.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def test_objects_to_skip(tmp_path):
    model = _trained()
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    other = _model()
    other.optimizer.build(other.trainable_variables)
    kept = other.get_layer("out").kernel.numpy()
    other.load_weights(path, objects_to_skip=[other.get_layer("out")])
    np.testing.assert_array_equal(other.get_layer("hidden").kernel.numpy(),
                                  model.get_layer("hidden").kernel.numpy())
    np.testing.assert_array_equal(other.get_layer("out").kernel.numpy(),
                                  kept)
    with pytest.raises(ValueError, match="objects_to_skip"):
        other.load_weights(str(tmp_path / "m.keras"),
                           objects_to_skip=[other.get_layer("out")])


def test_unbuilt_model_cannot_save_weights(tmp_path):
    model = kerasish.Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match="not yet been built"):
        model.save_weights(str(tmp_path / "m.weights.h5"))
    with pytest.raises(ValueError, match="not yet been built"):
        model.save_weights(str(tmp_path / "m.weights.json"),
                           max_shard_size=1)


def test_public_saving_functions(tmp_path):
    model = _trained()
    path = str(tmp_path / "m.keras")
    kerasish.saving.save_model(model, path)
    loaded = kerasish.saving.load_model(path)
    weights = str(tmp_path / "m.weights.h5")
    kerasish.saving.save_weights(loaded, weights)
    fresh = _model()
    # The fresh optimizer has no slots yet: leave it out (no warning).
    kerasish.saving.load_weights(fresh, weights,
                                 objects_to_skip=[fresh.optimizer])
    np.testing.assert_allclose(fresh.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def _lookup_model():
    lookup = layers.IntegerLookup()
    lookup.adapt(np.array([7, 3, 3, 9, 7, 3]))
    return kerasish.Sequential([kerasish.Input((2,), dtype="int64"),
                                lookup])


def test_layer_assets_round_trip(tmp_path):
    model = _lookup_model()
    path = str(tmp_path / "lookup.keras")
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        assert "assets/layers/integer_lookup/vocabulary.txt" in \
            zf.namelist()
    loaded = kerasish.models.load_model(path)
    assert loaded.layers[0].get_vocabulary() == [-1, 3, 7, 9]
    x = np.array([[3, 9], [5, 7]])
    np.testing.assert_array_equal(loaded.predict(x, verbose=0),
                                  model.predict(x, verbose=0))


def test_asset_outside_its_folder_is_refused(tmp_path):
    path = str(tmp_path / "lookup.keras")
    _lookup_model().save(path)
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr("assets/../../escaped.txt", "x")
    with pytest.raises(ValueError, match="outside the assets folder"):
        kerasish.models.load_model(path)
    assert not (tmp_path.parent / "escaped.txt").exists()


def test_unzipped_folder_round_trip(tmp_path):
    model = _trained()
    path = str(tmp_path / "model_dir")
    model.save(path, zipped=False)
    model.save(path, zipped=False)          # replaces the folder
    assert sorted(os.listdir(path)) == ["assets", "config.json",
                                        "metadata.json", "model.weights.h5"]
    assert sorted(os.listdir(tmp_path)) == ["model_dir"]
    loaded = kerasish.models.load_model(path)
    _assert_same_state(loaded, model)
    with pytest.raises(ValueError, match="should not end in `.keras`"):
        model.save(str(tmp_path / "m.keras"), zipped=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("builtins.input", lambda prompt: "n")
        assert model.save(path, zipped=False, overwrite=False) is None
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="not a folder of a saved model"):
        model.save(str(tmp_path / "other"), zipped=False)
    assert (tmp_path / "other" / "notes.txt").read_text() == "keep me"


def test_weight_paths_survive_loading(tmp_path):
    # kerasish keeps paths stable across a reload (a replica rebuilt from
    # config places its variables by path); Keras builds reloaded layers
    # outside the model's name scope, so its paths lose the model's name.
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 layers.Dense(2, name="d"),
                                 layers.Dense(1, name="e")], name="seq")
    model.compile("adam", "mse")
    model.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0)
    path = str(tmp_path / "s.keras")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    assert [w.path for w in loaded.weights] == [w.path for w in
                                                model.weights] == [
        "seq/d/kernel", "seq/d/bias", "seq/e/kernel", "seq/e/bias"]
    assert [v.path for v in loaded.optimizer.variables] == \
        [v.path for v in model.optimizer.variables]
