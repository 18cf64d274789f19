"""Bad files give clear errors naming the file, the layer and the problem;
nothing on disk changes and a failed load leaves the model untouched."""
import hashlib
import json
import os
import zipfile

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import layers

FORMATS = [".keras", ".h5", ".weights.h5"]


def _model(units=3, use_bias=True, name=None):
    model = kerasish.Sequential([
        kerasish.Input((4,)), layers.Dense(5, name="first"),
        layers.Dense(units, use_bias=use_bias, name="second")], name=name)
    model.compile(optimizer="adam", loss="mean_squared_error")
    return model


def _save(model, path):
    (model.save_weights if path.endswith(".weights.h5") else
     model.save)(path)


def _load(path, model=None, **kwargs):
    if path.endswith(".weights.h5") or model is not None:
        (model or _model()).load_weights(path, **kwargs)
        return model
    return kerasish.models.load_model(path, **kwargs)


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _saved(tmp_path, ext, model=None):
    path = str(tmp_path / f"model{ext}")
    _save(model or _model(), path)
    return path


def _damage(path, how):
    with open(path, "rb") as f:
        data = f.read()
    if how == "truncated":
        data = data[:len(data) // 2]
    elif how == "corrupted":
        middle = len(data) // 2
        data = data[:middle] + bytes(2048) + data[middle + 2048:]
    elif how == "empty":
        data = b""
    else:
        data = b"just some text\n" * 20
    with open(path, "wb") as f:
        f.write(data)


@pytest.mark.parametrize("how", ["truncated", "corrupted", "empty", "text"])
@pytest.mark.parametrize("ext", FORMATS)
def test_damaged_file_names_the_file(tmp_path, ext, how):
    path = _saved(tmp_path, ext)
    _damage(path, how)
    before = _digest(path)
    with pytest.raises(ValueError, match=r"model\.(keras|h5|weights\.h5)"):
        _load(path)
    assert _digest(path) == before


@pytest.mark.parametrize("ext, other", [(".keras", ".h5"),
                                        (".h5", ".keras"),
                                        (".weights.h5", ".keras")])
def test_file_of_another_format(tmp_path, ext, other):
    source = _saved(tmp_path, other)
    path = str(tmp_path / f"renamed{ext}")
    os.rename(source, path)
    with pytest.raises(ValueError, match="renamed") as error:
        _load(path)
    assert "another format" in str(error.value) or \
        "not a readable HDF5" in str(error.value)
    if ext.endswith(".h5"):
        # h5py gives Keras users an OSError for a file that is not HDF5.
        assert isinstance(error.value, OSError)


def test_missing_file_and_unknown_extensions(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.keras"):
        kerasish.models.load_model(str(tmp_path / "nowhere.keras"))
    # Keras raises ValueError for a missing .keras file: both catch it.
    with pytest.raises(ValueError, match="nowhere.keras"):
        kerasish.models.load_model(str(tmp_path / "nowhere.keras"))
    with pytest.raises(ValueError, match="File format not supported"):
        kerasish.models.load_model(str(tmp_path / "model.txt"))
    model = _model()
    with pytest.raises(ValueError, match="Invalid filepath extension"):
        model.save(str(tmp_path / "model.txt"))
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        model.save_weights(str(tmp_path / "w.h5"))
    with pytest.raises(ValueError, match="File format not supported"):
        model.load_weights(str(tmp_path / "w.bin"))
    with pytest.raises(ValueError, match="by_name"):
        model.load_weights(str(tmp_path / "w.weights.h5"), by_name=True)
    assert os.listdir(tmp_path) == []


def test_missing_layer_class(tmp_path):
    path = _saved(tmp_path, ".keras")
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    config = json.loads(members["config.json"])
    config["config"]["layers"][1]["class_name"] = "NoSuchLayer"
    members["config.json"] = json.dumps(config)
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    with pytest.raises(TypeError, match=r"model\.keras.*'NoSuchLayer'"):
        kerasish.models.load_model(path)


def test_missing_layer_class_in_legacy_h5(tmp_path):
    path = _saved(tmp_path, ".h5")
    with h5py.File(path, "a") as f:
        config = json.loads(f.attrs["model_config"])
        config["config"]["layers"][1]["class_name"] = "NoSuchLayer"
        f.attrs["model_config"] = json.dumps(config)
        del f.attrs["kerasish_model_config_crc32"]     # edited on purpose
    with pytest.raises(TypeError, match=r"model\.h5.*'NoSuchLayer'"):
        kerasish.models.load_model(path)


def test_weights_only_h5_is_not_a_model(tmp_path):
    path = str(tmp_path / "weights.h5")
    with h5py.File(path, "w") as f:
        kerasish.saving.legacy_h5_weights.save_weights_to_hdf5_group(
            f, _model())
    with pytest.raises(ValueError, match="No model config found"):
        kerasish.models.load_model(path)
    model = _model()
    model.load_weights(path)        # a weights-only legacy file loads


@pytest.mark.parametrize("ext", FORMATS)
def test_weight_count_mismatch(tmp_path, ext):
    path = _saved(tmp_path, ext)
    target = _model(use_bias=False)
    before = target.get_weights()
    with pytest.raises(ValueError, match=r"model\.") as error:
        target.load_weights(path)
    message = str(error.value)
    assert "second" in message
    assert "1" in message and "2" in message
    for a, b in zip(target.get_weights(), before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("ext", FORMATS)
def test_shape_mismatch_changes_nothing(tmp_path, ext):
    path = _saved(tmp_path, ext)
    before_file = _digest(path)
    target = _model(units=7)
    before = target.get_weights()
    with pytest.raises(ValueError, match="second") as err:
        target.load_weights(path)
    assert "(5, 7)" in str(err.value) and "(5, 3)" in str(err.value)
    # The first layer matched, yet nothing was assigned.
    for a, b in zip(target.get_weights(), before):
        np.testing.assert_array_equal(a, b)
    assert _digest(path) == before_file


@pytest.mark.parametrize("ext", FORMATS)
def test_skip_mismatch_loads_the_rest(tmp_path, ext):
    source = _model()
    path = _saved(tmp_path, ext, source)
    target = _model(units=7)
    with pytest.warns(UserWarning, match="second"):
        target.load_weights(path, skip_mismatch=True)
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(),
                                  source.layers[0].kernel.numpy())


def test_legacy_by_name_skips_other_layers(tmp_path):
    source = _model()
    path = _saved(tmp_path, ".h5", source)
    target = kerasish.Sequential([kerasish.Input((4,)),
                                  layers.Dense(5, name="first"),
                                  layers.Dense(3, name="renamed")])
    kept = target.layers[1].kernel.numpy()
    target.load_weights(path, by_name=True)
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(),
                                  source.layers[0].kernel.numpy())
    np.testing.assert_array_equal(target.layers[1].kernel.numpy(), kept)
    with pytest.raises(ValueError, match="Layer count mismatch"):
        kerasish.Sequential([kerasish.Input((4,)),
                             layers.Dense(5)]).load_weights(path)


def test_legacy_by_name_count_mismatch(tmp_path):
    path = _saved(tmp_path, ".h5")
    target = _model(use_bias=False)
    with pytest.raises(ValueError, match="Weight count mismatch.*second"):
        target.load_weights(path, by_name=True)
    with pytest.warns(UserWarning, match="Weight count mismatch"):
        target.load_weights(path, by_name=True, skip_mismatch=True)


def test_malformed_configs(tmp_path):
    path = _saved(tmp_path, ".h5")
    with h5py.File(path, "a") as f:
        f.attrs["model_config"] = "{not json"
    with pytest.raises(ValueError, match="model_config.*not valid JSON"):
        kerasish.models.load_model(path)
    keras_path = str(tmp_path / "list.keras")
    with zipfile.ZipFile(keras_path, "w") as zf:
        zf.writestr("config.json", "[1, 2]")
        zf.writestr("model.weights.h5", b"")
    with pytest.raises(ValueError, match="does not describe a model"):
        kerasish.models.load_model(keras_path)
    empty_path = str(tmp_path / "empty.keras")
    with zipfile.ZipFile(empty_path, "w") as zf:
        zf.writestr("metadata.json", "{}")
    with pytest.raises(ValueError, match="missing config.json"):
        kerasish.models.load_model(empty_path)


def test_missing_layer_group_in_legacy_weights(tmp_path):
    path = _saved(tmp_path, ".h5")
    with h5py.File(path, "a") as f:
        del f["model_weights/second"]
    with pytest.raises(ValueError, match=r"model\.h5.*second"):
        _model().load_weights(path)
