"""ReLU, LeakyReLU, PReLU, ELU and Softmax layers."""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test

X = np.array([[-3.0, -0.5, 0.25, 2.0, 7.0]], "float32")


@pytest.mark.parametrize("cls,kwargs,expected", [
    (layers.ReLU, {}, [0, 0, 0.25, 2, 7]),
    (layers.ReLU, {"max_value": 6.0}, [0, 0, 0.25, 2, 6]),
    (layers.ReLU, {"negative_slope": 0.1, "threshold": 1.0},
     [-0.4, -0.15, -0.075, 2, 7]),
    (layers.LeakyReLU, {}, [-0.9, -0.15, 0.25, 2, 7]),
    (layers.LeakyReLU, {"negative_slope": 0.5}, [-1.5, -0.25, 0.25, 2, 7]),
    (layers.ELU, {"alpha": 2.0},
     [2 * np.expm1(-3), 2 * np.expm1(-0.5), 0.25, 2, 7])])
def test_values(cls, kwargs, expected):
    out = run_layer_test(cls, kwargs, input_shape=X.shape, input_data=X,
                         expected_output_shape=X.shape)
    np.testing.assert_allclose(out[0], expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kwargs,match", [
    ({"max_value": -1.0}, "max_value"),
    ({"negative_slope": -0.1}, "negative_slope"),
    ({"threshold": None}, "threshold")])
def test_relu_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.ReLU(**kwargs)


def test_leaky_relu_alpha_alias_and_errors():
    with pytest.warns(UserWarning, match="alpha"):
        layer = layers.LeakyReLU(alpha=0.1)
    assert layer.get_config()["negative_slope"] == 0.1
    with pytest.raises(ValueError, match="negative_slope"):
        layers.LeakyReLU(negative_slope=-1)


def test_prelu_learns_alpha_with_shared_axes(tmp_path):
    run_layer_test(layers.PReLU, {"alpha_initializer": "ones"},
                   input_shape=(2, 3, 4), expected_output_shape=(2, 3, 4),
                   expected_num_trainable_weights=1, tmp_path=tmp_path)
    layer = layers.PReLU(shared_axes=[1], alpha_initializer="zeros")
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype("float32")
    layer(x)
    assert layer.alpha.shape == (1, 3)
    layer.alpha.assign(np.array([[0.1, 0.2, 0.3]], "float32"))
    out = layer(x).numpy()
    np.testing.assert_allclose(out, np.where(x > 0, x, x * [0.1, 0.2, 0.3]),
                               rtol=1e-6)
    config = layers.PReLU(shared_axes=2).get_config()
    assert config["shared_axes"] == [2]
    assert config["alpha_initializer"]["class_name"] == "Zeros"
    with pytest.raises(ValueError, match="shared_axes"):
        layers.PReLU(shared_axes=[0])(x)
    with pytest.raises(ValueError, match="non-shared axes"):
        layers.PReLU().build((None, None, 3))


def test_softmax_layer_axis_and_mask(tmp_path):
    run_layer_test(layers.Softmax, {"axis": 1}, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 3, 4))
    x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], "float32")
    mask = np.array([[True, True, False], [False, False, False]])
    out = layers.Softmax()(x, mask=mask).numpy()
    e = np.exp([1.0, 2.0])
    np.testing.assert_allclose(out[0], [*(e / e.sum()), 0.0], rtol=1e-6)
    # A fully masked row gives zeros, not a uniform distribution.
    np.testing.assert_array_equal(out[1], 0.0)
    float_mask = layers.Softmax()(x, mask=np.array([[1.0, 0.0, 1.0]]))
    assert float_mask.numpy()[0, 1] == 0.0
    joint = layers.Softmax(axis=(0, 1))(x).numpy()
    np.testing.assert_allclose(joint.sum(), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="broadcastable"):
        layers.Softmax()(x, mask=np.ones((2, 2), bool))


@pytest.mark.parametrize("cls,keys", [
    (layers.ReLU, {"max_value", "negative_slope", "threshold"}),
    (layers.LeakyReLU, {"negative_slope"}), (layers.ELU, {"alpha"}),
    (layers.Softmax, {"axis"}),
    (layers.PReLU, {"alpha_initializer", "alpha_regularizer",
                    "alpha_constraint", "shared_axes"})])
def test_config_keys_match_keras(cls, keys):
    config = cls().get_config()
    assert set(config) == keys | {"name", "trainable", "dtype"}
    assert cls.from_config(config).get_config() == config


def test_activation_layers_pass_masks_through():
    emb = layers.Embedding(5, 2, mask_zero=True)
    x = emb(np.array([[1, 0, 2]]))
    for layer in (layers.ReLU(), layers.LeakyReLU(), layers.ELU(),
                  layers.PReLU()):
        out = layer(x)
        np.testing.assert_array_equal(out._keras_mask.numpy(),
                                      [[True, False, True]])
    model_in = kerasish.Input((3,), dtype="int32")
    model = kerasish.Model(model_in, layers.ReLU()(emb(model_in)))
    assert model.output_shape == (None, 3, 2)
