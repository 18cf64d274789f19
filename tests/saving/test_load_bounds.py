"""Loading does bounded work: declared sizes and archives are checked
against documented bounds before anything is allocated or extracted."""
import io
import json
import os
import time
import warnings
import zipfile

import h5py
import numpy as np
import pytest

import kerasish as keras
from kerasish.saving import limits
from tests.saving.hostile import rewrite_h5_config, rewrite_keras

pytestmark = pytest.mark.timeout(60, method="thread")


def _model():
    model = keras.Sequential([keras.Input((4,)),
                              keras.layers.Embedding(10, 3),
                              keras.layers.Flatten(),
                              keras.layers.Dense(2, name="head")])
    model.compile("adam", "mse")
    model.fit(np.ones((2, 4)), np.ones((2, 2)), verbose=0)
    return model


def _set(layer_name, **values):
    def change(config):
        for layer in config["config"]["layers"]:
            if layer["config"].get("name") == layer_name:
                layer["config"].update(values)
        return config
    return change


@pytest.fixture
def saved(tmp_path):
    model = _model()
    model.save(tmp_path / "m.keras")
    model.save(tmp_path / "m.h5")
    model.save(tmp_path / "dir", zipped=False)
    return tmp_path


def _hostile(saved, change):
    rewrite_keras(saved / "m.keras", saved / "bad.keras", change)
    rewrite_h5_config(saved / "m.h5", change)
    config = saved / "dir" / "config.json"
    config.write_text(json.dumps(change(json.loads(config.read_text()))))
    return [saved / "bad.keras", saved / "m.h5", saved / "dir"]


@pytest.mark.parametrize("layer, values, variable", [
    ("head", {"units": 10 ** 12}, "head/kernel"),
    ("embedding", {"input_dim": 10 ** 12}, "embedding/embeddings"),
    ("embedding", {"output_dim": 60000, "input_dim": 60000},
     "embedding/embeddings")])
def test_declared_sizes_beyond_the_weights_file_are_refused(
        saved, layer, values, variable):
    for path in _hostile(saved, _set(layer, **values)):
        start = time.perf_counter()
        with pytest.raises(ValueError, match=f"{variable}' of "
                           "shape .* more than the file's weights can hold"):
            keras.saving.load_model(path)
        assert time.perf_counter() - start < 5, path


def test_real_models_are_far_from_the_bound(tmp_path):
    model = keras.Sequential([keras.Input((8,)),
                              keras.layers.Embedding(5000, 64),
                              keras.layers.Flatten(),
                              keras.layers.Dense(3)])
    model.compile("adam", "mse")
    model.fit(np.ones((2, 8)), np.ones((2, 3)), verbose=0)
    for name in ("m.keras", "m.h5"):
        model.save(tmp_path / name)
        loaded = keras.saving.load_model(tmp_path / name)
        for a, b in zip(model.get_weights(), loaded.get_weights()):
            np.testing.assert_array_equal(a, b)


def _unwritten(f, path, shape):
    """A dataset of `shape` whose data the file never stores."""
    f.create_dataset(path, shape=shape, dtype="float32", chunks=(100, 100))


def test_a_huge_dataset_declared_in_a_tiny_file_is_not_read(saved):
    with zipfile.ZipFile(saved / "m.keras") as zf:
        data = zf.read("model.weights.h5")
    buffer = io.BytesIO(data)
    with h5py.File(buffer, "r+") as f:
        del f["optimizer/vars/2"]
        _unwritten(f, "optimizer/vars/2", (60000, 60000))
    rewrite_keras(saved / "m.keras", saved / "bad.keras",
                  members={"model.weights.h5": buffer.getvalue()})
    with pytest.raises(ValueError, match=r"optimizer/vars/2|'2' declares "
                       r"shape \(60000, 60000\)"):
        keras.saving.load_model(saved / "bad.keras")


def test_a_huge_optimizer_slot_in_a_legacy_file_is_not_read(saved):
    with h5py.File(saved / "m.h5", "r+") as f:
        group = f["optimizer_weights"]
        name = sorted(group.attrs["weight_names"])[-1]
        name = name.decode() if isinstance(name, bytes) else name
        del group[name]
        _unwritten(group, name, (60000, 60000))
    with pytest.raises(ValueError, match=r"declares shape \(60000, 60000\)"):
        keras.saving.load_model(saved / "m.h5")


def test_an_asset_array_declaring_more_than_it_stores(tmp_path):
    layer = keras.layers.StringLookup(output_mode="tf_idf")
    layer.adapt(np.array([["a", "b"], ["a", "c"]]))
    model = keras.Sequential([keras.Input((2,), dtype="string"), layer])
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as zf:
        name = next(n for n in zf.namelist() if n.endswith(".npy"))
    header = np.lib.format.header_data_from_array_1_0(np.zeros(1, "f4"))
    header["shape"] = (10 ** 10,)
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    rewrite_keras(tmp_path / "m.keras", tmp_path / "bad.keras",
                  members={name: buffer.getvalue() + b"\0" * 16})
    with pytest.raises(ValueError, match=r"declares shape \(10000000000,\)"):
        keras.saving.load_model(tmp_path / "bad.keras")


def _bomb(saved, name, size):
    """The model with member `name` replaced by `size` zero bytes,
    deflated (a ratio near 1000)."""
    out = saved / f"bomb-{name.replace('/', '_')}.keras"
    with zipfile.ZipFile(saved / "m.keras") as src, \
            zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename != name:
                dst.writestr(info, src.read(info.filename))
        dst.writestr(name, b"\0" * size, zipfile.ZIP_DEFLATED)
    return out


@pytest.mark.parametrize("name, size, message", [
    ("config.json", 70 * 2 ** 20, "member 'config.json' declares"),
    ("model.weights.h5", 30 * 2 ** 20, "a ratio over 100"),
    ("assets/layers/bomb/vocabulary.txt", 30 * 2 ** 20, "a ratio over 100"),
])
def test_zip_bombs_are_refused_before_inflating(saved, name, size, message):
    path = _bomb(saved, name, size)
    assert os.path.getsize(path) < size / 100
    with pytest.raises(ValueError, match=message):
        keras.saving.load_model(path)


def test_too_many_members_are_refused(saved):
    with zipfile.ZipFile(saved / "m.keras", "a") as zf:
        for i in range(limits.MAX_ZIP_MEMBERS):
            zf.writestr(f"assets/x/{i}", b"")
    start = time.perf_counter()
    with pytest.raises(ValueError, match="holds 10003 members, more than "
                       "the 10000"):
        keras.saving.load_model(saved / "m.keras")
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("member", ["config.json", "model.weights.h5"])
def test_a_member_named_twice_is_refused(saved, member):
    with zipfile.ZipFile(saved / "m.keras") as zf:
        data = zf.read(member)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # zipfile: "Duplicate name"
        with zipfile.ZipFile(saved / "m.keras", "a") as zf:
            zf.writestr(member, data)
    with pytest.raises(ValueError, match=f"holds the member '{member}' 2 "
                       "times"):
        keras.saving.load_model(saved / "m.keras")


@pytest.mark.parametrize("depth", [limits.MAX_JSON_DEPTH + 1, 100_000])
def test_deeply_nested_json_is_refused(saved, depth):
    text = "[" * depth + "]" * depth
    rewrite_keras(saved / "m.keras", saved / "bad.keras",
                  members={"config.json": text.encode()})
    with h5py.File(saved / "m.h5", "r+") as f:
        f.attrs["model_config"] = text
    (saved / "dir" / "config.json").write_text(text)
    for path in (saved / "bad.keras", saved / "m.h5", saved / "dir"):
        with pytest.raises(ValueError, match="levels deep; at most 100 are "
                           "allowed"):
            keras.saving.load_model(path)


@pytest.mark.timeout(20, method="thread")
@pytest.mark.parametrize("fmt", [".h5", ".weights.h5"])
def test_a_zeroed_global_heap_record_is_refused_not_looped_on(tmp_path,
                                                              fmt):
    # libhdf5 never advances past an empty free-space record of a global
    # heap (where variable-length string attributes live): it would hang.
    model = _model()
    path = tmp_path / f"m{fmt}"
    model.save_weights(path) if fmt == ".weights.h5" else model.save(path)
    data = bytearray(path.read_bytes())
    start = data.index(b"GCOL")
    data[start + 16:start + 32] = bytes(16)
    path.write_bytes(bytes(data))
    load = model.load_weights if fmt == ".weights.h5" else \
        keras.saving.load_model
    with pytest.raises(ValueError, match="global heap .* would make the "
                       "HDF5 library loop forever"):
        load(path)


def test_an_edited_legacy_config_must_drop_its_checksum(saved):
    with h5py.File(saved / "m.h5", "r+") as f:
        f.attrs["model_config"] = f.attrs["model_config"].replace(
            '"head"', '"head2"')
    with pytest.raises(ValueError, match="does not match the checksum .*"
                       "delete the `kerasish_model_config_crc32`"):
        keras.saving.load_model(saved / "m.h5")
    with h5py.File(saved / "m.h5", "r+") as f:
        del f.attrs["kerasish_model_config_crc32"]
    assert keras.saving.load_model(saved / "m.h5").layers[-1].name == \
        "head2"
