"""The order of callback events (KERAS_REFERENCE §2.1, verified on Keras)."""
import numpy as np
import pytest

import kerasish as keras
from tests.callbacks.util import Recorder, data, regression_model


def expected_fit_trace(epochs, train_batches, val_batches):
    events = ["on_train_begin"]
    for epoch in range(epochs):
        events.append(("on_epoch_begin", epoch))
        for b in range(train_batches):
            events += [("on_train_batch_begin", b), ("on_train_batch_end", b)]
        if val_batches:
            events.append("on_test_begin")
            for b in range(val_batches):
                events += [("on_test_batch_begin", b),
                           ("on_test_batch_end", b)]
            events.append("on_test_end")
        events.append(("on_epoch_end", epoch))
    return events + ["on_train_end"]


def test_fit_trace_matches_keras_order():
    x, y = data(10)
    rec = Recorder()
    model = regression_model()
    model.fit(x, y, batch_size=4, epochs=2, validation_split=0.2,
              callbacks=[rec], verbose=0)
    # 8 training samples in batches of 4, 2 validation samples in one.
    assert rec.events == expected_fit_trace(2, 2, 1)


def test_params_logs_and_history_identity():
    x, y = data(100)
    seen = {}

    class Check(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            seen["params"] = dict(self.params)
            seen["begin_logs"] = logs

        def on_epoch_end(self, epoch, logs=None):
            seen["keys"] = list(logs)
            seen["types"] = {type(v) for v in logs.values()}

        def on_train_end(self, logs=None):
            seen["end_logs"] = logs

    model = regression_model()
    history = model.fit(x, y, batch_size=40, epochs=2, validation_split=0.2,
                        callbacks=[Check()], verbose=0)
    assert seen["params"] == {"verbose": 0, "epochs": 2, "steps": 2}
    assert seen["begin_logs"] == {}
    assert seen["keys"] == ["loss", "mae", "val_loss", "val_mae"]
    assert seen["types"] == {float}
    assert seen["end_logs"]["loss"] == history.history["loss"][-1]
    assert history.epoch == [0, 1] and model.history is history


def test_user_callbacks_then_history_then_progbar():
    from kerasish.callbacks.callback_list import CallbackList
    rec = Recorder()
    cbs = CallbackList([rec], add_history=True, add_progbar=True,
                       model=regression_model(), verbose=1, epochs=1,
                       steps=1)
    names = [type(c).__name__ for c in cbs.callbacks]
    assert names == ["Recorder", "History", "ProgbarLogger"]
    # A History given by the user is used (not a second one).
    history = keras.callbacks.History()
    cbs = CallbackList([history, rec], add_history=True)
    assert [type(c).__name__ for c in cbs.callbacks] == ["History",
                                                         "Recorder"]


def test_evaluate_and_predict_traces():
    x, y = data(8)
    model = regression_model()
    rec = Recorder()
    model.evaluate(x, y, batch_size=4, callbacks=[rec], verbose=0)
    assert rec.events == ["on_test_begin", ("on_test_batch_begin", 0),
                          ("on_test_batch_end", 0), ("on_test_batch_begin", 1),
                          ("on_test_batch_end", 1), "on_test_end"]
    rec.events = []
    model.predict(x, batch_size=8, callbacks=[rec], verbose=0)
    assert rec.events == ["on_predict_begin", ("on_predict_batch_begin", 0),
                          ("on_predict_batch_end", 0), "on_predict_end"]


def test_batch_logs_are_running_means_and_batch_loss_is_exact():
    x, y = data(12)
    model = regression_model()
    batch_losses, running = [], []

    class Grab(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            batch_losses.append(self.model.batch_loss)
            running.append(logs["loss"])

    weights = model.get_weights()
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False,
              callbacks=[Grab()], verbose=0)
    # The same steps one batch at a time: train_on_batch returns the
    # batch's own loss (metrics reset per call).
    twin = regression_model()
    twin.set_weights(weights)
    exact = [twin.train_on_batch(x[i:i + 4], y[i:i + 4])[0]
             for i in range(0, 12, 4)]
    assert batch_losses == exact
    means = [float(np.float32(np.mean(exact[:i + 1]))) for i in range(3)]
    np.testing.assert_allclose(running, means, rtol=1e-6)
    assert running[0] == batch_losses[0] and running[2] != batch_losses[2]


def test_batch_hooks_get_logs_by_keyword():
    # Keras calls `on_*_batch_*(batch, logs=logs)`: `**kwargs` hooks work.
    seen = []

    class KeywordHooks(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, **kwargs):
            seen.append(("train", sorted(kwargs)))

        def on_test_batch_begin(self, batch, **kwargs):
            seen.append(("test", sorted(kwargs)))

        def on_predict_batch_end(self, batch, **kwargs):
            seen.append(("predict", sorted(kwargs)))

    x, y = data(8)
    model = regression_model()
    model.fit(x, y, batch_size=4, epochs=1, verbose=0,
              validation_data=(x, y), callbacks=[KeywordHooks()])
    model.predict(x, batch_size=8, verbose=0, callbacks=[KeywordHooks()])
    assert seen == [("train", ["logs"])] * 2 + [("test", ["logs"])] * 2 + \
        [("predict", ["logs"])]
    # LambdaCallback batch hooks take `(batch, logs)` positionally, as its
    # documentation says, whatever the second parameter is called.
    got = []
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, callbacks=[
        keras.callbacks.LambdaCallback(
            on_train_batch_end=lambda b, l: got.append(sorted(l)))])
    assert got == [["loss", "mae"]]


def test_data_used_up_on_an_epoch_boundary_reports_the_last_logs():
    x, y = data(24)

    def batches():
        for i in range(4):
            yield x[i * 6:(i + 1) * 6], y[i * 6:(i + 1) * 6]

    recorder = Recorder()
    model = regression_model()
    with pytest.warns(UserWarning, match="ran out of data"):
        history = model.fit(batches(), steps_per_epoch=2, epochs=3,
                            verbose=0, callbacks=[recorder])
    # Keras: the third epoch finds no batch and repeats the second's logs.
    assert len(history.history["loss"]) == 3
    assert history.history["loss"][2] == history.history["loss"][1]


def test_predict_batch_logs_flatten_dict_outputs():
    # Keras 3.15 passes a dict-output model's batch outputs as top-level
    # keys ({"a": (4, 1) array, "b": (4, 2) array}), and a single output or
    # a list of outputs under "outputs".
    x, _ = data(6)
    inputs = keras.Input((3,))
    dict_model = keras.Model(inputs, {"b": keras.layers.Dense(2)(inputs),
                                      "a": keras.layers.Dense(1)(inputs)})
    list_model = keras.Model(inputs, [keras.layers.Dense(1)(inputs),
                                      keras.layers.Dense(2)(inputs)])
    seen = []
    record = keras.callbacks.LambdaCallback(
        on_predict_batch_end=lambda batch, logs: seen.append(
            {k: np.shape(v) if not isinstance(v, list) else
             [np.shape(a) for a in v] for k, v in logs.items()}))
    dict_model.predict(x, batch_size=4, verbose=0, callbacks=[record])
    list_model.predict(x, batch_size=4, verbose=0, callbacks=[record])
    assert seen == [{"a": (4, 1), "b": (4, 2)}, {"a": (2, 1), "b": (2, 2)},
                    {"outputs": [(4, 1), (4, 2)]},
                    {"outputs": [(2, 1), (2, 2)]}]
    assert list(seen[0]) == ["a", "b"]


def test_tensor_log_values_reach_callbacks_as_numpy():
    # Keras 3.15 hands callbacks floats for scalars and numpy arrays for
    # other tensors (its pythonify_logs), never backend tensors.
    class VectorLogs(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            return {"loss": keras.ops.convert_to_tensor(1.5),
                    "vec": keras.ops.ones((2,))}

    seen = []
    model = VectorLogs()
    model.compile("sgd", "mse")
    x, y = data(10)
    history = model.fit(x, y, batch_size=5, epochs=1, verbose=0, callbacks=[
        keras.callbacks.LambdaCallback(
            on_train_batch_end=lambda batch, logs: seen.append(logs))])
    assert [type(logs["vec"]) for logs in seen] == [np.ndarray] * 2
    assert [type(logs["loss"]) for logs in seen] == [float] * 2
    assert type(history.history["vec"][0]) is np.ndarray


def test_a_lone_callback_needs_no_list():
    # Keras 3.15 accepts `callbacks=cb` (its CallbackList flattens it).
    x, y = data(10)
    rec = Recorder()
    regression_model().fit(x, y, batch_size=5, epochs=1, verbose=0,
                           callbacks=rec)
    assert rec.events[0] == "on_train_begin"
    assert ("on_train_batch_end", 1) in rec.events
    lone = keras.callbacks.CallbackList(rec)
    assert lone.callbacks == [rec]
