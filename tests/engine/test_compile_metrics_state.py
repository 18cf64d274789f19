"""Compiled metric objects start fit/evaluate from zero, as in Keras."""
import numpy as np

import kerasish as keras
from kerasish import ops

X = np.linspace(0, 1, 12, dtype="float32").reshape(6, 2)


class StartsAtOne(keras.metrics.Metric):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.t = self.add_variable(shape=(2,), name="t", initializer="ones")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.t.assign_add(ops.sum(y_pred, axis=0))

    def result(self):
        return ops.sum(self.t)


def _model(metric):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        2, kernel_initializer=keras.initializers.Constant(0.5))])
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=[metric])
    return model


# Reference values from Keras 3.15 (JAX backend), same model and data.

def test_fit_resets_a_metric_whose_state_starts_non_zero():
    history = _model(StartsAtOne(name="s")).fit(
        X, X, batch_size=3, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["s"], [6.0, 6.0], rtol=1e-6)


def test_evaluate_resets_a_metric_used_before_compile():
    used = keras.metrics.MeanAbsoluteError(name="mae2")
    used.update_state(np.zeros((2, 2)), np.full((2, 2), 100.0))
    result = _model(used).evaluate(X, X, verbose=0, return_dict=True)
    np.testing.assert_allclose(result["mae2"], 0.0454545430, rtol=1e-5)


def test_train_on_batch_resets_but_compute_metrics_does_not():
    logs = _model(StartsAtOne(name="s")).train_on_batch(X, X,
                                                        return_dict=True)
    assert float(logs["s"]) == 6.0
    model = _model(StartsAtOne(name="s"))
    logs = model.compute_metrics(X, X, model(X), None)
    assert float(logs["s"]) == 8.0     # 2 initial ones + 6
