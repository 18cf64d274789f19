"""Baselines learn the label average, whatever the features."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator

X = np.zeros((4, 1), "float32")
Y = np.array([1.0, 2.0, 3.0, 6.0], "float32")


def quick():
    return estimator.RunConfig(log_step_count_steps=None,
                               save_checkpoints_steps=1000)


def test_one_step_moves_the_bias_by_the_mean_error(tmp_path):
    # Loss mean((b - y)^2) at b = 0: gradient -2 * mean(y) = -6, so one
    # SGD(0.1) step gives b = 0.6.
    est = estimator.BaselineRegressor(model_dir=str(tmp_path),
                                      optimizer=keras.optimizers.SGD(0.1),
                                      config=quick())
    est.train(lambda: ({"x": X}, Y), steps=1)
    np.testing.assert_allclose(est.get_variable_value("baseline/bias"),
                               [0.6], rtol=1e-6)


def test_regressor_learns_the_weighted_mean_and_ignores_features(tmp_path):
    weights = np.array([1.0, 1.0, 1.0, 3.0], "float32")
    est = estimator.BaselineRegressor(
        model_dir=str(tmp_path), weight_column="w",
        optimizer=keras.optimizers.SGD(0.2), config=quick())
    est.train(lambda: ({"x": X, "w": weights}, Y), steps=200)
    # (1 + 2 + 3 + 3 * 6) / 6 = 4
    np.testing.assert_allclose(est.get_variable_value("baseline/bias"),
                               [4.0], rtol=1e-4)
    features = {"x": np.array([[-5.0], [7.0]], "float32")}
    predictions = [p["predictions"] for p in est.predict(lambda: features)]
    np.testing.assert_allclose(predictions, [[4.0], [4.0]], rtol=1e-4)


def test_classifier_learns_the_class_distribution(tmp_path):
    labels = np.array([0, 1, 1, 2, 2, 2])
    est = estimator.BaselineClassifier(
        model_dir=str(tmp_path), n_classes=3,
        optimizer=keras.optimizers.SGD(1.0), config=quick())
    est.train(lambda: ({"x": np.zeros((6, 1))}, labels), steps=400)
    prediction = next(est.predict(lambda: {"x": np.zeros((1, 1))}))
    np.testing.assert_allclose(prediction["probabilities"],
                               [1 / 6, 2 / 6, 3 / 6], atol=1e-3)
    assert est.get_variable_value("baseline/bias").shape == (3,)


def test_binary_classifier_with_default_ftrl(tmp_path):
    labels = np.array([0, 1, 1, 1] * 4)
    est = estimator.BaselineClassifier(model_dir=str(tmp_path),
                                       config=quick())
    est.train(lambda: ({"x": np.zeros((16, 1))}, labels), steps=300)
    names = est.get_variable_names()
    assert "baseline/bias" in names and "global_step" in names
    assert "training/Ftrl/baseline/bias/accumulator" in names
    results = est.evaluate(lambda: ({"x": np.zeros((16, 1))}, labels),
                           steps=1)
    assert results["accuracy"] == 0.75
    assert abs(results["prediction/mean"] - 0.75) < 0.02


def test_baseline_estimator_takes_a_head(tmp_path):
    est = estimator.BaselineEstimator(estimator.RegressionHead(2),
                                      model_dir=str(tmp_path),
                                      config=quick())
    est.train(lambda: ({"x": X}, np.stack([Y, -Y], 1)), steps=1)
    assert est.get_variable_value("baseline/bias").shape == (2,)


@pytest.mark.parametrize("features,message", [
    ({"a": np.zeros((4, 1)), "b": np.zeros((3, 1))}, "same batch size"),
    ({}, "non-empty dictionary"),
])
def test_bad_features(tmp_path, features, message):
    est = estimator.BaselineRegressor(model_dir=str(tmp_path),
                                      config=quick())
    with pytest.raises(ValueError, match=message):
        est.train(lambda: (features, Y), steps=1)


def test_not_a_head():
    with pytest.raises(ValueError, match="`head` must be a head"):
        estimator.BaselineEstimator("regression")
