"""ConvLSTM1D/2D/3D: values against Keras 3.15.1 with the same weights
(tests/fixtures/h13/make_reference.py), weights, config, masks, states,
dropout and gradients."""
import os

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.utils import check_grads
from tests.layers.harness import run_layer_test

HERE = os.path.dirname(__file__)
REF = np.load(os.path.join(HERE, "..", "fixtures", "h13", "reference.npz"))

CASES = {
    "clstm2d_same": (layers.ConvLSTM2D, dict(
        filters=3, kernel_size=3, padding="same", return_sequences=True)),
    "clstm2d_strided": (layers.ConvLSTM2D, dict(
        filters=2, kernel_size=(3, 2), strides=2, return_state=True)),
    "clstm2d_first": (layers.ConvLSTM2D, dict(
        filters=2, kernel_size=2, data_format="channels_first",
        padding="same", go_backwards=True, return_sequences=True)),
    "clstm1d_dilated": (layers.ConvLSTM1D, dict(
        filters=2, kernel_size=3, dilation_rate=2, go_backwards=True,
        return_sequences=True, return_state=True)),
    "clstm3d": (layers.ConvLSTM3D, dict(
        filters=2, kernel_size=2, padding="same", activation="relu",
        recurrent_activation="hard_sigmoid")),
    "clstm2d_nobias": (layers.ConvLSTM2D, dict(
        filters=2, kernel_size=3, use_bias=False, return_sequences=True)),
}


def close(actual, expected, atol=1e-5):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-4,
                               atol=atol)


def keras_weighted(case, **extra):
    cls, kwargs = CASES[case]
    layer = cls(**kwargs, **extra)
    x = REF[f"{case}/x"]
    layer(x)
    layer.set_weights([REF[f"{case}/w{i}"]
                       for i in range(len(layer.weights))])
    return layer, x


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_match_keras(case):
    layer, x = keras_weighted(case)
    outputs = layer(x)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for i, out in enumerate(outputs):
        close(out, REF[f"{case}/out{i}"])


def test_initial_state_matches_keras():
    layer, x = keras_weighted("clstm2d_same")
    out = layer(x, initial_state=[REF["clstm2d_same/h0"],
                                  REF["clstm2d_same/c0"]])
    close(out, REF["clstm2d_same/initial"])


def test_keras_model_file_loads_and_predicts():
    # A ReversibleEmbedding + GroupQueryAttention + ConvLSTM2D model saved
    # by Keras.
    model = kerasish.saving.load_model(os.path.join(
        HERE, "..", "fixtures", "h13", "h13_model.keras"))
    logits, video = model.predict([REF["model/ids"], REF["model/x"]],
                                  verbose=0)
    close(logits, REF["model/logits"])
    close(video, REF["model/video"])


@pytest.mark.parametrize("cls, shape", [
    (layers.ConvLSTM1D, (2, 4, 9, 3)), (layers.ConvLSTM2D, (2, 4, 5, 5, 3)),
    (layers.ConvLSTM3D, (1, 3, 4, 4, 4, 3))])
def test_weights_layout_and_names(cls, shape):
    layer = cls(2, 3)
    layer(np.ones(shape, "float32"))
    window = (3,) * (len(shape) - 3)
    prefix = layer.name + "/conv_lstm_cell/"
    assert [(w.path, w.shape) for w in layer.weights] == [
        (prefix + "kernel", window + (3, 8)),
        (prefix + "recurrent_kernel", window + (2, 8)),
        (prefix + "bias", (8,))]
    # unit_forget_bias: ones for the forget gate, zeros elsewhere.
    np.testing.assert_array_equal(np.asarray(layer.cell.bias),
                                  [0, 0, 1, 1, 0, 0, 0, 0])


def test_config_as_keras_and_round_trip():
    layer = layers.ConvLSTM2D(3, 2, padding="same", dropout=0.1, seed=4)
    config = layer.get_config()
    assert list(config) == [
        "name", "trainable", "dtype", "return_sequences", "return_state",
        "go_backwards", "stateful", "unroll", "zero_output_for_mask",
        "filters", "kernel_size", "strides", "padding", "data_format",
        "dilation_rate", "activation", "recurrent_activation", "use_bias",
        "kernel_initializer", "recurrent_initializer", "bias_initializer",
        "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
        "bias_regularizer", "activity_regularizer", "kernel_constraint",
        "recurrent_constraint", "bias_constraint", "dropout",
        "recurrent_dropout", "seed"]
    assert config["kernel_size"] == (2, 2) and config["seed"] == 4
    clone = layers.ConvLSTM2D.from_config(config)
    assert clone.get_config() == config
    assert clone.filters == 3 and clone.padding == "same"


@pytest.mark.parametrize("cls, kwargs, shape, out_shape", [
    (layers.ConvLSTM1D, {"return_sequences": True}, (2, 3, 6, 2),
     (2, 3, 4, 2)),
    (layers.ConvLSTM2D, {"strides": 2}, (2, 3, 6, 5, 1), (2, 2, 2, 2)),
    (layers.ConvLSTM3D, {"padding": "same"}, (1, 2, 3, 3, 3, 1),
     (1, 3, 3, 3, 2)),
])
def test_layer_harness(cls, kwargs, shape, out_shape, tmp_path):
    run_layer_test(cls, dict(filters=2, kernel_size=3, **kwargs),
                   input_shape=shape, expected_output_shape=out_shape,
                   expected_num_trainable_weights=3, tmp_path=tmp_path)


def test_gradients_with_mask_state_and_backwards_float64():
    layer = layers.ConvLSTM2D(2, 2, padding="same", go_backwards=True,
                              return_sequences=True, dtype="float64")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 3, 3, 2))
    h0, c0 = rng.standard_normal((2, 2, 3, 3, 2)) * 0.5
    mask = np.array([[True, False, True], [True, True, False]])
    layer(x)

    def fn(x, h, c):
        return layer(x, initial_state=[h, c], mask=mask)
    check_grads(fn, [x, h0, c0], variables=layer.trainable_weights)


def test_masked_steps_keep_the_states():
    layer = layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True,
                              return_state=True)
    x = np.random.default_rng(1).standard_normal((2, 4, 5, 1)).astype(
        "float32")
    mask = np.array([[True, True, False, True], [True, False, False, True]])
    seq, h, c = (np.asarray(o) for o in layer(x, mask=mask))
    # A masked step repeats the previous output; the result equals running
    # the unmasked steps only.
    np.testing.assert_allclose(seq[0, 2], seq[0, 1])
    np.testing.assert_allclose(seq[1, 2], seq[1, 0])
    kept = np.asarray(layer(x[1:, [0, 3]])[0])[0]
    np.testing.assert_allclose(seq[1, [0, 3]], kept, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, seq[:, -1])
    zeroed = layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True,
                               zero_output_for_mask=True)
    zeroed.build(x.shape)
    zeroed.set_weights(layer.get_weights())
    np.testing.assert_array_equal(np.asarray(zeroed(x, mask=mask))[1, 1:3],
                                  0)


def test_mask_from_masking_layer_in_a_model():
    inputs = kerasish.Input((None, 5, 5, 1))
    x = layers.Masking(0.0)(inputs)
    out = layers.ConvLSTM2D(2, 3, padding="same")(x)
    model = kerasish.Model(inputs, out)
    data = np.random.default_rng(2).standard_normal((2, 4, 5, 5, 1))
    data[:, 3] = 0.0        # the last step is masked: same last output
    short = np.asarray(model(data[:, :3].astype("float32")))
    close(model(data.astype("float32")), short)


def test_channels_first_equals_channels_last():
    x = np.random.default_rng(3).standard_normal((2, 3, 6, 5, 2)).astype(
        "float32")
    last = layers.ConvLSTM2D(3, 3, return_sequences=True, return_state=True)
    first = layers.ConvLSTM2D(3, 3, return_sequences=True, return_state=True,
                              data_format="channels_first")
    out_last = last(x)
    first.build((2, 3, 2, 6, 5))
    first.set_weights(last.get_weights())
    out_first = first(np.moveaxis(x, -1, 2))
    close(np.moveaxis(np.asarray(out_first[0]), 2, -1), out_last[0])
    close(np.moveaxis(np.asarray(out_first[1]), 1, -1), out_last[1])


def test_stateful_carries_states_between_calls():
    layer = layers.ConvLSTM1D(2, 2, padding="same", stateful=True)
    x = np.random.default_rng(4).standard_normal((2, 3, 4, 1)).astype(
        "float32")
    first = np.asarray(layer(x))
    second = np.asarray(layer(x))
    assert not np.allclose(first, second)
    layer.reset_state()
    close(layer(x), first)


def test_dropout_in_training_only_and_trains():
    layer = layers.ConvLSTM2D(2, 3, padding="same", dropout=0.3,
                              recurrent_dropout=0.3, seed=1)
    x = np.random.default_rng(5).standard_normal((2, 3, 4, 4, 1)).astype(
        "float32")
    inference = np.asarray(layer(x))
    close(layer(x), inference)
    assert not np.allclose(np.asarray(layer(x, training=True)), inference)
    model = kerasish.Sequential([kerasish.Input((3, 4, 4, 1)), layer,
                                 layers.Flatten(), layers.Dense(1)])
    model.compile("adam", "mse")
    y = np.ones((2, 1), "float32")
    history = model.fit(x, y, epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_symbolic_shapes_with_states():
    layer = layers.ConvLSTM2D(4, 3, strides=2, return_sequences=True,
                              return_state=True)
    seq, h, c = layer(kerasish.Input((5, 9, 7, 2)))
    assert tuple(seq.shape) == (None, 5, 4, 3, 4)
    assert tuple(h.shape) == tuple(c.shape) == (None, 4, 3, 4)


@pytest.mark.parametrize("kwargs, message", [
    ({"filters": 0}, "filters=0"),
    ({"kernel_size": (3, 3, 3)}, "kernel_size"),
    ({"padding": "causal"}, "padding='causal'"),
    ({"strides": 2, "dilation_rate": 2}, "not compatible"),
    ({"data_format": "nhwc"}, "data_format"),
    ({"dropout": "a"}, "dropout='a'"),
])
def test_bad_arguments(kwargs, message):
    args = dict(filters=2, kernel_size=3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        layers.ConvLSTM2D(**args)


def test_bad_inputs_and_states():
    layer = layers.ConvLSTM2D(2, 3)
    with pytest.raises(ValueError, match="expects inputs of rank 5"):
        layer.build((2, 3, 4, 4))
    with pytest.raises(ValueError):
        layer(np.ones((2, 3, 4, 4), "float32"))
    layer = layers.ConvLSTM2D(2, 3, padding="same")
    x = np.ones((2, 3, 4, 4, 1), "float32")
    with pytest.raises(ValueError, match="expected \\(2, 4, 4, 2\\)"):
        layer(x, initial_state=[np.zeros((2, 4, 4, 3))] * 2)
    with pytest.raises(ValueError, match="Computed output size"):
        layers.ConvLSTM2D(2, 5)(np.ones((1, 2, 3, 3, 1), "float32"))
