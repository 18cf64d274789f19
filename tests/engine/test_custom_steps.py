"""Custom steps and trackers, as the Keras guides write them; expected
values were checked against Keras 3.15 (TF backend)."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import layers, ops

X = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
Y = X.sum(axis=1, keepdims=True)


def _dense():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.set_weights([np.full((3, 1), 0.5, "float32"),
                       np.zeros(1, "float32")])
    return model


class GuideTestStep(keras.Model):
    """The guide's `test_step`: results of all metrics, compile metrics
    nested as `{"compile_metrics": {"mae": ...}}`."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(
            1, kernel_initializer=keras.initializers.Constant(0.5))

    def call(self, x):
        return self.dense(x)

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred)
        self.compute_metrics(x, y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def test_nested_results_are_flattened_as_keras():
    model = GuideTestStep()
    model.compile("sgd", "mse", metrics=["mae"])
    logs = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "mae"]
    assert all(isinstance(v, float) for v in logs.values())
    assert sorted(model.test_on_batch(X, Y, return_dict=True)) == \
        ["loss", "mae"]
    history = model.fit(X, Y, epochs=1, verbose=0, validation_data=(X, Y))
    # The validation mae goes to val_mae, not over the training mae.
    assert sorted(history.history) == ["loss", "mae", "val_loss", "val_mae"]
    assert history.history["mae"] != history.history["val_mae"]


def test_single_batch_methods_return_what_the_step_returned():
    class RawLoss(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            loss = ops.mean(ops.square(y - self(x)))
            return {"loss": loss}      # the loss tracker is not updated

    model = RawLoss()
    model.compile("sgd", "mse")
    expected = float(np.mean(np.square(Y - X.sum(1, keepdims=True))))
    assert model.train_on_batch(X, Y) == expected == 0.0
    model.dense.kernel.assign(np.full((3, 1), 2.0, "float32"))
    expected = float(np.mean(np.square(Y - 2 * X.sum(1, keepdims=True))))
    np.testing.assert_allclose(model.train_on_batch(X, Y), expected,
                               rtol=1e-6)


def test_metrics_anywhere_in_attributes_are_tracked():
    class Probe(layers.Layer):
        def __init__(self):
            super().__init__()
            self.mean = keras.metrics.Mean(name="act_mean")

        def call(self, x):
            self.mean.update_state(x)
            return x

    class WithTrackers(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)
            self.probe = Probe()
            self.others = [keras.metrics.Sum(name="seen")]

        def call(self, x):
            self.others[0].update_state(ops.ones((ops.shape(x)[0],)))
            return self.probe(self.dense(x))

    model = WithTrackers()
    model.compile("sgd", "mse")
    model(X)
    names = [m.name for m in model.metrics]
    assert names[-2:] == ["seen", "act_mean"]
    history = model.fit(X, Y, batch_size=4, epochs=3, verbose=0)
    # Reset each epoch, as every metric in `model.metrics` is.
    assert history.history["seen"] == [8.0, 8.0, 8.0]
    assert "act_mean" in history.history


def test_compute_loss_override_without_training_argument():
    class OldStyle(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="zeros")

        def call(self, x):
            return self.dense(x)

        def compute_loss(self, x=None, y=None, y_pred=None,
                         sample_weight=None):
            return ops.mean(ops.abs(y - y_pred))

    model = OldStyle()
    model.compile("sgd")
    history = model.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    np.testing.assert_allclose(history.history["loss"],
                               [np.mean(np.abs(Y))], rtol=1e-6)


class RecordsData(keras.Model):
    """Steps that record the structure of the batch they receive."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(2)
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def _record(self, data):
        self.seen.append(keras.tree.map_structure(lambda a: a.shape, data))

    def train_step(self, data):
        self._record(data)
        return {}

    def test_step(self, data):
        self._record(data)
        return {}

    def predict_step(self, data):
        self._record(data)
        return self(data)


def test_steps_receive_x_alone_as_keras_packs_it():
    # Keras hands the steps `x` itself when there are no targets (the
    # keras.io VAE computes `binary_crossentropy(data, reconstruction)`);
    # a list/tuple `x` comes wrapped as `(x,)`, its list as a tuple.
    model = RecordsData()
    model.compile(optimizer="sgd")
    model.fit(X, epochs=1, batch_size=8, verbose=0)
    model.fit(X, Y, epochs=1, batch_size=8, verbose=0)
    model.evaluate(X, batch_size=8, verbose=0)
    model.predict(X, batch_size=8, verbose=0)
    model.fit({"a": X}, epochs=1, batch_size=8, verbose=0)
    model.fit([X, X], epochs=1, batch_size=8, verbose=0)
    assert model.seen == [(8, 3), ((8, 3), (8, 1)), (8, 3), (8, 3),
                          {"a": (8, 3)}, (((8, 3), (8, 3)),)]


class NoCall(keras.Model):
    """The keras.io VAE/GAN shape: sublayers used only by `train_step`."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(
            1, kernel_initializer=keras.initializers.Constant(0.5))
        self.tracker = keras.metrics.Mean(name="loss")

    def train_step(self, data):
        x, y = data
        with keras.backend.GradientTape() as tape:
            loss = ops.mean(ops.square(self.dense(x) - y))
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply(grads, self.trainable_weights)
        self.tracker.update_state(loss)
        return {"loss": self.tracker.result()}


def test_model_without_call_trains_through_its_own_step():
    # Keras on TensorFlow defers building to the step; a failed build from
    # the data must not stop such a model (a plain model still raises).
    model = NoCall()
    model.compile(optimizer=keras.optimizers.SGD(0.1))
    history = model.fit(X, Y, epochs=3, batch_size=8, verbose=0)
    losses = history.history["loss"]
    np.testing.assert_allclose(
        losses[0], np.mean((X.sum(1, keepdims=True) * 0.5 - Y) ** 2),
        rtol=1e-6)
    assert losses[2] < losses[1] < losses[0]

    class Plain(keras.Model):
        pass

    plain = Plain()
    plain.compile(optimizer="sgd", loss="mse")
    with pytest.raises(NotImplementedError):
        plain.fit(X, Y, epochs=1, verbose=0)
