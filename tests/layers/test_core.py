import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test


@pytest.mark.parametrize("activation", [None, "relu", "softmax", "tanh"])
def test_dense_layer(activation, tmp_path):
    run_layer_test(layers.Dense, {"units": 3, "activation": activation},
                   input_shape=(4, 5), expected_output_shape=(4, 3),
                   expected_num_trainable_weights=2, tmp_path=tmp_path)


def test_dense_on_rank3_input_and_no_bias(tmp_path):
    run_layer_test(layers.Dense, {"units": 2, "use_bias": False},
                   input_shape=(2, 3, 4), expected_output_shape=(2, 3, 2),
                   expected_num_trainable_weights=1, tmp_path=tmp_path)


def test_dense_matches_reference_computation():
    layer = layers.Dense(2, activation="relu")
    x = np.array([[1.0, -2.0, 0.5]], "float32")
    layer.build((None, 3))
    w = np.array([[1, -1], [0.5, 2], [-1, 1]], "float32")
    b = np.array([0.25, -0.5], "float32")
    layer.set_weights([w, b])
    np.testing.assert_allclose(layer(x).numpy(),
                               np.maximum(x @ w + b, 0))


def test_dense_weights_layout_and_paths():
    model = kerasish.Sequential([kerasish.Input((4,)), layers.Dense(3)])
    assert [w.path for w in model.weights] == \
        ["sequential/dense/kernel", "sequential/dense/bias"]
    assert [w.shape for w in model.weights] == [(4, 3), (3,)]


@pytest.mark.parametrize("units", [0, -3, 2.5, "4"])
def test_dense_rejects_bad_units(units):
    with pytest.raises(ValueError, match="units"):
        layers.Dense(units)


def test_dense_rejects_incompatible_input_after_build():
    layer = layers.Dense(2)
    layer(np.ones((1, 3), "float32"))
    with pytest.raises(ValueError, match="expected axis -1 of input shape "
                                         "to have value 3"):
        layer(np.ones((1, 4), "float32"))


def test_activation_layer(tmp_path):
    out = run_layer_test(layers.Activation, {"activation": "relu"},
                         input_shape=(3, 4), expected_output_shape=(3, 4),
                         input_data=np.array([[-1.0, 2, -3, 4]] * 3,
                                             "float32"))
    np.testing.assert_array_equal(out[0], [0, 2, 0, 4])


def test_dropout_training_and_inference():
    layer = layers.Dropout(0.5, seed=1)
    x = np.ones((200, 10), "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert 0.4 < (y == 0).mean() < 0.6
    run_layer_test(layers.Dropout, {"rate": 0.3}, input_shape=(2, 3),
                   expected_output_shape=(2, 3))


def test_dropout_noise_shape_and_bad_rate():
    layer = layers.Dropout(0.5, noise_shape=(None, 1), seed=2)
    y = layer(np.ones((50, 4), "float32"), training=True).numpy()
    assert all(len(set(row)) == 1 for row in y)
    with pytest.raises(ValueError, match="rate"):
        layers.Dropout(1.5)


def test_flatten_and_reshape(tmp_path):
    run_layer_test(layers.Flatten, {}, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 12))
    run_layer_test(layers.Reshape, {"target_shape": (4, 3)},
                   input_shape=(2, 12), expected_output_shape=(2, 4, 3))
    run_layer_test(layers.Reshape, {"target_shape": (-1, 2)},
                   input_shape=(2, 3, 4), expected_output_shape=(2, 6, 2))
    x = kerasish.Input((3, 4))
    assert layers.Reshape((-1,))(x).shape == (None, 12)


def test_flatten_channels_first_matches_channels_last():
    x = np.arange(24, dtype="float32").reshape(1, 2, 3, 4)
    first = layers.Flatten(data_format="channels_first")(x).numpy()
    last = layers.Flatten()(np.moveaxis(x, 1, -1)).numpy()
    np.testing.assert_array_equal(first, last)


def test_reshape_rejects_incompatible_sizes():
    with pytest.raises(ValueError, match="Reshape"):
        layers.Reshape((5,))(np.ones((2, 4), "float32"))
    with pytest.raises(ValueError, match="one unknown"):
        layers.Reshape((-1, -1))
