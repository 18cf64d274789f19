"""Recurrent layers: statefulness, dropout masks, Keras masks from
Embedding/Masking, initial states in functional models, bad input."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops


# -- stateful -----------------------------------------------------------------
def test_stateful_layer_carries_states_between_calls(rng):
    x = rng.standard_normal((2, 6, 3)).astype("float32")
    stateful = layers.LSTM(4, stateful=True, return_sequences=True)
    whole = layers.LSTM(4, return_sequences=True)
    first = stateful(x[:, :3]).numpy()
    whole(x)
    whole.set_weights(stateful.get_weights())
    second = stateful(x[:, 3:]).numpy()
    np.testing.assert_allclose(np.concatenate([first, second], 1),
                               whole(x).numpy(), rtol=1e-5, atol=1e-6)
    assert len(stateful.states) == 2 and len(stateful.weights) == 3
    stateful.reset_states()
    np.testing.assert_array_equal(stateful.states[0].numpy(), 0)
    np.testing.assert_allclose(stateful(x[:, :3]).numpy(), first, rtol=1e-6)


def test_stateful_reset_to_given_states(rng):
    layer = layers.GRU(3, stateful=True)
    layer(np.ones((2, 4, 2), "float32"))
    h = rng.standard_normal((2, 3)).astype("float32")
    layer.reset_state(states=[h])
    np.testing.assert_array_equal(layer.states[0].numpy(), h)
    with pytest.raises(ValueError, match="State shape mismatch"):
        layer.reset_state(states=[np.zeros((3, 3))])


def test_stateful_in_a_model_with_fixed_batch(rng):
    inp = kerasish.Input(batch_shape=(4, 5, 2))
    model = kerasish.Sequential([inp, layers.SimpleRNN(3, stateful=True),
                                 layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = rng.standard_normal((8, 5, 2)).astype("float32")
    model.fit(x, np.zeros((8, 1)), batch_size=4, shuffle=False, verbose=0)
    states = model.layers[0].states[0].numpy()
    assert np.abs(states).sum() > 0


def test_stateful_batch_size_errors():
    layer = layers.LSTM(2, stateful=True)
    layer(np.ones((3, 4, 2), "float32"))
    with pytest.raises(ValueError, match="Expected batch size: 3"):
        layer(np.ones((2, 4, 2), "float32"))
    with pytest.raises(ValueError, match="batch size must be static"):
        layers.LSTM(2, stateful=True)(kerasish.Input((4, 2)))


# -- dropout ------------------------------------------------------------------
def _identity_rnn(**kwargs):
    """SimpleRNN whose output is its (dropped-out) input."""
    layer = layers.SimpleRNN(4, activation=None, use_bias=False,
                             kernel_initializer="identity",
                             recurrent_initializer="zeros", **kwargs)
    layer(np.ones((1, 2, 4), "float32"))
    return layer


def test_dropout_mask_is_the_same_at_every_step():
    layer = _identity_rnn(dropout=0.5, seed=7, return_sequences=True)
    x = np.ones((64, 5, 4), "float32")
    y = layer(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    for t in range(1, 5):
        np.testing.assert_array_equal(y[:, t], y[:, 0])
    assert not np.array_equal(layer(x, training=True).numpy(), y)
    np.testing.assert_array_equal(layer(x).numpy(), x)


def test_recurrent_dropout_mask_is_the_same_at_every_step():
    layer = layers.SimpleRNN(4, activation=None, use_bias=False,
                             kernel_initializer="zeros",
                             recurrent_initializer="identity",
                             recurrent_dropout=0.5, seed=3,
                             return_sequences=True)
    h0 = np.ones((32, 4), "float32")
    y = layer(np.ones((32, 4, 2), "float32"), initial_state=[h0],
              training=True).numpy()
    mask = y[:, 0] / 2                       # h1 = h0 * mask / (1 - rate)
    np.testing.assert_allclose(y[:, 3], h0 * (mask * 2) ** 4)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_lstm_gru_dropout_training_only(kind, rng):
    x = rng.standard_normal((4, 6, 3)).astype("float32")
    layer = getattr(layers, kind)(5, dropout=0.3, recurrent_dropout=0.3,
                                  seed=1)
    y = layer(x).numpy()
    np.testing.assert_array_equal(layer(x, training=False).numpy(), y)
    assert not np.allclose(layer(x, training=True).numpy(), y)
    assert layer.cell.implementation == 1
    inp = kerasish.Input((6, 3))
    model = kerasish.Model(inp, layers.Dense(1)(layer(inp)))
    model.compile(optimizer="sgd", loss="mse")
    before = [w.copy() for w in model.get_weights()]
    model.fit(x, np.ones((4, 1)), verbose=0)
    assert all(not np.array_equal(a, b)
               for a, b in zip(before, model.get_weights()))


# -- Keras masks --------------------------------------------------------------
def test_embedding_mask_zero_masks_the_lstm(rng):
    ids = np.array([[3, 5, 2, 0, 0], [4, 0, 0, 0, 0]])
    model = kerasish.Sequential([
        kerasish.Input((5,), dtype="int32"),
        layers.Embedding(8, 3, mask_zero=True),
        layers.LSTM(4, return_sequences=True),
        layers.LSTM(2)])
    out = model(ids).numpy()
    embedded = model.layers[0](ids).numpy()
    first, second = model.layers[1], model.layers[2]
    mask = ids != 0
    seq = first(embedded, mask=mask)
    np.testing.assert_allclose(out, second(seq, mask=mask).numpy(),
                               rtol=1e-6)
    # Masked steps repeat the last unmasked output, as Keras does.
    np.testing.assert_allclose(seq.numpy()[1, 1:], np.repeat(
        seq.numpy()[1, :1], 4, axis=0), rtol=1e-6)
    short = second(first(embedded[:1, :3])).numpy()
    np.testing.assert_allclose(out[:1], short, rtol=1e-5, atol=1e-6)


def test_masking_layer_and_return_sequences_propagate_the_mask(rng):
    x = rng.standard_normal((2, 4, 3)).astype("float32")
    x[0, 2:] = 0.0
    masked = layers.Masking(0.0)(x)
    seq = layers.GRU(2, return_sequences=True)(masked)
    np.testing.assert_array_equal(seq._keras_mask.numpy(),
                                  [[1, 1, 0, 0], [1, 1, 1, 1]])
    assert layers.GRU(2)(masked)._keras_mask is None


# -- initial states and functional models -------------------------------------
def test_encoder_decoder_initial_state_gradients(rng):
    enc_in, dec_in = kerasish.Input((5, 3)), kerasish.Input((4, 2))
    _, h, c = layers.LSTM(4, return_state=True)(enc_in)
    dec = layers.LSTM(4, return_sequences=True)(dec_in, initial_state=[h, c])
    model = kerasish.Model([enc_in, dec_in], layers.Dense(1)(dec))
    x = [rng.standard_normal((3, 5, 3)).astype("float32"),
         rng.standard_normal((3, 4, 2)).astype("float32")]
    model.compile(optimizer="adam", loss="mse")
    before = [w.copy() for w in model.get_weights()]
    model.fit(x, np.ones((3, 4, 1)), verbose=0)
    changed = [not np.array_equal(a, b)
               for a, b in zip(before, model.get_weights())]
    assert all(changed), "the encoder must get gradients via the states"


def test_initial_state_gradient_check(rng):
    layer = layers.GRU(3, return_sequences=True, dtype="float64")
    x = rng.standard_normal((2, 4, 2))
    h0 = rng.standard_normal((2, 3))
    layer(x)
    kerasish.utils.check_grads(lambda a, b: layer(a, initial_state=[b]),
                               [x, h0], variables=layer.trainable_weights)


def test_initial_state_errors():
    layer = layers.LSTM(3)
    x = np.ones((2, 4, 2), "float32")
    with pytest.raises(ValueError, match="expects 2 initial state"):
        layer(x, initial_state=[np.zeros((2, 3), "float32")])
    with pytest.raises(ValueError, match=r"expected \(2, 3\)"):
        layer(x, initial_state=[np.zeros((2, 4), "float32")] * 2)


# -- bad arguments ------------------------------------------------------------
@pytest.mark.parametrize("cls", [layers.LSTM, layers.GRU, layers.SimpleRNN,
                                 layers.LSTMCell, layers.GRUCell,
                                 layers.SimpleRNNCell])
@pytest.mark.parametrize("units", [0, -2, 1.5, "3"])
def test_bad_units(cls, units):
    with pytest.raises(ValueError, match="units"):
        cls(units)


def test_bad_rank_and_rates_and_cudnn():
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.LSTM(2)(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="dropout"):
        layers.GRU(2, dropout="high")
    with pytest.raises(ValueError, match="use_cudnn"):
        layers.LSTM(2, use_cudnn="yes")
    with pytest.raises(ValueError, match="cuDNN is not supported"):
        layers.GRU(2, use_cudnn=True)(np.ones((1, 3, 2), "float32"))
    with pytest.raises(ValueError, match="timesteps, features"):
        layers.RNN(layers.LSTMCell(2))(np.ones((2, 3), "float32"))


def test_go_backwards_returns_reversed_sequence(rng):
    x = rng.standard_normal((2, 5, 3)).astype("float32")
    forward = layers.SimpleRNN(2, return_sequences=True)
    backward = layers.SimpleRNN(2, return_sequences=True, go_backwards=True)
    forward(x)
    backward(x)
    backward.set_weights(forward.get_weights())
    np.testing.assert_allclose(backward(x).numpy(),
                               forward(x[:, ::-1]).numpy(), rtol=1e-6)


def test_mixed_precision_policy(rng):
    layer = layers.LSTM(3, dtype="mixed_float16", return_state=True)
    out, h, c = layer(rng.standard_normal((2, 4, 3)).astype("float32"))
    assert out.dtype == np.float16 and c.dtype == np.float16
    assert layer.cell.kernel.dtype == np.float32


def test_symbolic_shapes_with_states():
    x = kerasish.Input((None, 3))
    seq, h, c = layers.LSTM(4, return_sequences=True, return_state=True)(x)
    assert seq.shape == (None, None, 4) and h.shape == (None, 4)
    out = layers.Bidirectional(layers.GRU(2, return_sequences=True))(x)
    assert out.shape == (None, None, 4)
    model = kerasish.Model(x, [seq, out])
    a, b = model(np.ones((2, 7, 3), "float32"))
    assert a.shape == (2, 7, 4) and b.shape == (2, 7, 4)
    assert ops.shape(a) == (2, 7, 4)


def test_regularizers_and_constraints(rng):
    layer = layers.LSTM(3, kernel_regularizer="l2",
                        recurrent_regularizer="l1", bias_regularizer="l2",
                        activity_regularizer="l2",
                        recurrent_constraint="non_neg")
    x = rng.standard_normal((2, 4, 2)).astype("float32")
    layer(x)
    assert len(layer.losses) == 4
    model = kerasish.Sequential([kerasish.Input((4, 2)), layer])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.ones((2, 3)), verbose=0)
    assert (layer.cell.recurrent_kernel.numpy() >= 0).all()


@pytest.mark.parametrize("cls", [layers.LSTM, layers.GRU, layers.SimpleRNN])
def test_recall_with_other_features_names_the_built_size(cls):
    layer = cls(4)
    layer(np.ones((2, 3, 5), "float32"))
    with pytest.raises(ValueError, match=r"built for inputs with 5 features, "
                       r"but received inputs of shape \(2, 3, 6\)"):
        layer(np.ones((2, 3, 6), "float32"))


@pytest.mark.parametrize("cls", [layers.LSTM, layers.GRU, layers.SimpleRNN])
def test_mask_of_other_length_is_an_error(cls):
    with pytest.raises(ValueError, match=r"mask of shape \(batch, timesteps\) "
                       r"= \(2, 3\). Received: mask.shape=\(2, 4\)"):
        cls(4)(np.ones((2, 3, 5), "float32"), mask=np.ones((2, 4), bool))
