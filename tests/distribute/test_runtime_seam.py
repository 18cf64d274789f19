"""The loops never run a step themselves: a second runtime plugs in.

`ThreadRuntime` executes every train/test/predict step on a worker thread
(as a remote runtime would elsewhere) and rebuilds its model replica from
`get_config()` plus weights, addressing variables by `path`. fit, evaluate
and predict must give exactly the local numbers.
"""
import queue
import threading

import numpy as np

import kerasish
from kerasish import layers
from kerasish.distribute import LocalRuntime, Runtime, Strategy


class ThreadRuntime(Runtime):
    def __init__(self):
        self.jobs = queue.Queue()
        self.calls = []
        self.thread_ids = set()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            fn, args, reply = self.jobs.get()
            self.thread_ids.add(threading.get_ident())
            try:
                reply.put((True, fn(*args)))
            except Exception as e:  # noqa: BLE001 - re-raised in caller
                reply.put((False, e))

    def _run(self, fn, *args):
        reply = queue.Queue()
        self.jobs.put((fn, args, reply))
        ok, value = reply.get()
        if not ok:
            raise value
        return value

    def begin(self, model, mode):
        self.calls.append(("begin", mode))

    def end(self, model, mode):
        self.calls.append(("end", mode))

    def train_step(self, model, batch):
        return self._run(model.train_step, batch)

    def test_step(self, model, batch):
        return self._run(model.test_step, batch)

    def predict_step(self, model, batch):
        return self._run(model.predict_step, batch)


def build(seed):
    kerasish.utils.set_random_seed(seed)
    model = kerasish.Sequential([kerasish.Input((5,)),
                                 layers.Dense(8, activation="relu"),
                                 layers.Dropout(0.3),
                                 layers.Dense(3, activation="softmax")])
    return model


def data():
    rng = np.random.default_rng(0)
    x = rng.random((96, 5)).astype("float32")
    return x, (x.sum(1) * 2).astype("int32") % 3


def run(strategy):
    x, y = data()
    with strategy.scope():
        model = build(7)
        model.compile("adam", "sparse_categorical_crossentropy",
                      metrics=["accuracy"])
    kerasish.utils.set_random_seed(11)
    history = model.fit(x, y, epochs=3, batch_size=16, validation_split=0.25,
                        verbose=0)
    return model, history, model.evaluate(x, y, verbose=0), \
        model.predict(x, verbose=0)


def test_thread_runtime_gives_the_local_results():
    runtime = ThreadRuntime()
    model, history, scores, preds = run(Strategy(runtime))
    local_model, local_history, local_scores, local_preds = \
        run(Strategy(LocalRuntime()))
    assert model._runtime is runtime
    assert runtime.thread_ids and threading.get_ident() not in \
        runtime.thread_ids
    assert history.history == local_history.history
    assert scores == local_scores
    np.testing.assert_array_equal(preds, local_preds)
    for a, b in zip(model.get_weights(), local_model.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert runtime.calls[:2] == [("begin", "fit"), ("begin", "evaluate")]
    assert ("end", "predict") in runtime.calls


def test_a_replica_rebuilt_from_config_and_paths_matches():
    model = build(3)
    model.compile("sgd", "sparse_categorical_crossentropy")
    replica = kerasish.Sequential.from_config(model.get_config())
    by_path = {v.path: v.numpy() for v in model.weights}
    for v in replica.weights:
        v.assign(by_path[v.path])
    x, _ = data()
    np.testing.assert_array_equal(replica.predict(x, verbose=0),
                                  model.predict(x, verbose=0))


def test_diverging_steps_raise_no_numpy_warnings():
    # As Keras's compiled steps: an exploding run yields inf/nan logs
    # (TerminateOnNaN stops it) without numpy's overflow warnings, which
    # the test settings would turn into errors.
    x = np.full((8, 2), 1e20, "float32")
    model = kerasish.Sequential([kerasish.Input((2,)),
                                 kerasish.layers.Dense(1)])
    model.compile(kerasish.optimizers.SGD(1e10), "mse")
    history = model.fit(x, x[:, :1], epochs=3, verbose=0,
                        callbacks=[kerasish.callbacks.TerminateOnNaN()])
    assert not np.isfinite(history.history["loss"][-1])
    assert len(history.history["loss"]) < 3
