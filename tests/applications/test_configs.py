"""Application configs equal Keras's; Keras's configs rebuild the models.

`fixtures/configs.json.gz` holds Keras's `model.get_config()` of a few
cases that cover everything the builders put in a config: ops nodes
(`x + 3`), initializer dicts, `Normalization` statistics, nested
`Sequential`s, `LayerScale`, `Cropping2D`, an `input_tensor`. Compared per
layer: module, class, registered name, layer config and the tensors each
call consumes (what the builders decide). `build_config` and the
`mask`/`training` entries of node kwargs come from the engine, not from
the applications, and are left out.
"""
import gzip
import json
import os

import numpy as np
import pytest

import kerasish
from kerasish.backend.common.variable import Variable
from kerasish.saving import serialization_lib
from tests.applications import helpers
from tests.applications.fixtures.cases import CONFIGS, STRUCTURE

with gzip.open(os.path.join(helpers.FIXTURES, "configs.json.gz"), "rt") as f:
    REFERENCE = json.load(f)


@pytest.fixture
def zero_weights(monkeypatch):
    monkeypatch.setattr(Variable, "_initial_value", staticmethod(
        lambda initializer, shape, dtype: np.zeros(shape, dtype)))


def _json(obj):
    return json.loads(json.dumps(obj))


def _essentials(layer):
    return {"module": layer["module"], "class_name": layer["class_name"],
            "registered_name": layer["registered_name"],
            "config": layer["config"],
            "args": [node["args"] for node in layer["inbound_nodes"]]}


@pytest.mark.parametrize("case", CONFIGS)
def test_config_matches_keras(case, zero_weights):
    got = _json(helpers.build(*STRUCTURE[case]).get_config())
    expected = REFERENCE[case]
    for key in ("name", "trainable", "input_layers", "output_layers"):
        assert got[key] == expected[key], key
    assert [layer["name"] for layer in got["layers"]] == \
        [layer["name"] for layer in expected["layers"]]
    for mine, keras in zip(got["layers"], expected["layers"]):
        assert _essentials(mine) == _essentials(keras), mine["name"]


@pytest.mark.parametrize("case", CONFIGS)
def test_keras_config_rebuilds_the_model(case, zero_weights):
    model = kerasish.Model.from_config(REFERENCE[case])
    kerasish.backend.clear_session()
    expected = helpers.structure(helpers.build(*STRUCTURE[case]), False)
    difference = helpers.first_difference(
        helpers.structure(model, paths=False), expected)
    assert difference is None, difference


def test_custom_scale_layer_serializes_as_keras():
    from kerasish.applications.inception_resnet_v2 import CustomScaleLayer
    layer = CustomScaleLayer(0.17, name="scale")
    layer([kerasish.Input((4, 4, 8)), kerasish.Input((4, 4, 8))])
    got = _json(serialization_lib.serialize_keras_object(layer))
    assert got == REFERENCE["custom_scale_layer"]
    clone = serialization_lib.deserialize_keras_object(got)
    assert type(clone) is CustomScaleLayer and clone.scale == 0.17


def test_saved_application_reloads(tmp_path):
    # A (narrow) ConvNeXt: custom layers, ops nodes, nested Sequentials.
    from kerasish.applications import convnext
    model = convnext.ConvNeXt([1, 1, 1, 1], [8, 8, 8, 8],
                              include_top=False, input_shape=(32, 32, 3),
                              pooling="avg")
    path = str(tmp_path / "convnext.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    x = np.random.default_rng(0).uniform(0, 255, (1, 32, 32, 3))
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


# `keras.saving.serialize_keras_object` of ConvNeXt's layers, built on an
# `Input((4, 4, 8))` in Keras 3.15.1.
CONVNEXT_LAYERS = {
    "LayerScale": ((1e-6, 8), {"init_values": 1e-06, "projection_dim": 8}),
    "StochasticDepth": ((0.1,), {"drop_path_rate": 0.1}),
}
FLOAT32 = {"module": "keras", "class_name": "DTypePolicy",
           "config": {"name": "float32"}, "registered_name": None}


@pytest.mark.parametrize("class_name", sorted(CONVNEXT_LAYERS))
def test_convnext_layers_serialize_as_keras(class_name):
    from kerasish.applications import convnext
    args, own_config = CONVNEXT_LAYERS[class_name]
    layer = getattr(convnext, class_name)(*args, name="layer")
    layer(kerasish.Input((4, 4, 8)))
    got = _json(serialization_lib.serialize_keras_object(layer))
    assert got == {
        "module": "keras.src.applications.convnext",
        "class_name": class_name, "registered_name": class_name,
        "config": dict(name="layer", trainable=True, dtype=FLOAT32,
                       **own_config),
        "build_config": {"input_shape": [None, 4, 4, 8]}}
    clone = serialization_lib.deserialize_keras_object(got)
    assert type(clone) is type(layer) and clone.get_config() == \
        layer.get_config()


def test_stochastic_depth_drops_whole_samples_in_training():
    from kerasish.applications.convnext import StochasticDepth
    layer = StochasticDepth(0.5)
    x = np.ones((400, 2, 2, 3), "float32")
    np.testing.assert_array_equal(np.asarray(layer(x)), x)
    out = np.asarray(layer(x, training=True)).reshape(400, -1)
    # Each sample is dropped or kept (scaled by 1 / keep) as a whole.
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert (out.min(axis=1) == out.max(axis=1)).all()
    assert 0.4 < (out[:, 0] == 0).mean() < 0.6
