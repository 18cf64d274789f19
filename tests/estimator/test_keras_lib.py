"""model_to_estimator: training a compiled Keras model as an Estimator."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator

X = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32") > 0).astype("float32")


def compiled_model():
    inputs = keras.Input((3,), name="features")
    outputs = keras.layers.Dense(1, activation="sigmoid", name="prob")(
        keras.layers.Dense(8, activation="relu")(inputs))
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy",
                  metrics=["accuracy"])
    return model


def batches(epochs=1):
    return lambda: keras.data.Dataset.from_tensor_slices(
        ({"features": X}, Y)).batch(16).repeat(epochs)


def test_trains_the_model_and_reports_compiled_metrics(tmp_path):
    model = compiled_model()
    est = estimator.model_to_estimator(model, model_dir=str(tmp_path))
    est.train(batches(20))
    results = est.evaluate(batches())
    assert sorted(results) == ["accuracy", "global_step", "loss"]
    assert results["accuracy"] > 0.9 and results["global_step"] == 80
    # The Keras model itself was trained: its predictions agree.
    keras_acc = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert keras_acc["accuracy"] == pytest.approx(results["accuracy"])
    prediction = next(est.predict(lambda: {"features": X}))
    assert set(prediction) == {"prob"}
    assert est.get_variable_value("optimizer/vars/0") == 80  # iterations
    assert "layers/dense/vars/0" in est.get_variable_names()


def test_a_new_model_is_restored_from_model_dir(tmp_path):
    est = estimator.model_to_estimator(compiled_model(),
                                       model_dir=str(tmp_path))
    est.train(batches(5))
    fresh = compiled_model()
    other = estimator.model_to_estimator(fresh, model_dir=str(tmp_path))
    first = np.stack([p["prob"] for p in est.predict(lambda: X)])
    second = np.stack([p["prob"] for p in other.predict(lambda: X)])
    np.testing.assert_allclose(first, second, rtol=1e-6)


def test_metric_names_map_and_array_features(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=["mae"])
    est = estimator.model_to_estimator(
        model, model_dir=str(tmp_path),
        metric_names_map={"mae": "mean_absolute_error"})
    est.train(lambda: (X, Y), steps=3)
    assert sorted(est.evaluate(lambda: (X, Y))) == [
        "global_step", "loss", "mean_absolute_error"]


def test_errors():
    with pytest.raises(ValueError, match="not been compiled"):
        estimator.model_to_estimator(
            keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)]))
    with pytest.raises(ValueError, match="Either `keras_model`"):
        estimator.model_to_estimator()
    model = compiled_model()
    est = estimator.model_to_estimator(model)
    with pytest.raises(ValueError, match=r"missing \['features'\]"):
        est.train(lambda: ({"a": X, "b": X}, Y), steps=1)
