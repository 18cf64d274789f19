"""Recorded steps (`engine.step_capture`): same numbers as eager, used where
safe, given up where Python depends on data, randomness or state."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import layers, ops
from kerasish.backend import capture as trace_module
from kerasish.engine import step_capture


@pytest.fixture
def replays(monkeypatch):
    """Counts replays of recorded steps (with or without gradients)."""
    counter = {"n": 0, "with_gradients": 0}
    replay = trace_module.Trace.replay
    with_gradients = trace_module.Trace.replay_with_gradients

    def counting(self, inputs):
        counter["n"] += 1
        return replay(self, inputs)

    def counting_gradients(self, inputs, sources):
        counter["n"] += 1
        counter["with_gradients"] += 1
        return with_gradients(self, inputs, sources)
    monkeypatch.setattr(trace_module.Trace, "replay", counting)
    monkeypatch.setattr(trace_module.Trace, "replay_with_gradients",
                        counting_gradients)
    return counter


def _data(n=70, classes=3, seed=1):
    rng = np.random.default_rng(seed)
    return (rng.random((n, 6), dtype="float32"),
            rng.integers(0, classes, n))


def _mlp():
    return keras.Sequential([keras.Input((6,)),
                             layers.Dense(8, activation="relu"),
                             layers.Dense(3, activation="softmax")])


def _batchnorm(**kwargs):
    return keras.Sequential([keras.Input((6,)), layers.Dense(8),
                             layers.BatchNormalization(**kwargs),
                             layers.Dense(3)])


def _batchnorm_renorm():
    return _batchnorm(renorm=True)


class Branchy(keras.Model):
    """Python control flow on data: a compiled step cannot replay it."""

    def __init__(self):
        super().__init__()
        self.a = layers.Dense(3)
        self.b = layers.Dense(3)

    def call(self, x):
        a, b = self.a(x), self.b(x)
        if float(ops.mean(x)) > 0.5:
            return a * 2.0 + b
        return a + b * 2.0


def _train(build, run_eagerly, loss="sparse_categorical_crossentropy",
           **fit_kwargs):
    keras.utils.set_random_seed(0)
    model = build()
    model.compile(optimizer="adam", loss=loss, metrics=["accuracy"],
                  run_eagerly=run_eagerly)
    x, y = _data()
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0,
                        shuffle=False, validation_data=(x[:20], y[:20]),
                        **fit_kwargs)
    return model, history.history, model.predict(x, batch_size=16,
                                                  verbose=0)


def _assert_same_run(eager, traced):
    (m1, h1, p1), (m2, h2, p2) = eager, traced
    assert h1 == h2
    np.testing.assert_array_equal(p1, p2)
    for a, b in zip(m1.get_weights(), m2.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_recorded_steps_give_the_eager_numbers_bit_for_bit(replays):
    eager = _train(_mlp, run_eagerly=True)
    assert replays["n"] == 0
    traced = _train(_mlp, run_eagerly=False)
    _assert_same_run(eager, traced)
    # 5 batches of 16 (last one 6) x 3 epochs: all but the first two calls
    # of each signature replay; evaluation and predict replay too.
    assert replays["n"] >= 10
    assert replays["with_gradients"] >= 5     # training skips the tape
    model = traced[0]
    kinds = {key[0] for key in model._step_traces._traces}
    assert kinds == {"train", "test", "predict"}
    assert not model._step_traces._disabled


def test_jit_compile_false_runs_eagerly(replays):
    keras.utils.set_random_seed(0)
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy",
                  jit_compile=False)
    model.fit(*_data(), batch_size=16, epochs=2, verbose=0)
    assert replays["n"] == 0
    assert model.jit_compile is False


def test_jit_compile_auto_follows_run_eagerly():
    model = _mlp()
    model.compile("adam", "mse", run_eagerly=True)
    assert model.jit_compile is False
    model.compile("adam", "mse")
    assert model.jit_compile is True


class _NumpyNoise(layers.Layer):
    """Draws from numpy's global generator: not replayable."""

    def call(self, x, training=False):
        if training:
            return x + np.random.normal(size=x.shape).astype("float32")
        return x


def _numpy_noise():
    return keras.Sequential([keras.Input((6,)), layers.Dense(8),
                             _NumpyNoise(), layers.Dense(3)])


@pytest.mark.parametrize("build, why", [
    (_numpy_noise, "global random state"),
    (_batchnorm_renorm, "outside the primitives"),
    (Branchy, "outside the primitives"),
])
def test_unsafe_steps_fall_back_to_eager_with_the_same_numbers(
        build, why, replays):
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    eager = _train(build, run_eagerly=True, loss=loss)
    traced = _train(build, run_eagerly=False, loss=loss)
    _assert_same_run(eager, traced)
    assert why in traced[0]._step_traces.disabled("train")


def _conv_batchnorm():
    return keras.Sequential([
        keras.Input((6,)), layers.Reshape((3, 2, 1)),
        layers.Conv2D(4, 2, padding="same"),
        layers.BatchNormalization(momentum=0.5), layers.ReLU(),
        layers.Flatten(), layers.Dense(3)])


@pytest.mark.parametrize("build", [_batchnorm, _conv_batchnorm])
def test_batch_normalization_replays_with_its_moving_statistics(build,
                                                                 replays):
    # The moving statistics are written by a recorded effect: a replayed
    # step updates them from its own batch, as an eager step does.
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    eager = _train(build, run_eagerly=True, loss=loss)
    traced = _train(build, run_eagerly=False, loss=loss)
    _assert_same_run(eager, traced)
    model = traced[0]
    assert not model._step_traces._disabled
    assert replays["with_gradients"] >= 5
    bn = [layer for layer in model.layers
          if isinstance(layer, layers.BatchNormalization)][0]
    assert not np.array_equal(bn.moving_mean.numpy(),
                              np.zeros(bn.moving_mean.shape))


def _noisy():
    return keras.Sequential([
        keras.Input((6,)), layers.Dense(8, activation="relu"),
        layers.Dropout(0.4), layers.GaussianNoise(0.1),
        layers.GaussianDropout(0.2), layers.AlphaDropout(0.1),
        layers.Dense(3)])


def test_dropout_and_noise_layers_replay_with_the_eager_draws(replays):
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    eager = _train(_noisy, run_eagerly=True, loss=loss)
    traced = _train(_noisy, run_eagerly=False, loss=loss)
    _assert_same_run(eager, traced)
    assert not traced[0]._step_traces._disabled
    assert replays["with_gradients"] >= 5


def test_branchy_model_takes_both_branches_after_tracing():
    keras.utils.set_random_seed(0)
    model = Branchy()
    model.compile("sgd", "mse")
    low = np.zeros((4, 2), "float32")
    high = np.ones((4, 2), "float32")
    for _ in range(3):
        model.predict_on_batch(low)
    np.testing.assert_array_equal(
        model.predict_on_batch(high),
        np.asarray(model.a(high)) * 2.0 + np.asarray(model.b(high)))
    np.testing.assert_array_equal(
        model.predict_on_batch(low),
        np.asarray(model.a(low)) + np.asarray(model.b(low)) * 2.0)


def test_bad_labels_are_still_caught_in_a_replayed_step(replays):
    keras.utils.set_random_seed(0)
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy")
    x, y = _data(16)
    for _ in range(3):
        model.train_on_batch(x, y)
    assert replays["n"] == 1
    bad = y.copy()
    bad[3] = 7
    with pytest.raises(ValueError, match=r"in \[0, 3\).*\[0, 7\]"):
        model.train_on_batch(x, bad)


def test_freezing_a_layer_records_a_new_step():
    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        model = _mlp()
        model.compile("adam", "sparse_categorical_crossentropy",
                      run_eagerly=run_eagerly)
        x, y = _data(48)
        model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
        model.layers[0].trainable = False
        model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
        return model.get_weights()
    for a, b in zip(run(True), run(False)):
        np.testing.assert_array_equal(a, b)


def test_compile_starts_afresh():
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy")
    model.fit(*_data(48), batch_size=16, epochs=1, verbose=0)
    assert model._step_traces._traces
    model.compile("adam", "sparse_categorical_crossentropy")
    assert not model._step_traces._traces


def test_signatures_are_bounded(monkeypatch):
    monkeypatch.setattr(step_capture, "MAX_SIGNATURES", 2)
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy")
    x, y = _data(16)
    for n in (4, 5, 6, 7):
        for _ in range(3):
            model.train_on_batch(x[:n], y[:n])
    assert len(model._step_traces._traces) == 2


def test_layer_probes_see_every_batch():
    from kerasish.train.step_runner import StepRunner
    keras.utils.set_random_seed(0)
    model = _mlp()
    model.compile("adam", "sparse_categorical_crossentropy")
    runner = StepRunner(model)
    x, y = _data(32)
    seen = []
    for i in range(4):
        batch = (x[i * 8:(i + 1) * 8], y[i * 8:(i + 1) * 8])
        result = runner.train_step(batch, fetches=[model.layers[0].name])
        seen.append(np.asarray(result.fetched[0]))
    assert all(s.shape == (8, 8) for s in seen)
    assert not np.array_equal(seen[2], seen[3])


def test_overridden_train_step_is_not_recorded(replays):
    class Custom(keras.Sequential):
        def train_step(self, data):
            x, y = data
            with keras.GradientTape() as tape:
                loss = self.compute_loss(x, y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply(grads, self.trainable_weights)
            return {"loss": loss}

    model = Custom([keras.Input((6,)), layers.Dense(3)])
    model.compile("sgd", "mse")
    x, _ = _data(32)
    history = model.fit(x, x[:, :3], batch_size=8, epochs=2, verbose=0)
    assert replays["n"] == 0
    assert len(history.history["loss"]) == 2


def test_a_scaled_loss_replays_under_the_tape_with_the_same_numbers(
        replays):
    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        model = _mlp()
        model.compile(keras.optimizers.Adam(loss_scale_factor=8.0),
                      "sparse_categorical_crossentropy",
                      run_eagerly=run_eagerly)
        model.fit(*_data(64), batch_size=16, epochs=2, verbose=0,
                  shuffle=False)
        return model.get_weights()
    for a, b in zip(run(True), run(False)):
        np.testing.assert_array_equal(a, b)
    assert replays["n"] > 0 and replays["with_gradients"] == 0


def _sequence_model(layer):
    def build():
        return keras.Sequential([keras.Input((5, 3)), layer(),
                                 layers.Dense(2)])
    return build


def _conv():
    return keras.Sequential([
        keras.Input((8, 8, 1)), layers.Conv2D(3, 3, activation="relu"),
        layers.MaxPooling2D(2), layers.Flatten(), layers.Dense(2)])


def _wide_deep():
    ids = keras.Input((1,), dtype="int32")
    num = keras.Input((2,))
    emb = layers.Flatten()(layers.Embedding(7, 3)(ids))
    h = layers.Dense(4, activation="relu")(layers.Concatenate()([emb, num]))
    wide = layers.Flatten()(layers.Embedding(7, 1)(ids))
    out = layers.Activation("sigmoid")(layers.Add()([layers.Dense(1)(h),
                                                     wide]))
    return keras.Model([ids, num], out)


def _inputs(name, n, rng):
    if name == "conv":
        return rng.random((n, 8, 8, 1), dtype="float32")
    if name == "wide_deep":
        return [rng.integers(0, 7, (n, 1)).astype("int32"),
                rng.random((n, 2), dtype="float32")]
    return rng.random((n, 5, 3), dtype="float32")


@pytest.mark.parametrize("name, build, loss", [
    ("lstm", _sequence_model(lambda: layers.LSTM(4)), "mse"),
    ("gru", _sequence_model(lambda: layers.GRU(4)), "mse"),
    ("rnn", _sequence_model(lambda: layers.SimpleRNN(4,
                                                     return_sequences=True)),
     "mse"),
    ("conv", _conv, "mse"),
    ("wide_deep", _wide_deep, "binary_crossentropy"),
])
def test_benchmark_kinds_of_models_replay_bit_for_bit(name, build, loss,
                                                      replays):
    rng = np.random.default_rng(3)
    x = _inputs(name, 40, rng)
    out_shape = {"rnn": (40, 5, 2), "wide_deep": (40, 1)}.get(name, (40, 2))
    y = (rng.random(out_shape) > 0.5).astype("float32")

    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        model = build()
        model.compile("adam", loss, run_eagerly=run_eagerly)
        history = model.fit(x, y, batch_size=8, epochs=3, verbose=0,
                            shuffle=False)
        return (history.history["loss"], model.get_weights(),
                model.predict(x, batch_size=8, verbose=0), model)
    eager, traced = run(True), run(False)
    assert eager[0] == traced[0]
    for a, b in zip(eager[1], traced[1]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(eager[2], traced[2])
    assert not traced[3]._step_traces._disabled
    assert replays["with_gradients"] >= 10


def _regularized_two_outputs():
    inputs = keras.Input((6,))
    h = layers.Dense(5, activation="tanh", kernel_regularizer="l2",
                     activity_regularizer="l1")(inputs)
    return keras.Model(inputs, {"a": layers.Dense(2, name="a")(h),
                                "b": layers.Dense(1, name="b")(h)})


def test_regularization_losses_weights_and_dict_outputs_replay_exactly(
        replays):
    rng = np.random.default_rng(5)
    x = rng.random((48, 6), dtype="float32")
    y = {"a": rng.random((48, 2), dtype="float32"),
         "b": rng.random((48, 1), dtype="float32")}
    sample_weight = rng.random(48).astype("float32")

    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        model = _regularized_two_outputs()
        model.compile("adam", {"a": "mse", "b": "mae"},
                      loss_weights={"a": 1.0, "b": 0.5},
                      metrics={"a": ["mae"]}, run_eagerly=run_eagerly)
        history = model.fit(x, y, sample_weight=sample_weight,
                            batch_size=8, epochs=2, verbose=0,
                            shuffle=False, validation_split=0.25)
        return history.history, model.get_weights()
    (h1, w1), (h2, w2) = run(True), run(False)
    assert h1 == h2
    for a, b in zip(w1, w2):
        np.testing.assert_array_equal(a, b)
    assert replays["with_gradients"] >= 4


def test_new_variables_or_quantization_record_a_new_step():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((6,)), layers.Dense(4),
                              layers.Dense(2)])
    model.compile("adam", "mse")
    x = _data(16)[0]
    for _ in range(3):
        model.predict_on_batch(x)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.quantize("int8")
    quantized = np.asarray(model(x))
    for _ in range(3):
        np.testing.assert_array_equal(model.predict_on_batch(x), quantized)
    model.pop()                     # other variables: recorded again
    model.add(layers.Dense(3))
    for _ in range(3):
        np.testing.assert_array_equal(model.predict_on_batch(x),
                                      np.asarray(model(x)))
