"""SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout, AlphaDropout,
ActivityRegularization: training vs inference, statistics, configs."""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test


@pytest.mark.parametrize("cls,shape", [
    (layers.SpatialDropout1D, (2, 5, 4)),
    (layers.SpatialDropout2D, (2, 3, 3, 4)),
    (layers.SpatialDropout3D, (2, 2, 2, 2, 4))])
def test_spatial_dropout_shares_the_mask_over_space(cls, shape):
    run_layer_test(cls, {"rate": 0.5}, input_shape=shape,
                   expected_output_shape=shape)
    layer = cls(0.5, seed=3)
    x = np.ones((64,) + shape[1:], "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy()
    per_channel = y.reshape(64, -1, shape[-1])
    assert (per_channel == per_channel[:, :1]).all()
    assert set(np.unique(y)) == {0.0, 2.0}
    assert 0.35 < (per_channel[:, 0] == 0).mean() < 0.65


def test_spatial_dropout_channels_first():
    layer = layers.SpatialDropout2D(0.5, data_format="channels_first",
                                    seed=0)
    y = layer(np.ones((8, 4, 3, 3), "float32"), training=True).numpy()
    flat = y.reshape(8, 4, -1)
    assert (flat == flat[:, :, :1]).all()
    assert layer.get_config()["data_format"] == "channels_first"


def test_spatial_dropout_config_and_rank_check():
    config = layers.SpatialDropout2D(0.2).get_config()
    assert config == {"rate": 0.2, "seed": None, "name": "spatial_dropout2d",
                      "dtype": "float32", "data_format": "channels_last"}
    assert set(layers.SpatialDropout1D(0.1).get_config()) == {
        "rate", "seed", "name", "dtype"}
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.SpatialDropout1D(0.1)(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="rate"):
        layers.SpatialDropout1D(1.5)


def test_gaussian_noise_statistics_and_inference_identity():
    run_layer_test(layers.GaussianNoise, {"stddev": 0.3}, input_shape=(3, 4),
                   expected_output_shape=(3, 4))
    layer = layers.GaussianNoise(0.3, seed=0)
    x = np.full((500, 40), 2.0, "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    noise = layer(x, training=True).numpy() - x
    assert abs(noise.mean()) < 0.01 and abs(noise.std() - 0.3) < 0.01
    with pytest.raises(ValueError, match="stddev"):
        layers.GaussianNoise(-0.1)


def test_gaussian_dropout_statistics():
    run_layer_test(layers.GaussianDropout, {"rate": 0.2}, input_shape=(3, 4),
                   expected_output_shape=(3, 4))
    layer = layers.GaussianDropout(0.2, seed=0)
    x = np.ones((500, 40), "float32")
    y = layer(x, training=True).numpy()
    assert abs(y.mean() - 1) < 0.01 and abs(y.std() - 0.5) < 0.01
    np.testing.assert_array_equal(layer(x).numpy(), x)


def test_alpha_dropout_keeps_selu_statistics():
    run_layer_test(layers.AlphaDropout, {"rate": 0.2}, input_shape=(3, 4),
                   expected_output_shape=(3, 4))
    layer = layers.AlphaDropout(0.2, seed=0)
    x = np.random.default_rng(1).standard_normal((800, 50)).astype("float32")
    y = layer(x, training=True).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02
    # Dropped entries all take the same value a * alpha' + b.
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - 0.2) * (1 + 0.2 * alpha_p ** 2)) ** -0.5
    dropped = a * alpha_p + (-a * alpha_p * 0.2)
    assert 0.17 < np.isclose(y, dropped, atol=1e-6).mean() < 0.23
    shared = layers.AlphaDropout(0.5, noise_shape=(None, 1), seed=1)
    z = shared(np.zeros((20, 6), "float32"), training=True).numpy()
    assert all(len(set(row)) == 1 for row in z)


def test_activity_regularization_adds_the_penalty():
    run_layer_test(layers.ActivityRegularization, {"l1": 0.1, "l2": 0.2},
                   input_shape=(3, 4), expected_output_shape=(3, 4))
    layer = layers.ActivityRegularization(l1=0.5, l2=0.25)
    x = np.array([[1.0, -3.0], [2.0, 0.0]], "float32")
    out = layer(x)
    np.testing.assert_array_equal(out.numpy(), x)
    expected = (0.5 * 6.0 + 0.25 * 14.0) / 2
    assert float(layer.losses[0]) == pytest.approx(expected)
    assert layer.get_config()["l1"] == 0.5
    assert "activity_regularizer" not in layer.get_config()


def test_activity_regularization_in_fit_contributes_to_the_loss():
    model = kerasish.Sequential([kerasish.Input((2,)),
                                 layers.ActivityRegularization(l2=1.0)])
    model.compile(loss="mse")
    x = np.array([[1.0, 2.0]], "float32")
    loss = model.evaluate(x, x, verbose=0)
    assert loss == pytest.approx(5.0)


@pytest.mark.parametrize("cls,kwargs", [
    (layers.GaussianNoise, {"stddev": 0.1}),
    (layers.GaussianDropout, {"rate": 0.1}),
    (layers.AlphaDropout, {"rate": 0.1}),
    (layers.ActivityRegularization, {})])
def test_config_keys_match_keras(cls, kwargs):
    keys = {"GaussianNoise": {"stddev", "seed"},
            "GaussianDropout": {"rate", "seed"},
            "AlphaDropout": {"rate", "seed", "noise_shape"},
            "ActivityRegularization": {"l1", "l2"}}[cls.__name__]
    config = cls(**kwargs).get_config()
    assert set(config) == keys | {"name", "trainable", "dtype"}
