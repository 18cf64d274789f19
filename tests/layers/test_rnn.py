"""SimpleRNN, LSTM, GRU and their cells: the layer checks, Keras parity
(reference values from real Keras 3, see rnn_attention_fixtures/), and
the fused path against the step-by-step cell loop."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops
from tests.layers.harness import run_layer_test
from tests.layers.rnn_attention_fixtures import reference

KINDS = ["SimpleRNN", "LSTM", "GRU"]
N_WEIGHTS = {"SimpleRNN": 3, "LSTM": 3, "GRU": 3}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kwargs,out_shape", [
    ({}, (2, 4)),
    ({"return_sequences": True}, (2, 5, 4)),
    ({"go_backwards": True, "return_sequences": True}, (2, 5, 4)),
    ({"use_bias": False}, (2, 4)),
])
def test_recurrent_layer(kind, kwargs, out_shape, tmp_path):
    n = N_WEIGHTS[kind] - (0 if kwargs.get("use_bias", True) else 1)
    run_layer_test(getattr(layers, kind), dict(kwargs, units=4),
                   input_shape=(2, 5, 3), expected_output_shape=out_shape,
                   expected_num_trainable_weights=n, tmp_path=tmp_path)


def test_gru_reset_before_layer(tmp_path):
    run_layer_test(layers.GRU, {"units": 3, "reset_after": False,
                                "return_sequences": True},
                   input_shape=(2, 4, 3), expected_output_shape=(2, 4, 3),
                   expected_num_trainable_weights=3, tmp_path=tmp_path)


@pytest.mark.parametrize("cell", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
def test_rnn_with_builtin_cell(cell, tmp_path):
    run_layer_test(lambda **kw: layers.RNN(
        getattr(layers, cell)(3, dtype=kw.get("dtype")), **kw),
                   {"return_sequences": True}, input_shape=(2, 4, 3),
                   expected_output_shape=(2, 4, 3), grad_check=True,
                   run_training=False)


# -- weights, paths and configs -----------------------------------------------
@pytest.mark.parametrize("kind,shapes", [
    ("SimpleRNN", [(3, 4), (4, 4), (4,)]),
    ("LSTM", [(3, 16), (4, 16), (16,)]),
    ("GRU", [(3, 12), (4, 12), (2, 12)]),
])
def test_weight_shapes_and_paths(kind, shapes):
    layer = getattr(layers, kind)(4)
    layer(np.ones((2, 5, 3), "float32"))
    assert [tuple(w.shape) for w in layer.weights] == shapes
    cell = {"SimpleRNN": "simple_rnn_cell", "LSTM": "lstm_cell",
            "GRU": "gru_cell"}[kind]
    prefix = f"{layer.name}/{cell}/"
    assert [w.path for w in layer.weights] == [
        prefix + n for n in ("kernel", "recurrent_kernel", "bias")]


def test_gru_reset_before_bias_shape():
    layer = layers.GRU(4, reset_after=False)
    layer(np.ones((2, 5, 3), "float32"))
    assert layer.cell.bias.shape == (12,)


def test_unit_forget_bias_initializes_forget_block_to_one():
    layer = layers.LSTM(3, bias_initializer="zeros")
    layer(np.ones((1, 2, 2), "float32"))
    np.testing.assert_array_equal(layer.cell.bias.numpy(),
                                  [0, 0, 0, 1, 1, 1] + [0] * 6)
    layer = layers.LSTM(3, unit_forget_bias=False, bias_initializer="ones")
    layer(np.ones((1, 2, 2), "float32"))
    np.testing.assert_array_equal(layer.cell.bias.numpy(), np.ones(12))


@pytest.mark.parametrize("kind", KINDS + ["SimpleRNNCell", "LSTMCell",
                                          "GRUCell"])
def test_config_keys_match_keras(kind):
    """Keys (and order) as printed by Keras 3.15.1's get_config()."""
    common = ["kernel_initializer", "recurrent_initializer",
              "bias_initializer", "kernel_regularizer",
              "recurrent_regularizer", "bias_regularizer"]
    tail = ["kernel_constraint", "recurrent_constraint", "bias_constraint",
            "dropout", "recurrent_dropout"]
    rnn_keys = ["return_sequences", "return_state", "go_backwards",
                "stateful", "unroll", "zero_output_for_mask"]
    base = ["name", "trainable", "dtype"]
    expected = {
        "SimpleRNN": base + rnn_keys + ["units", "activation", "use_bias"] +
        common + ["activity_regularizer"] + tail,
        "LSTM": base + rnn_keys + ["units", "activation",
                                   "recurrent_activation", "use_bias"] +
        common[:3] + ["unit_forget_bias"] + common[3:] +
        ["activity_regularizer"] + tail + ["seed"],
        "GRU": base + rnn_keys + ["units", "activation",
                                  "recurrent_activation", "use_bias"] +
        common + ["activity_regularizer"] + tail + ["reset_after", "seed"],
        "SimpleRNNCell": base + ["units", "activation", "use_bias"] +
        common + tail + ["seed"],
        "LSTMCell": base + ["units", "activation", "recurrent_activation",
                            "use_bias", "unit_forget_bias"] + common +
        tail + ["seed"],
        "GRUCell": base + ["units", "activation", "recurrent_activation",
                           "use_bias"] + common + tail +
        ["reset_after", "seed"],
    }[kind]
    config = getattr(layers, kind)(3).get_config()
    assert sorted(config) == sorted(expected)
    clone = getattr(layers, kind).from_config(config)
    assert clone.get_config() == config


def test_rnn_config_nests_the_cell():
    layer = layers.RNN(layers.LSTMCell(3), return_sequences=True)
    config = layer.get_config()
    assert config["cell"]["class_name"] == "LSTMCell"
    assert config["cell"]["module"] == "keras.layers"
    clone = layers.RNN.from_config(config)
    assert isinstance(clone.cell, layers.LSTMCell) and clone.return_sequences


def test_layer_exposes_cell_arguments():
    layer = layers.LSTM(7, dropout=0.25, recurrent_activation="hard_sigmoid")
    assert layer.units == 7 and layer.dropout == 0.25
    assert layer.recurrent_activation is kerasish.activations.hard_sigmoid
    assert layers.GRU(2, reset_after=False).reset_after is False


# -- Keras parity -------------------------------------------------------------
def _build_from_spec(spec):
    kwargs = dict(spec["kwargs"])
    return getattr(layers, spec["class"])(**kwargs)


@pytest.mark.parametrize("name", reference.case_names("LSTM_") +
                         reference.case_names("GRU_") +
                         reference.case_names("SimpleRNN_"))
def test_matches_keras(name):
    case = reference.load(name)
    layer = _build_from_spec(case["spec"]["layer"])
    x = case["inputs"][0]
    kwargs = {}
    if "mask" in case["arrays"]:
        kwargs["mask"] = case["arrays"]["mask"][0]
    if case["spec"]["call"].get("initial_state"):
        kwargs["initial_state"] = case["inputs"][1:]
    layer(x, **kwargs)
    layer.set_weights(case["weights"])
    outputs = kerasish.tree.flatten(layer(x, **kwargs))
    assert len(outputs) == len(case["outputs"])
    for got, want in zip(outputs, case["outputs"]):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5,
                                   atol=2e-6)


# -- the fused path against the cell loop -------------------------------------
class _LoopLSTMCell(layers.LSTMCell):
    """An LSTMCell whose overridden `call` forces the generic loop."""

    def call(self, inputs, states, training=False):
        return super().call(inputs, states, training=training)


class _LoopGRUCell(layers.GRUCell):
    def call(self, inputs, states, training=False):
        return super().call(inputs, states, training=training)


class _LoopSimpleRNNCell(layers.SimpleRNNCell):
    def call(self, sequence, states, training=False):
        return super().call(sequence, states, training=training)


LOOP_CELLS = {"LSTMCell": _LoopLSTMCell, "GRUCell": _LoopGRUCell,
              "SimpleRNNCell": _LoopSimpleRNNCell}


@pytest.mark.parametrize("cell", sorted(LOOP_CELLS))
@pytest.mark.parametrize("kwargs", [
    {"return_sequences": True, "return_state": True},
    {"go_backwards": True, "return_sequences": True, "return_state": True},
    {"zero_output_for_mask": True, "return_sequences": True},
    {"go_backwards": True},
])
def test_fused_matches_cell_loop_with_masks(cell, kwargs, rng):
    x = rng.standard_normal((3, 6, 4)).astype("float32")
    mask = rng.random((3, 6)) > 0.4
    mask[0, :3] = False
    fused = layers.RNN(getattr(layers, cell)(5), **kwargs)
    loop = layers.RNN(LOOP_CELLS[cell](5), **kwargs)
    fused(x)
    loop(x)
    loop.set_weights(fused.get_weights())
    for a, b in zip(kerasish.tree.flatten(fused(x, mask=mask)),
                    kerasish.tree.flatten(loop(x, mask=mask))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("cell", sorted(LOOP_CELLS))
def test_cell_loop_gradients_with_mask(cell, rng):
    x = rng.standard_normal((2, 4, 3))
    mask = np.array([[1, 1, 0, 1], [0, 1, 1, 1]], bool)
    layer = layers.RNN(LOOP_CELLS[cell](3, dtype="float64"),
                       return_sequences=True, dtype="float64")
    layer(x)
    kerasish.utils.check_grads(lambda v: layer(v, mask=mask), [x],
                               variables=layer.trainable_weights)


def test_unrolled_masked_output_starts_at_zero(rng):
    """unroll=True: a masked first step outputs zeros, not the state."""
    x = rng.standard_normal((1, 3, 2)).astype("float32")
    mask = np.array([[False, True, True]])
    h0 = np.full((1, 2), 0.5, "float32")
    layer = layers.SimpleRNN(2, return_sequences=True, unroll=True)
    rolled = layers.SimpleRNN(2, return_sequences=True)
    layer(x)
    rolled(x)
    rolled.set_weights(layer.get_weights())
    out = layer(x, mask=mask, initial_state=[h0]).numpy()
    np.testing.assert_array_equal(out[0, 0], [0, 0])
    np.testing.assert_allclose(
        rolled(x, mask=mask, initial_state=[h0]).numpy()[0, 0], h0[0])


def test_custom_activation_uses_cell_loop(rng):
    x = rng.standard_normal((2, 3, 2)).astype("float32")
    layer = layers.LSTM(3, activation=lambda v: ops.tanh(v) * 2)
    reference_layer = layers.RNN(_LoopLSTMCell(
        3, activation=lambda v: ops.tanh(v) * 2))
    layer(x)
    reference_layer(x)
    reference_layer.set_weights(layer.get_weights())
    np.testing.assert_allclose(layer(x).numpy(), reference_layer(x).numpy(),
                               rtol=1e-6)
