"""add_metrics: more eval metrics on an existing Estimator's model."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator
from kerasish import feature_column as fc

X = np.arange(8, dtype="float32").reshape(8, 1)
Y = np.array([0, 1, 0, 1, 1, 1, 0, 1], "float32")


def quick():
    return estimator.RunConfig(log_step_count_steps=None,
                               save_checkpoints_steps=1000)


def batches():
    return keras.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(3)


def test_added_metric_accumulates_over_the_evaluation(tmp_path):
    seen = []

    def metric_fn(labels, predictions, features, config):
        seen.append(config.model_dir)
        mse = keras.metrics.MeanSquaredError(name="prob_mse")
        mse.update_state(labels[:, None], predictions["logistic"])
        return {"prob_mse": mse}

    base = estimator.LinearClassifier([fc.numeric_column("x")],
                                      model_dir=str(tmp_path),
                                      config=quick())
    base.train(batches, steps=3)
    extended = estimator.add_metrics(base, metric_fn)
    assert extended.model_dir == base.model_dir
    results = extended.evaluate(batches)
    original = base.evaluate(batches)
    assert set(results) == set(original) | {"prob_mse"}
    assert results["accuracy"] == original["accuracy"]
    # The whole evaluation's mean, over three batches (3 + 3 + 2 rows).
    probabilities = np.concatenate(
        [p["logistic"] for p in base.predict(
            lambda: keras.data.Dataset.from_tensor_slices({"x": X}).batch(3))])
    np.testing.assert_allclose(results["prob_mse"],
                               np.mean((probabilities - Y) ** 2), rtol=1e-5)
    assert seen and set(seen) == {str(tmp_path)}


def test_metric_fn_arguments_are_checked():
    base = estimator.LinearRegressor([fc.numeric_column("x")])
    with pytest.raises(ValueError, match=r"not expected args: \['mode'\]"):
        estimator.add_metrics(base, lambda predictions, mode: {})
    with pytest.raises(ValueError, match="must be callable"):
        estimator.add_metrics(base, {"auc": None})
