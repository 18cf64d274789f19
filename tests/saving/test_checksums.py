"""Every weight array kerasish writes carries a checksum, which loading
checks: a flipped bit is an error naming the array, never other weights
loaded silently. Keras ignores the attribute (test_keras_loads_kerasish
runs real Keras on these files)."""
import io
import zipfile

import h5py
import numpy as np
import pytest

import kerasish as keras
from kerasish.saving.h5_store import CHECKSUM_ATTR
from tests.saving.hostile import rewrite_keras


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                              keras.layers.BatchNormalization(),
                              keras.layers.Dense(2, name="head")])
    model.compile("adam", "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    return model


def _datasets(f):
    found = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            found[name] = obj
    f.visititems(visit)
    return found


def _flip(raw, f_or_path, name):
    """Flip one bit in the middle of dataset `name`'s stored data."""
    with h5py.File(f_or_path, "r") as f:
        dataset = f[name]
        offset = dataset.id.get_offset() + dataset.id.get_storage_size() // 2
    raw[offset] ^= 0x10
    return raw


def test_every_numeric_array_has_a_checksum(tmp_path):
    model = _model()
    for name in ("m.weights.h5", "m.h5"):
        model.save_weights(tmp_path / name) if name.endswith(
            ".weights.h5") else model.save(tmp_path / name)
        with h5py.File(tmp_path / name, "r") as f:
            datasets = _datasets(f)
            assert len(datasets) >= 10
            assert all(CHECKSUM_ATTR in d.attrs for d in datasets.values())


@pytest.mark.parametrize("fmt", [".weights.h5", ".h5", ".keras"])
def test_a_flipped_bit_in_a_weight_names_the_array(tmp_path, fmt):
    model = _model()
    path = tmp_path / f"m{fmt}"
    if fmt == ".weights.h5":
        model.save_weights(path)
    else:
        model.save(path)
    if fmt == ".keras":
        raw = bytearray(zipfile.ZipFile(path).read("model.weights.h5"))
        name = "layers/dense_1/vars/0"
        _flip(raw, io.BytesIO(bytes(raw)), name)
        rewrite_keras(path, tmp_path / "bad.keras",
                      members={"model.weights.h5": bytes(raw)})
        path = tmp_path / "bad.keras"
    else:
        raw = bytearray(path.read_bytes())
        with h5py.File(path, "r") as f:
            name = next(n for n in _datasets(f) if n.endswith(
                ("head/kernel", "layers/dense_1/vars/0")))
        path.write_bytes(_flip(raw, path, name))
    loader = (model.load_weights if fmt == ".weights.h5"
              else keras.saving.load_model)
    with pytest.raises(ValueError, match=f"the array at '/{name}' .* does "
                       "not match the checksum"):
        loader(path)


def test_files_without_checksums_still_load(tmp_path):
    model = _model()
    path = tmp_path / "m.weights.h5"
    model.save_weights(path)
    with h5py.File(path, "r+") as f:
        for dataset in _datasets(f).values():
            del dataset.attrs[CHECKSUM_ATTR]
    other = _model()
    other.load_weights(path)
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_a_dtype_reinterpreted_in_place_is_caught():
    from kerasish.saving.h5_store import checksum
    value = np.arange(6, dtype="float32").reshape(2, 3)
    assert checksum(value) != checksum(value.view("int32"))
    assert checksum(value) != checksum(value.reshape(3, 2))
    assert checksum(np.array(["a", "b"])) is None
