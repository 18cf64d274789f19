"""The fit/evaluate/predict loops with `steps_per_execution` (fit_loop.py).

Keras 3 runs `steps_per_execution=N` batches between batch hooks:
`on_*_batch_begin(begin_step)`, N steps, `on_*_batch_end(begin_step + N -
1, logs of the last step)`, even when the data ends inside an execution.
The hook indices, file names and shapes below were recorded with Keras 3.15
(JAX backend) on the same data and sizes.
"""
import os

import numpy as np
import pytest

import kerasish


def data(n=10):
    x = np.random.default_rng(0).random((n, 3)).astype("float32")
    return x, x.sum(1, keepdims=True)


def model(spe):
    m = kerasish.Sequential([kerasish.Input((3,)), kerasish.layers.Dense(1)])
    m.set_weights([np.array([[0.1], [-0.2], [0.05]], "float32"),
                   np.array([0.1], "float32")])
    m.compile(kerasish.optimizers.SGD(0.01), "mse", metrics=["mae"],
              steps_per_execution=spe)
    return m


class Events(kerasish.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []

    def _add(tag):
        def hook(self, batch, logs=None):
            self.events.append((tag, batch, dict(logs or {})))
        return hook

    on_train_batch_begin, on_train_batch_end = _add("tbb"), _add("tbe")
    on_test_batch_begin, on_test_batch_end = _add("vbb"), _add("vbe")
    on_predict_batch_begin, on_predict_batch_end = _add("pbb"), _add("pbe")


def steps_of(events, tag):
    return [b for t, b, _ in events if t == tag]


@pytest.mark.parametrize("spe, ends", [(2, [1, 3, 5]), (3, [2, 5])])
def test_fit_hooks_once_per_execution(spe, ends):
    x, y = data()
    base, grouped = Events(), Events()
    h1 = model(1).fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                      validation_data=(x, y), callbacks=[base])
    m = model(spe)
    h = m.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
              validation_data=(x, y), callbacks=[grouped])
    begins = [e - spe + 1 for e in ends]
    assert steps_of(grouped.events, "tbb") == begins * 2
    assert steps_of(grouped.events, "tbe") == ends * 2
    assert steps_of(grouped.events, "vbb") == begins * 2
    assert steps_of(grouped.events, "vbe") == ends * 2
    # Every batch still trains: the logs at an execution's end are those
    # of its last step (5 batches: the last real step is 4).
    logs_1 = [l for t, _, l in base.events if t == "tbe"]
    ended = [(b, l) for t, b, l in grouped.events if t == "tbe"]
    for i, (step, logs) in enumerate(ended):
        epoch = i // len(ends)
        assert logs == pytest.approx(logs_1[5 * epoch + min(step, 4)])
    # pytest.approx compares flat containers only (pytest >= 9.2 refuses a
    # dict of lists), so compare the history key by key.
    assert h.history.keys() == h1.history.keys()
    for key, values in h1.history.items():
        assert h.history[key] == pytest.approx(values), key
    assert h.params["steps"] == 5


def test_predict_and_evaluate_group_batches():
    x, y = data()
    events = Events()
    m = model(2)
    m.evaluate(x, y, batch_size=2, verbose=0, callbacks=[events])
    out = m.predict(x, batch_size=2, verbose=0, callbacks=[events])
    assert steps_of(events.events, "vbb") == [0, 2, 4]
    assert steps_of(events.events, "vbe") == [1, 3, 5]
    assert steps_of(events.events, "pbe") == [1, 3, 5]
    # An execution's outputs are concatenated (Keras: [4, 1], [4, 1], [2, 1]).
    shapes = [l["outputs"].shape for t, _, l in events.events if t == "pbe"]
    assert shapes == [(4, 1), (4, 1), (2, 1)]
    np.testing.assert_allclose(out, model(1).predict(x, verbose=0),
                               rtol=1e-6)


def test_steps_run_whole_executions():
    # Keras: steps_per_epoch=3 with steps_per_execution=2 runs 2
    # executions (4 batches) an epoch; evaluate/predict `steps=3` too.
    x, y = data()
    drawn = []

    def forever():
        while True:
            drawn.append(1)
            yield x[:2], y[:2]

    events = Events()
    m = model(2)
    m.fit(forever(), epochs=2, steps_per_epoch=3, verbose=0,
          callbacks=[events])
    assert steps_of(events.events, "tbb") == [0, 2, 0, 2]
    assert steps_of(events.events, "tbe") == [1, 3, 1, 3]
    assert len(drawn) == 8
    assert m.predict(x, batch_size=2, steps=3, verbose=0).shape == (8, 1)
    events.events.clear()
    m.evaluate(x, y, batch_size=2, steps=3, verbose=0, callbacks=[events])
    assert steps_of(events.events, "vbe") == [1, 3]


@pytest.mark.parametrize("spe, names", [
    (2, ["1-2", "1-4", "1-6", "2-2", "2-4", "2-6"]),
    (3, ["1-3", "1-6", "2-3", "2-6"])])
def test_checkpoint_batches_count_executions(tmp_path, spe, names):
    x, y = data()
    path = os.path.join(tmp_path, "{epoch}-{batch}.weights.h5")
    model(spe).fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                   callbacks=[kerasish.callbacks.ModelCheckpoint(
                       path, save_freq=2, save_weights_only=True)])
    assert sorted(os.listdir(tmp_path)) == [f"{n}.weights.h5" for n in names]


def test_resume_inside_an_epoch_with_executions(tmp_path):
    # BackupAndRestore saving every execution, interrupted in epoch 2,
    # resumes at the next execution and ends on the uninterrupted weights.
    x, y = data()
    full = model(2)
    full.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)

    class Stop(kerasish.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if self.model.optimizer.iterations.numpy() == 7:
                raise RuntimeError("interrupted")

    backup = kerasish.callbacks.BackupAndRestore(str(tmp_path), save_freq=2)
    m = model(2)
    with pytest.raises(RuntimeError, match="interrupted"):
        m.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
              callbacks=[backup, Stop()])
    resumed = model(2)
    resumed.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                callbacks=[kerasish.callbacks.BackupAndRestore(
                    str(tmp_path), save_freq=2)])
    for a, b in zip(resumed.get_weights(), full.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "auto", True])
def test_invalid_steps_per_execution(bad):
    m = kerasish.Sequential([kerasish.Input((3,)), kerasish.layers.Dense(1)])
    with pytest.raises(ValueError, match="steps_per_execution"):
        m.compile("sgd", "mse", steps_per_execution=bad)
