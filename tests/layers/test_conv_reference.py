"""Every convolution, pooling and reshaping layer against real Keras 3.

`tests/fixtures/conv/reference.npz` holds, for each case of
`tests/fixtures/conv/cases.py`, the output of the Keras 3.15 (JAX) layer on
seeded inputs and weights, the gradients of `sum(output * u)` with respect
to the input and every weight, and the layer's `get_config()`; it was
written by `tests/fixtures/conv/make_reference.py`.
"""
import json
import os

import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.fixtures.conv.cases import LAYER_CASES, inputs_for

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = np.load(os.path.join(HERE, "..", "fixtures", "conv",
                                 "reference.npz"))
CONFIGS = json.loads(str(REFERENCE["configs"]))


def _ids():
    return [f"{i}-{case[0]}" for i, case in enumerate(LAYER_CASES)]


def _build(i):
    cls_name, kwargs, shape, _ = LAYER_CASES[i]
    layer = getattr(layers, cls_name)(**kwargs)
    weights = [REFERENCE[f"layer{i}_w{j}"]
               for j in range(len([k for k in REFERENCE.files
                                   if k.startswith(f"layer{i}_w")]))]
    x = inputs_for(1000 + i, [shape])[0]
    layer(x)
    layer.set_weights(weights)
    return layer, x


@pytest.mark.parametrize("i", range(len(LAYER_CASES)), ids=_ids())
def test_layer_matches_keras(i):
    layer, x = _build(i)
    xv = kerasish.Variable(x)
    with kerasish.GradientTape() as tape:
        tape.watch(xv)
        y = layer(xv)
        expected = REFERENCE[f"layer{i}_y"]
        u = np.random.default_rng(1).standard_normal(
            expected.shape).astype("float32")
        target = kerasish.ops.sum(y * u)
    np.testing.assert_allclose(np.asarray(y), expected, rtol=1e-5,
                               atol=2e-5)
    grads = tape.gradient(target, [xv] + layer.trainable_weights)
    for j, g in enumerate(grads):
        np.testing.assert_allclose(np.asarray(g), REFERENCE[f"layer{i}_g{j}"],
                                   rtol=1e-4, atol=1e-4,
                                   err_msg=f"gradient {j}")


@pytest.mark.parametrize("i", range(len(LAYER_CASES)), ids=_ids())
def test_config_matches_keras(i):
    layer, _ = _build(i)
    config = json.loads(json.dumps(layer.get_config()))
    config.pop("name")
    assert config == CONFIGS[i]


def test_keras_model_file_loads_and_predicts_like_keras(tmp_path):
    # conv_model.keras/.npz: written by tests/fixtures/conv/make_model.py
    # with Keras 3.15 (every conv/pooling/reshaping family in one model).
    folder = os.path.join(HERE, "..", "fixtures", "conv")
    data = np.load(os.path.join(folder, "conv_model.npz"))
    model = kerasish.saving.load_model(os.path.join(folder,
                                                    "conv_model.keras"))
    np.testing.assert_allclose(model.predict(data["x"], verbose=0),
                               data["y"], rtol=1e-5, atol=1e-5)
    path = str(tmp_path / "again.keras")
    model.save(path)
    again = kerasish.saving.load_model(path)
    np.testing.assert_allclose(again.predict(data["x"], verbose=0),
                               data["y"], rtol=1e-5, atol=1e-5)
