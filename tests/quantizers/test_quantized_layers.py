"""Quantized Dense / EinsumDense / Embedding against Keras 3.15.1.

tests/fixtures/quantization/make_models.py (Keras 3.15.1, JAX) wrote
models.npz (float weights, inputs, outputs after `model.quantize`, float8
training results) and `<model>_<mode>.keras` files of the quantized models.
"""
import json
import os
import warnings
import zipfile

import numpy as np
import pytest

import kerasish
from kerasish import layers, quantizers

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures",
                        "quantization")
REF = np.load(os.path.join(FIXTURES, "models.npz"))
MODES = {
    "int8": ("int8", None),
    "int4": ("int4", None),
    "int4pc": (None, lambda: quantizers.Int4QuantizationConfig(
        block_size=-1)),
    "int4b2": (None, lambda: quantizers.Int4QuantizationConfig(
        block_size=2)),
    "float8": ("float8", None),
}
CASES = [(model, tag) for model in ("dense", "einsum") for tag in MODES]


def dense_model():
    return kerasish.Sequential([
        kerasish.Input((5,)), layers.Dense(7, activation="relu", name="d1"),
        layers.Dense(3, name="d2")], name="dense_model")


def einsum_model():
    inputs = kerasish.Input((4,), dtype="int32")
    h = layers.Embedding(12, 6, name="emb")(inputs)
    h = layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3),
                           bias_axes="de", name="proj")(h)
    h = layers.Reshape((4, 6))(h)
    outputs = layers.EinsumDense("abc,cd->abd", output_shape=(None, 5),
                                 name="out")(h)
    return kerasish.Model(inputs, outputs, name="einsum_model")


BUILDERS = {"dense": dense_model, "einsum": einsum_model}


def float_model(name):
    model = BUILDERS[name]()
    count = len(model.get_weights())
    model.set_weights([REF[f"{name}_w{i}"] for i in range(count)])
    return model


def quantize(model, tag):
    mode, config = MODES[tag]
    with warnings.catch_warnings():
        # As Keras: layers without a quantized variant are skipped with a
        # warning (InputLayer, Reshape).
        warnings.simplefilter("ignore", UserWarning)
        model.quantize(mode, config=config() if config else None)
    return model


def load_keras_file(name, tag):
    path = os.path.join(FIXTURES, f"{name}_{tag}.keras")
    return kerasish.saving.load_model(path)


@pytest.mark.parametrize("name,tag", CASES)
def test_quantized_outputs_match_keras(name, tag):
    model = quantize(float_model(name), tag)
    x = REF[f"{name}_x"]
    np.testing.assert_allclose(model(x), REF[f"{name}_{tag}_y"],
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,tag", CASES)
def test_keras_written_files_load_with_the_same_weights(name, tag):
    ours = quantize(float_model(name), tag)
    theirs = load_keras_file(name, tag)
    # Same variables (a layer built from a quantized config creates them
    # in another order than `quantize` does, in Keras as here).
    ours = {w.path: w for w in ours.weights}
    assert sorted(w.path for w in theirs.weights) == sorted(ours)
    for a in theirs.weights:
        b = ours[a.path]
        assert a.shape == b.shape and a.dtype == b.dtype, a.path
        np.testing.assert_allclose(np.asarray(a, "float64"),
                                   np.asarray(b, "float64"),
                                   rtol=1e-6, atol=1e-6, err_msg=a.path)
    x = REF[f"{name}_x"]
    np.testing.assert_allclose(theirs(x), REF[f"{name}_{tag}_y"],
                               rtol=1e-5, atol=1e-5)


def _without_shared_ids(value):
    # `shared_object_id` is an id() of the saving process, and which copy
    # of a shared config carries it differs: both files load either way.
    if isinstance(value, dict):
        return {k: _without_shared_ids(v) for k, v in value.items()
                if k != "shared_object_id"}
    return value


def _layer_configs(config):
    return {layer["config"]["name"]: _without_shared_ids(layer["config"])
            for layer in config["config"]["layers"]}


@pytest.mark.parametrize("name,tag", CASES)
def test_quantized_configs_match_keras(name, tag, tmp_path):
    model = quantize(float_model(name), tag)
    path = str(tmp_path / "model.keras")
    model.save(path)
    with zipfile.ZipFile(os.path.join(FIXTURES, f"{name}_{tag}.keras")) as z:
        theirs = _layer_configs(json.loads(z.read("config.json")))
    with zipfile.ZipFile(path) as z:
        ours = _layer_configs(json.loads(z.read("config.json")))
    shared = set(theirs) & set(ours)   # input layers' names differ
    assert {"d1", "d2"} <= shared or {"emb", "proj", "out"} <= shared
    for layer in shared:
        config = theirs[layer]
        for key in ("dtype", "quantization_config"):
            assert ours[layer].get(key) == config.get(key), (layer, key)
    back = kerasish.saving.load_model(path)
    x = REF[f"{name}_x"]
    np.testing.assert_allclose(back(x), model(x), rtol=0, atol=0)


def test_quantized_policy_names():
    model = quantize(float_model("dense"), "int4b2")
    assert model.get_layer("d1").dtype_policy.name == \
        "int4/2_from_float32"
    model = quantize(float_model("einsum"), "int8")
    assert model.get_layer("emb").dtype_policy.name == "int8_from_float32"
    assert model.get_layer("emb").quantization_mode == "int8"


def test_float8_training_matches_keras():
    model = quantize(float_model("dense"), "float8")
    model.compile(optimizer=kerasish.optimizers.SGD(0.1), loss="mse")
    history = model.fit(REF["f8_x"], REF["f8_y"], batch_size=4, epochs=2,
                        shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], REF["f8_loss"],
                               rtol=1e-5)
    for i, w in enumerate(model.get_layer("d1").weights):
        np.testing.assert_allclose(w, REF[f"f8_d1_{i}"], rtol=1e-5,
                                   atol=1e-6, err_msg=w.path)
    np.testing.assert_allclose(model(REF["f8_x"]), REF["f8_pred"],
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("tag", ["int8", "int4"])
def test_int_quantized_model_trains_its_float_weights(tag):
    model = quantize(float_model("dense"), tag)
    layer = model.get_layer("d1")
    assert [w.name for w in layer.trainable_weights] == ["bias"]
    model.compile(optimizer="sgd", loss="mse")
    before = layer.bias.numpy()
    model.fit(REF["f8_x"], REF["f8_y"], verbose=0)
    assert not np.allclose(layer.bias.numpy(), before)


def test_quantize_errors_match_keras():
    dense = layers.Dense(2)
    with pytest.raises(ValueError, match="isn't yet built"):
        dense.quantize("int8")
    dense.build((None, 3))
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        dense.quantize("int3")
    dense.quantize("int8")
    with pytest.raises(ValueError, match="already quantized"):
        dense.quantize("int8")
    float16 = layers.Dense(2, dtype="float16")
    float16.build((None, 3))
    with pytest.raises(ValueError, match="compute_dtype='float16'"):
        float16.quantize("int8")


def test_quantize_by_setting_a_quantized_policy():
    dense = layers.Dense(2)
    dense.build((None, 3))
    dense.dtype_policy = "int8_from_float32"
    assert dense.quantization_mode == "int8"
    assert dense.kernel.dtype == "int8"
