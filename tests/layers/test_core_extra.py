"""Lambda, Identity and Masking."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops
from kerasish.saving import serialization_lib
from tests.layers.harness import run_layer_test


def test_identity_layer(tmp_path):
    out = run_layer_test(layers.Identity, {}, input_shape=(2, 3),
                         expected_output_shape=(2, 3))
    assert out.shape == (2, 3)
    x = ops.convert_to_tensor(np.ones((1, 2), "float32"))
    x._keras_mask = ops.convert_to_tensor(np.array([True]))
    assert layers.Identity()(x)._keras_mask is x._keras_mask
    pair = layers.Identity()([np.ones(2, "float32"), np.zeros(3, "float32")])
    assert [t.shape for t in pair] == [(2,), (3,)]


def test_masking_layer(tmp_path):
    run_layer_test(layers.Masking, {"mask_value": 0.0}, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 3, 4))
    x = np.array([[[1.0, 2.0], [-1.0, -1.0], [0.0, -1.0]]], "float32")
    out = layers.Masking(mask_value=-1.0)(x)
    np.testing.assert_array_equal(out._keras_mask.numpy(),
                                  [[True, False, True]])
    np.testing.assert_array_equal(out.numpy()[0, 1], [0, 0])
    assert layers.Masking(-1.0).get_config()["mask_value"] == -1.0


def test_masking_feeds_a_downstream_mask_in_a_model():
    def keep(x, mask=None):
        return x if mask is None else x * ops.cast(mask, "float32")[..., None]
    inp = kerasish.Input((3, 2))
    masked = layers.Masking()(inp)
    # A Lambda without `mask` consumes the mask, warning as Keras does:
    # when the graph is built and when it runs.
    with pytest.warns(UserWarning, match="does not support masking"):
        model = kerasish.Model(inp, layers.Lambda(keep)(masked))
    x = np.array([[[1, 1], [0, 0], [2, 0]]], "float32")
    with pytest.warns(UserWarning, match="does not support masking"):
        out = model(x)
    np.testing.assert_array_equal(out.numpy(), x * [[[1], [0], [1]]])
    assert out._keras_mask is None


def test_lambda_layer_harness_and_arguments(tmp_path):
    out = run_layer_test(layers.Lambda,
                         {"function": kerasish.activations.softplus},
                         input_shape=(2, 3), expected_output_shape=(2, 3))
    assert (out > 0).all()
    layer = layers.Lambda(lambda x, k: x * k, arguments={"k": 3.0})
    np.testing.assert_array_equal(layer(np.ones(2, "float32")).numpy(),
                                  [3, 3])


def test_lambda_output_shape_forms():
    inp = kerasish.Input((4,))
    fixed = layers.Lambda(lambda x: ops.concatenate([x, x], -1),
                          output_shape=(8,))(inp)
    assert fixed.shape == (None, 8)
    fn = layers.Lambda(lambda x: x[:, :2],
                       output_shape=lambda s: (s[0], 2))(inp)
    assert fn.shape == (None, 2)
    inferred = layers.Lambda(lambda x: ops.sum(x, axis=1, keepdims=True))(inp)
    assert inferred.shape == (None, 1)


def test_lambda_mask_and_training_arguments():
    layer = layers.Lambda(lambda x: x, mask=lambda x, m: ops.greater(x, 0))
    out = layer(np.array([1.0, -1.0], "float32"))
    np.testing.assert_array_equal(out._keras_mask.numpy(), [True, False])

    def noisy(x, training=None):
        return x + (1.0 if training else 0.0)
    layer = layers.Lambda(noisy)
    assert float(layer(np.zeros(1, "float32"), training=True)[0]) == 1.0
    assert float(layer(np.zeros(1, "float32"))[0]) == 0.0


def test_python_lambda_serialization_needs_unsafe_mode():
    layer = layers.Lambda(lambda x: x * 2.0 + 1.0, output_shape=(3,))
    config = layer.get_config()
    assert config["function"]["class_name"] == "__lambda__"
    assert set(config["function"]["config"]) == {"code", "defaults",
                                                 "closure"}
    assert config["output_shape"] == (3,)
    with pytest.raises(ValueError, match="safe mode|safe_mode"):
        layers.Lambda.from_config(dict(config))
    clone = layers.Lambda.from_config(dict(config), safe_mode=False)
    np.testing.assert_array_equal(clone(np.ones(3, "float32")).numpy(),
                                  [3, 3, 3])


def test_named_functions_serialize_by_name_and_load_safely():
    @kerasish.saving.register_keras_serializable(package="tests")
    def double(x):
        return x * 2.0
    layer = layers.Lambda(double)
    config = serialization_lib.serialize_keras_object(layer)
    assert config["config"]["function"]["config"] == "tests>double"
    clone = serialization_lib.deserialize_keras_object(config)
    assert clone.function is double


def test_lambda_in_a_saved_model_round_trip(tmp_path):
    inp = kerasish.Input((2,))
    model = kerasish.Model(inp, layers.Lambda(lambda x: x + 1.0)(inp))
    path = str(tmp_path / "m.keras")
    model.save(path)
    with pytest.raises(ValueError, match="safe"):
        kerasish.saving.load_model(path)
    loaded = kerasish.saving.load_model(path, safe_mode=False)
    np.testing.assert_array_equal(loaded(np.zeros((1, 2), "float32")), 1.0)


def test_lambda_rejects_non_callables():
    with pytest.raises(ValueError, match="callable"):
        layers.Lambda(3)
