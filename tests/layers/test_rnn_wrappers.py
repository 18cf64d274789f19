"""Bidirectional, TimeDistributed, StackedRNNCells and user cells."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops
from tests.layers.harness import run_layer_test
from tests.layers.rnn_attention_fixtures import reference


# -- Bidirectional ------------------------------------------------------------
@pytest.mark.parametrize("mode,units_out", [("concat", 8), ("sum", 4),
                                            ("mul", 4), ("ave", 4)])
def test_bidirectional_layer(mode, units_out, tmp_path):
    run_layer_test(
        lambda **kw: layers.Bidirectional(
            layers.LSTM(4, return_sequences=True, dtype=kw.get("dtype")),
            **kw),
        {"merge_mode": mode}, input_shape=(2, 5, 3),
        expected_output_shape=(2, 5, units_out),
        expected_num_trainable_weights=6, tmp_path=tmp_path)


@pytest.mark.parametrize("mode", ["concat", "sum", "mul", "ave", None])
def test_bidirectional_matches_keras(mode):
    case = reference.load(f"Bidirectional_{mode}")
    layer = layers.Bidirectional(layers.LSTM(3, return_sequences=True),
                                 merge_mode=mode)
    x, mask = case["inputs"][0], case["arrays"]["mask"][0]
    layer(x)
    layer.set_weights(case["weights"])
    outputs = kerasish.tree.flatten(layer(x, mask=mask))
    assert len(outputs) == len(case["outputs"])
    for got, want in zip(outputs, case["outputs"]):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5,
                                   atol=2e-6)


def test_bidirectional_gru_states_match_keras():
    case = reference.load("Bidirectional_gru_state")
    layer = layers.Bidirectional(layers.GRU(3, return_state=True))
    layer(case["inputs"][0])
    layer.set_weights(case["weights"])
    outputs = layer(case["inputs"][0])
    assert len(outputs) == 3
    for got, want in zip(outputs, case["outputs"]):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5,
                                   atol=2e-6)


def test_bidirectional_layers_and_config():
    layer = layers.Bidirectional(layers.LSTM(2, name="enc"))
    assert layer.forward_layer.name == "forward_enc"
    assert layer.backward_layer.name == "backward_enc"
    assert layer.backward_layer.go_backwards
    config = layer.get_config()
    assert set(config) == {"name", "trainable", "dtype", "merge_mode",
                           "layer", "backward_layer"}
    clone = layers.Bidirectional.from_config(config)
    assert clone.backward_layer.go_backwards
    assert clone.get_config()["layer"] == config["layer"]


def test_bidirectional_with_backward_layer_and_initial_state(rng):
    x = rng.standard_normal((2, 4, 3)).astype("float32")
    states = [rng.standard_normal((2, 2)).astype("float32")
              for _ in range(4)]
    layer = layers.Bidirectional(
        layers.LSTM(2, return_state=True),
        backward_layer=layers.LSTM(2, go_backwards=True, return_state=True),
        merge_mode=None)
    out = layer(x, initial_state=states)
    assert len(out) == 6
    forward = layers.LSTM(2)
    forward(x)
    forward.set_weights(layer.forward_layer.get_weights())
    np.testing.assert_allclose(out[0].numpy(),
                               forward(x, initial_state=states[:2]).numpy(),
                               rtol=1e-6)
    assert layer.compute_output_shape((2, 4, 3)) == (
        (2, 2), (2, 2), (2, 2), (2, 2), (2, 2), (2, 2))


def test_bidirectional_bad_arguments():
    with pytest.raises(ValueError, match="Invalid merge mode"):
        layers.Bidirectional(layers.LSTM(2), merge_mode="max")
    with pytest.raises(ValueError, match="`keras.layers.Layer` instance"):
        layers.Bidirectional("lstm")
    with pytest.raises(ValueError, match="different `go_backwards`"):
        layers.Bidirectional(layers.LSTM(2), backward_layer=layers.LSTM(2))
    with pytest.raises(ValueError, match="return_sequences"):
        layers.Bidirectional(
            layers.LSTM(2), backward_layer=layers.LSTM(
                2, go_backwards=True, return_sequences=True))


def test_keras_weights_file_loads(tmp_path):
    """A `.weights.h5` written by Keras (Bidirectional LSTM + GRU)."""
    case = reference.load("file_rnn")
    model = kerasish.Sequential([
        kerasish.Input((6, 4)),
        layers.Bidirectional(layers.LSTM(3, return_sequences=True)),
        layers.GRU(2), layers.Dense(1)])
    model.load_weights(reference.weights_file("rnn_model.weights.h5"))
    np.testing.assert_allclose(model(case["inputs"][0]).numpy(),
                               case["outputs"][0], rtol=1e-5, atol=2e-6)
    path = str(tmp_path / "again.weights.h5")
    model.save_weights(path)
    import h5py
    with h5py.File(path) as f:
        assert "layers/bidirectional/forward_layer/cell/vars/0" in f
        assert "layers/bidirectional/backward_layer/cell/vars/2" in f
        assert "layers/gru/cell/vars/1" in f


# -- stacked and user cells ---------------------------------------------------
def test_stacked_cells_match_keras():
    case = reference.load("StackedRNN")
    layer = layers.RNN([layers.LSTMCell(3), layers.GRUCell(2),
                        layers.SimpleRNNCell(4)], return_sequences=True,
                       return_state=True)
    x, mask = case["inputs"][0], case["arrays"]["mask"][0]
    layer(x)
    layer.set_weights(case["weights"])
    outputs = kerasish.tree.flatten(layer(x, mask=mask))
    assert len(outputs) == len(case["outputs"])
    for got, want in zip(outputs, case["outputs"]):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5,
                                   atol=2e-6)


def test_stacked_cells_layer(tmp_path):
    run_layer_test(
        lambda **kw: layers.RNN(
            [layers.LSTMCell(3, dtype=kw.get("dtype")),
             layers.GRUCell(2, dtype=kw.get("dtype"))], **kw),
        {"return_sequences": True}, input_shape=(2, 4, 3),
        expected_output_shape=(2, 4, 2), expected_num_trainable_weights=6,
        tmp_path=tmp_path)


@kerasish.saving.register_keras_serializable(package="test_rnn")
class MinimalRNNCell(layers.Layer):
    """Keras's documented example of a user cell."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, self.units), initializer="uniform",
            name="recurrent_kernel")

    def call(self, inputs, states):
        prev_output = states[0]
        h = ops.matmul(inputs, self.kernel)
        output = h + ops.matmul(prev_output, self.recurrent_kernel)
        return output, [output]

    def get_config(self):
        return dict(super().get_config(), units=self.units)


def test_user_cell(tmp_path, rng):
    out = run_layer_test(
        lambda **kw: layers.RNN(MinimalRNNCell(3, dtype=kw.get("dtype")),
                                **kw),
        {"return_sequences": True}, input_shape=(2, 4, 2),
        expected_output_shape=(2, 4, 3), expected_num_trainable_weights=2,
        tmp_path=tmp_path)
    assert out.shape == (2, 4, 3)
    layer = layers.RNN(MinimalRNNCell(2), return_sequences=True)
    x = rng.standard_normal((1, 3, 2)).astype("float32")
    y = layer(x).numpy()
    w, r = (v.numpy() for v in layer.weights)
    h = np.zeros((1, 2), "float32")
    for t in range(3):
        h = x[:, t] @ w + h @ r
        np.testing.assert_allclose(y[:, t], h, rtol=1e-5)


def test_rnn_rejects_bad_cells():
    with pytest.raises(ValueError, match="`call` method"):
        layers.RNN(object())

    class NoStateSize:
        def call(self, x, states):
            return x, states
    with pytest.raises(ValueError, match="state_size"):
        layers.RNN(NoStateSize())


# -- TimeDistributed ----------------------------------------------------------
def test_time_distributed_dense(tmp_path, rng):
    out = run_layer_test(
        lambda **kw: layers.TimeDistributed(
            layers.Dense(3, dtype=kw.get("dtype")), **kw), {},
        input_shape=(2, 4, 5), expected_output_shape=(2, 4, 3),
        expected_num_trainable_weights=2, tmp_path=tmp_path)
    layer = layers.TimeDistributed(layers.Dense(3))
    x = rng.standard_normal((2, 4, 5)).astype("float32")
    y = layer(x).numpy()
    w, b = layer.layer.get_weights()
    np.testing.assert_allclose(y, x @ w + b, rtol=1e-5, atol=1e-6)
    assert out.shape == (2, 4, 3)


def test_time_distributed_paths_and_config():
    model = kerasish.Sequential([
        kerasish.Input((4, 5)), layers.TimeDistributed(layers.Dense(3))])
    assert [w.path for w in model.weights] == [
        "sequential/time_distributed/dense/kernel",
        "sequential/time_distributed/dense/bias"]
    config = model.layers[0].get_config()
    assert config["layer"]["class_name"] == "Dense"
    clone = layers.TimeDistributed.from_config(config)
    assert isinstance(clone.layer, layers.Dense)


def test_time_distributed_errors():
    with pytest.raises(ValueError, match="Layer` instance"):
        layers.TimeDistributed("dense")
    with pytest.raises(ValueError, match="at least 3 dimensions"):
        layers.TimeDistributed(layers.Dense(2))(np.ones((2, 3), "float32"))
    layer = layers.TimeDistributed(layers.Dense(2))
    with pytest.raises(ValueError, match="incompatible with the input"):
        layer(np.ones((2, 3, 4), "float32"), mask=np.ones((2, 5), bool))
