"""Keras's per-layer saving hooks: `save_own_variables` / `load_own_variables`
on every layer, and `save_assets` / `load_assets` where a layer has them.

The user layers are the fixtures' `custom_state` family (the pattern of
Keras's guide to custom saving); Keras's own files of that family are
loaded in tests/saving/test_keras_fixtures.py, and Keras loading
kerasish's in tests/saving/test_keras_loads_kerasish.py.
"""
import io
import zipfile

import h5py
import numpy as np
import pytest

import kerasish
from tests.fixtures import families
from tests.saving import interop


def _case():
    return families.FAMILIES["custom_state"](kerasish)


def _layers(model):
    return {type(layer).__name__: layer for layer in model.layers}


def _reset(model, calibration=True, offsets=True):
    """Reset what only the hooks restore, so a load must bring it back."""
    layers = _layers(model)
    if calibration:
        layers["CalibratedDense"].calibration = np.ones(3, "float32")
    if offsets:
        layers["FileOffset"].offsets = np.zeros(2, "float32")


# -- the base methods ---------------------------------------------------------
def test_base_save_writes_own_variables_by_index_in_keras_order():
    layer = kerasish.layers.BatchNormalization()
    layer.build((None, 3))
    store = {}
    layer.save_own_variables(store)
    assert list(store) == ["0", "1", "2", "3"]
    names = [store[k].name for k in store]
    assert names == ["gamma", "beta", "moving_mean", "moving_variance"]


def test_base_save_writes_nothing_of_sublayers():
    outer = kerasish.Sequential([kerasish.Input((2,)),
                                 kerasish.layers.Dense(3)])
    store = {}
    outer.save_own_variables(store)
    assert store == {}


def test_base_load_assigns_by_index():
    layer = kerasish.layers.Dense(2)
    layer.build((None, 3))
    kernel = np.arange(6, dtype="float32").reshape(3, 2)
    layer.load_own_variables({"0": kernel, "1": np.ones(2)})
    np.testing.assert_array_equal(layer.kernel.numpy(), kernel)
    np.testing.assert_array_equal(layer.bias.numpy(), [1.0, 1.0])


def test_base_load_with_a_wrong_count_raises_keras_error():
    layer = kerasish.layers.Dense(2, name="d")
    layer.build((None, 3))
    with pytest.raises(ValueError, match=r"Layer 'd' expected 2 variables, "
                       r"but received 1 variables during loading\. "
                       r"Expected: \['kernel', 'bias'\]"):
        layer.load_own_variables({"0": np.zeros((3, 2))})


def test_base_load_on_an_unbuilt_layer_raises_keras_error():
    layer = kerasish.layers.Dense(2, name="d")
    with pytest.raises(ValueError, match="Layer 'd' was never built and "
                       "thus it doesn't have any variables. However the "
                       "weights file lists 2 variables"):
        layer.load_own_variables({"0": 0, "1": 1})


def test_base_layer_has_no_asset_hooks_as_in_keras():
    layer = kerasish.layers.Dense(2)
    assert not hasattr(layer, "save_assets")
    assert not hasattr(layer, "load_assets")


def test_lora_layer_saves_the_merged_kernel_through_the_hook():
    layer = kerasish.layers.Dense(2)
    layer.build((None, 3))
    layer.enable_lora(1)
    layer.lora_kernel_b.assign(np.ones((1, 2)))
    store = {}
    layer.save_own_variables(store)
    assert sorted(store) == ["0", "1"]
    merged = layer.kernel.numpy()
    np.testing.assert_allclose(np.asarray(store["0"]), merged)


# -- routed through by saving ------------------------------------------------
def _save(model, path):
    if path.endswith(".weights.json"):
        model.save_weights(path, max_shard_size=1e-7)  # two shards
    else:
        families.save(model, path)


@pytest.mark.parametrize("ext", [".keras", "_dir", ".weights.h5",
                                 ".weights.json"])
def test_overridden_hooks_are_honoured_on_save_and_load(tmp_path, ext):
    case = _case()
    model = case.model
    expected = model.predict(case.x, verbose=0)
    path = str(tmp_path / f"model{ext}")
    _save(model, path)
    if ext in (".keras", "_dir"):
        loaded = kerasish.models.load_model(
            path, custom_objects=interop.custom_objects("custom_state"))
    else:
        loaded = _case().model
        _reset(loaded, offsets=False)   # weights files hold no assets
        loaded.load_weights(path)
    layers = _layers(loaded)
    np.testing.assert_array_equal(
        layers["CalibratedDense"].calibration,
        _layers(model)["CalibratedDense"].calibration)
    np.testing.assert_allclose(loaded.predict(case.x, verbose=0), expected,
                               rtol=1e-6, atol=1e-6)


def _weights_file(path):
    if path.endswith(".keras"):
        with zipfile.ZipFile(path) as zf:
            return h5py.File(io.BytesIO(zf.read("model.weights.h5")), "r")
    return h5py.File(path, "r")


@pytest.mark.parametrize("ext", [".keras", ".weights.h5"])
def test_an_overridden_save_writes_its_own_key(tmp_path, ext):
    model = _case().model
    path = str(tmp_path / f"model{ext}")
    families.save(model, path)
    with _weights_file(path) as f:
        group = f["layers/calibrated_dense/vars"]
        assert sorted(group) == ["0", "1", "calibration"]
        assert group.attrs["name"] == "calibrated_dense"
        np.testing.assert_array_equal(
            group["calibration"][()],
            _layers(model)["CalibratedDense"].calibration)


def test_assets_go_to_the_layer_folder_of_keras_files_only(tmp_path):
    model = _case().model
    offsets = _layers(model)["FileOffset"].offsets
    model.save(str(tmp_path / "m.keras"))
    with zipfile.ZipFile(tmp_path / "m.keras") as zf:
        assert [n for n in zf.namelist() if n.startswith("assets/")] == \
            ["assets/layers/file_offset/offsets.txt"]
    loaded = kerasish.models.load_model(
        str(tmp_path / "m.keras"),
        custom_objects=interop.custom_objects("custom_state"))
    np.testing.assert_array_equal(_layers(loaded)["FileOffset"].offsets,
                                  offsets)
    # `.weights.h5` holds no assets: the layer keeps what it has.
    model.save_weights(str(tmp_path / "m.weights.h5"))
    other = _case().model
    _reset(other)
    other.load_weights(str(tmp_path / "m.weights.h5"))
    np.testing.assert_array_equal(_layers(other)["FileOffset"].offsets,
                                  [0.0, 0.0])


def test_an_override_on_a_nested_layer_is_honoured(tmp_path):
    classes = interop.custom_objects("custom_state")

    class Block(kerasish.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = classes["CalibratedDense"](2)

        def call(self, x):
            return self.inner(x)

    model = kerasish.Sequential([kerasish.Input((3,)), Block()])
    model.layers[0].inner.calibration = np.array([3.0, -1.0], "float32")
    model.save_weights(str(tmp_path / "m.weights.h5"))
    other = kerasish.Sequential([kerasish.Input((3,)), Block()])
    other.load_weights(str(tmp_path / "m.weights.h5"))
    np.testing.assert_array_equal(other.layers[0].inner.calibration,
                                  [3.0, -1.0])


def test_an_override_failing_with_skip_mismatch_warns_and_skips(tmp_path):
    class Strict(kerasish.layers.Dense):
        def load_own_variables(self, store):
            raise ValueError("wrong state")

    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(2)])
    model.save_weights(str(tmp_path / "m.weights.h5"))
    other = kerasish.Sequential([kerasish.Input((3,)), Strict(2)])
    before = other.get_weights()
    with pytest.warns(UserWarning, match="Skipping loading weights for "
                      "layer 'strict'.*wrong state"):
        other.load_weights(str(tmp_path / "m.weights.h5"),
                           skip_mismatch=True)
    for got, old in zip(other.get_weights(), before):
        np.testing.assert_array_equal(got, old)
    with pytest.raises(ValueError, match="wrong state"):
        other.load_weights(str(tmp_path / "m.weights.h5"))


def test_the_stores_answer_keys_len_and_in(tmp_path):
    seen = {}

    class Inspecting(kerasish.layers.Dense):
        def save_own_variables(self, store):
            super().save_own_variables(store)
            seen["save"] = (sorted(store.keys()), len(store), "1" in store,
                            "2" in store)

        def load_own_variables(self, store):
            seen["load"] = (sorted(store.keys()), len(store), "1" in store,
                            "2" in store)
            super().load_own_variables(store)

    model = kerasish.Sequential([kerasish.Input((3,)), Inspecting(2)])
    model.save_weights(str(tmp_path / "m.weights.h5"))
    model.load_weights(str(tmp_path / "m.weights.h5"))
    assert seen["save"] == seen["load"] == (["0", "1"], 2, True, False)
