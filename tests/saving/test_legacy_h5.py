"""Legacy `.h5` model files: kerasish's own, large ones, Keras 2's."""
import json
import logging

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.saving import legacy_config, legacy_h5_weights

X = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
Y = np.eye(3, dtype="float32")


def _trained():
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 layers.Dense(5, activation="tanh"),
                                 layers.Dense(3, activation="softmax")])
    model.compile(optimizer=kerasish.optimizers.Adam(0.05),
                  loss="categorical_crossentropy", metrics=["accuracy"])
    for _ in range(2):
        model.train_on_batch(X, Y)
    return model


def test_round_trip_resumes_training_exactly(tmp_path):
    model = _trained()
    path = str(tmp_path / "m.h5")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    assert loaded.get_compile_config()["metrics"] == ["accuracy"]
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    model.train_on_batch(X, Y)
    loaded.train_on_batch(X, Y)
    for a, b in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_file_layout(tmp_path):
    path = str(tmp_path / "m.h5")
    _trained().save(path)
    with h5py.File(path, "r") as f:
        assert set(f.attrs) == {"keras_version", "backend", "model_config",
                                "training_config",
                                "kerasish_model_config_crc32",
                                "kerasish_training_config_crc32"}
        config = json.loads(f.attrs["model_config"])
        assert config["class_name"] == "Sequential"
        assert "module" not in config["config"]["layers"][1]
        training = json.loads(f.attrs["training_config"])
        assert training["optimizer_config"]["class_name"] == "Adam"
        weights = f["model_weights"]
        assert list(legacy_h5_weights.load_attributes(
            weights, "layer_names")) == ["dense", "dense_1"]
        assert legacy_h5_weights.load_attributes(weights["dense"],
                                                 "weight_names") == \
            ["sequential/dense/kernel", "sequential/dense/bias"]
        assert f["optimizer_weights/adam/iteration"][()] == 2


def test_include_optimizer_false(tmp_path, caplog):
    path = str(tmp_path / "m.h5")
    model = _trained()
    model.save(path, include_optimizer=False)
    with h5py.File(path, "r") as f:
        assert "training_config" not in f.attrs
        assert "optimizer_weights" not in f
    with caplog.at_level(logging.WARNING, logger="kerasish.saving"):
        loaded = kerasish.models.load_model(path)
    assert "not compiled" in caplog.text
    assert not loaded.compiled
    np.testing.assert_allclose(loaded.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def test_compile_false_skips_training_config(tmp_path):
    path = str(tmp_path / "m.h5")
    _trained().save(path)
    assert not kerasish.models.load_model(path, compile=False).compiled


def test_long_attributes_are_chunked(tmp_path):
    # 70 layers with 1000-character names: layer_names exceeds the 64 KiB
    # HDF5 attribute limit and is split into layer_names0, layer_names1.
    names = [f"{i:03d}" + "x" * 997 for i in range(70)]
    model = kerasish.Sequential(
        [kerasish.Input((2,))] + [layers.Dense(2, name=n) for n in names])
    path = str(tmp_path / "long.h5")
    model.save(path)
    with h5py.File(path, "r") as f:
        attrs = set(f["model_weights"].attrs)
        assert "layer_names" not in attrs
        assert {"layer_names0", "layer_names1"} <= attrs
        assert all(f["model_weights"].attrs[k].nbytes <=
                   legacy_h5_weights.HDF5_OBJECT_HEADER_LIMIT
                   for k in attrs if k.startswith("layer_names"))
    loaded = kerasish.models.load_model(path)
    assert [layer.name for layer in loaded.layers] == names
    x = np.ones((1, 2), "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


def test_attribute_larger_than_the_limit_is_refused(tmp_path):
    with h5py.File(str(tmp_path / "a.h5"), "w") as f:
        with pytest.raises(RuntimeError, match="larger than 64512"):
            legacy_h5_weights.save_attributes(f, "names", [b"x" * 70000])


# -- files written by Keras 2 (tf.keras 2.x layout, written by hand) ----------
def _keras2_dense(name, units, activation, **extra):
    return {"class_name": "Dense", "config": {
        "name": name, "trainable": True, "dtype": "float32", "units": units,
        "activation": activation, "use_bias": True,
        "kernel_initializer": {"class_name": "GlorotUniform",
                               "config": {"seed": None}},
        "bias_initializer": {"class_name": "Zeros", "config": {}},
        "kernel_regularizer": None, "bias_regularizer": None,
        "activity_regularizer": None, "kernel_constraint": None,
        "bias_constraint": None, **extra}}


def _write_keras2(path, model_config, layer_weights, training=None,
                  optimizer=None):
    """A file as tf.keras 2.x wrote it: `kernel:0` names, bytes attrs."""
    with h5py.File(path, "w") as f:
        f.attrs["keras_version"] = b"2.12.0"
        f.attrs["backend"] = b"tensorflow"
        f.attrs["model_config"] = json.dumps(model_config).encode()
        if training is not None:
            f.attrs["training_config"] = json.dumps(training).encode()
        group = f.create_group("model_weights")
        group.attrs["layer_names"] = [n.encode() for n in layer_weights]
        for layer, weights in layer_weights.items():
            sub = group.create_group(layer)
            sub.attrs["weight_names"] = [n.encode() for n in weights]
            for name, value in weights.items():
                sub[name] = value
        if optimizer:
            opt = f.create_group("optimizer_weights")
            opt.attrs["weight_names"] = [n.encode() for n in optimizer]
            for name, value in optimizer.items():
                opt[name] = value


def _keras2_weights(rng):
    return {"dense": {"dense/kernel:0": rng.normal(size=(4, 3)),
                      "dense/bias:0": rng.normal(size=3)},
            "dropout": {},
            "dense_1": {"dense_1/kernel:0": rng.normal(size=(3, 2)),
                        "dense_1/bias:0": rng.normal(size=2)}}


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_keras2_sequential_file(tmp_path):
    rng = np.random.default_rng(0)
    weights = _keras2_weights(rng)
    config = {"class_name": "Sequential", "config": {
        "name": "sequential", "layers": [
            {"class_name": "InputLayer", "config": {
                "batch_input_shape": [None, 4], "dtype": "float32",
                "sparse": False, "ragged": False, "name": "dense_input"}},
            _keras2_dense("dense", 3, "relu"),
            {"class_name": "Dropout", "config": {
                "name": "dropout", "trainable": True, "dtype": "float32",
                "rate": 0.5, "noise_shape": None, "seed": None}},
            _keras2_dense("dense_1", 2, "softmax")]}}
    training = {
        "loss": "categorical_crossentropy", "metrics": ["accuracy"],
        "weighted_metrics": None, "loss_weights": None,
        "optimizer_config": {"class_name": "Adam", "config": {
            "name": "Adam", "learning_rate": 0.001, "decay": 0.0,
            "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07,
            "amsgrad": False, "is_legacy_optimizer": False,
            "jit_compile": True}}}
    optimizer = {"Adam/iter:0": np.array(3, "int64"),
                 "Adam/dense/kernel/m:0": np.zeros((4, 3), "float32")}
    path = str(tmp_path / "keras2.h5")
    _write_keras2(path, config, weights, training, optimizer)
    with pytest.warns(UserWarning, match="Keras 2's layout"):
        model = kerasish.models.load_model(path)
    assert model.optimizer.learning_rate.numpy() == np.float32(0.001)
    w = weights
    hidden = np.maximum(X @ w["dense"]["dense/kernel:0"] +
                        w["dense"]["dense/bias:0"], 0)
    expected = _softmax(hidden @ w["dense_1"]["dense_1/kernel:0"] +
                        w["dense_1"]["dense_1/bias:0"])
    np.testing.assert_allclose(model.predict(X, verbose=0), expected,
                               rtol=1e-5, atol=1e-6)


def test_keras2_functional_file_with_nested_model(tmp_path):
    rng = np.random.default_rng(1)
    inner = {"class_name": "Functional", "config": {
        "name": "inner", "layers": [
            {"class_name": "InputLayer", "name": "input_1", "config": {
                "batch_input_shape": [None, 4], "dtype": "float32",
                "sparse": False, "ragged": False, "name": "input_1"},
             "inbound_nodes": []},
            dict(_keras2_dense("dense", 3, "tanh"), name="dense",
                 inbound_nodes=[[["input_1", 0, 0, {}]]])],
        "input_layers": [["input_1", 0, 0]],
        "output_layers": [["dense", 0, 0]]}}
    outer = {"class_name": "Model", "config": {
        "name": "outer", "layers": [
            {"class_name": "InputLayer", "name": "input_2", "config": {
                "batch_input_shape": [None, 4], "dtype": "float32",
                "sparse": False, "ragged": False, "name": "input_2"},
             "inbound_nodes": []},
            dict(inner, name="inner",
                 inbound_nodes=[[["input_2", 0, 0, {}]]]),
            # Keras 2 counts a nested model's construction node first.
            dict(_keras2_dense("dense_1", 2, "linear"), name="dense_1",
                 inbound_nodes=[[["inner", 1, 0, {}]]])],
        "input_layers": [["input_2", 0, 0]],
        "output_layers": [["dense_1", 0, 0]]}}
    weights = {"input_2": {},
               "inner": {"dense/kernel:0": rng.normal(size=(4, 3)),
                         "dense/bias:0": rng.normal(size=3)},
               "dense_1": {"dense_1/kernel:0": rng.normal(size=(3, 2)),
                           "dense_1/bias:0": rng.normal(size=2)}}
    path = str(tmp_path / "keras2_functional.h5")
    _write_keras2(path, outer, weights)
    model = kerasish.models.load_model(path)
    hidden = np.tanh(X @ weights["inner"]["dense/kernel:0"] +
                     weights["inner"]["dense/bias:0"])
    expected = hidden @ weights["dense_1"]["dense_1/kernel:0"] + \
        weights["dense_1"]["dense_1/bias:0"]
    # Keras 2 wrote output_layers as a one-element list.
    (prediction,) = kerasish.tree.flatten(model.predict(X, verbose=0))
    np.testing.assert_allclose(prediction, expected, rtol=1e-5, atol=1e-6)


def test_keras2_list_lambda_loads_when_trusted(tmp_path):
    from kerasish.saving import lambda_code
    code = lambda_code.serialize_lambda(lambda x: x * 3.0)["config"]["value"]
    config = {"class_name": "Sequential", "config": {"name": "s", "layers": [
        {"class_name": "InputLayer", "config": {
            "batch_input_shape": [None, 4], "dtype": "float32",
            "name": "in"}},
        {"class_name": "Lambda", "config": {
            "name": "triple", "trainable": True, "dtype": "float32",
            "function": code, "function_type": "lambda",
            "module": "__main__", "output_shape": None,
            "output_shape_type": "raw", "output_shape_module": None,
            "arguments": {}}}]}}
    path = str(tmp_path / "lambda.h5")
    _write_keras2(path, config, {"triple": {}})
    with pytest.raises(kerasish.saving.SafeModeError):
        kerasish.models.load_model(path)
    model = kerasish.models.load_model(path, safe_mode=False)
    np.testing.assert_allclose(model.predict(X, verbose=0), 3 * X)


def test_upgrade_rules():
    upgrade = legacy_config.upgrade
    assert upgrade({"class_name": "InputLayer",
                    "config": {"batch_input_shape": [None, 3]}}) == {
        "class_name": "InputLayer", "config": {"batch_shape": [None, 3]}}
    assert upgrade({"class_name": "Softmax", "config": {"axis": [-1]}})[
        "config"]["axis"] == -1
    assert upgrade({"class_name": "Sequential", "config": [{"a": 1}]})[
        "config"] == {"layers": [{"a": 1}]}
    lam = upgrade({"class_name": "Lambda", "config": {
        "function": ["code", None, None], "function_type": "lambda",
        "output_shape": ["shape code", None, None],
        "output_shape_type": "lambda"}})["config"]
    assert lam["function"]["class_name"] == "__lambda__"
    assert lam["output_shape"]["class_name"] == "__lambda__"
    assert "function_type" not in lam
