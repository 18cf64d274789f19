"""keras.wrappers: scikit-learn estimators around kerasish models.

The estimator checks run with the same expected failures Keras 3.15's own
test lists (keras/src/wrappers/sklearn_test.py), with the reasons Keras
gives; every other scikit-learn check must pass.
"""
import pickle
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

import kerasish  # noqa: E402
from kerasish.wrappers import (SKLearnClassifier, SKLearnRegressor,  # noqa
                               SKLearnTransformer)
from sklearn.base import clone  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402


def dynamic_model(X, y, loss, out_activation_function="softmax",
                  layers=(10,)):
    inp = kerasish.Input(shape=(X.shape[1],))
    hidden = inp
    for size in layers:
        hidden = kerasish.layers.Dense(size, activation="relu")(hidden)
    n_outputs = y.shape[1] if len(y.shape) > 1 else 1
    out = kerasish.layers.Dense(n_outputs,
                                activation=out_activation_function)(hidden)
    model = kerasish.Model(inp, [out])
    model.compile(loss=loss, optimizer="rmsprop")
    return model


REPRODUCIBILITY = "This test assumes reproducibility in fit."
EXPECTED_FAILED_CHECKS = {
    "SKLearnClassifier": {
        "check_classifiers_regression_target": "not an issue in sklearn>=1.6",
        "check_parameters_default_constructible":
            "not an issue in sklearn>=1.6",
        "check_classifiers_one_label_sample_weights":
            "0 sample weight is not ignored",
        "check_classifiers_classes": "with small test cases the estimator "
                                     "returns not all classes sometimes",
        "check_classifier_data_not_an_array": REPRODUCIBILITY,
        "check_supervised_y_2d": REPRODUCIBILITY,
        "check_fit_idempotent": REPRODUCIBILITY,
        "check_classifiers_train":
            "decision_function can return both probabilities and logits",
    },
    "SKLearnRegressor": {"check_parameters_default_constructible":
                         "not an issue in sklearn>=1.6"},
    "SKLearnTransformer": {"check_parameters_default_constructible":
                           "not an issue in sklearn>=1.6"},
}
ESTIMATORS = [
    SKLearnClassifier(model=dynamic_model,
                      model_kwargs={"loss": "categorical_crossentropy",
                                    "layers": [20, 20, 20]},
                      fit_kwargs={"epochs": 5, "verbose": 0}),
    SKLearnRegressor(model=dynamic_model, model_kwargs={"loss": "mse"},
                     fit_kwargs={"verbose": 0}),
    SKLearnTransformer(model=dynamic_model, model_kwargs={"loss": "mse"},
                       fit_kwargs={"verbose": 0}),
]


@pytest.mark.parametrize("estimator", ESTIMATORS,
                         ids=lambda e: type(e).__name__)
def test_sklearn_estimator_checks(estimator):
    expected = EXPECTED_FAILED_CHECKS[type(estimator).__name__]
    with warnings.catch_warnings():
        # sklearn's checks feed deliberately odd data (it warns itself).
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, expected_failed_checks=expected,
                                  on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:300])
              for r in results if r["status"] == "failed"]
    assert failed == []
    assert sum(r["status"] == "passed" for r in results) >= 35


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4)).astype("float32")
    y = np.where(X[:, 0] + X[:, 1] > 0, "pos", "neg")
    return X, y


def test_classifier_learns_labels_and_scores():
    X, y = _data()
    clf = SKLearnClassifier(dynamic_model,
                            model_kwargs={"loss": "categorical_crossentropy"},
                            fit_kwargs={"epochs": 60, "verbose": 0})
    clf.fit(X, y)
    assert clf.classes_.tolist() == ["neg", "pos"]
    assert clf.model_.outputs[0].shape == (None, 2)
    assert set(clf.predict(X)) <= {"neg", "pos"}
    assert clf.score(X, y) > 0.8
    assert clf.decision_function(X[:3]).shape == (3, 2)
    assert clf.epoch_ == list(range(60))
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict(X), clf.predict(X))


def test_model_instance_is_cloned_fresh_at_each_fit():
    X, y = _data()
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 kerasish.layers.Dense(2,
                                                       activation="softmax")])
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    before = model.get_weights()
    clf = SKLearnClassifier(model, fit_kwargs={"epochs": 2, "verbose": 0})
    clf.fit(X, y)
    assert clf.model_ is not model and clf.model_.compiled
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert type(clone(clf).model) is type(model)


def test_regressor_and_transformer_in_pipelines_and_grid_search():
    X, _ = _data()
    y = X @ np.array([1.0, -2.0, 0.5, 0.0], "float32")
    pipe = make_pipeline(StandardScaler(), SKLearnRegressor(
        dynamic_model, model_kwargs={"loss": "mse",
                                     "out_activation_function": None},
        fit_kwargs={"epochs": 5, "verbose": 0}))
    assert pipe.fit(X, y).predict(X).shape == (60,)
    search = GridSearchCV(
        SKLearnRegressor(dynamic_model, model_kwargs={"loss": "mse"},
                         fit_kwargs={"epochs": 1, "verbose": 0}),
        {"model_kwargs": [{"loss": "mse", "layers": [4]},
                          {"loss": "mse", "layers": [8]}]}, cv=2)
    search.fit(X, y)
    assert search.best_params_["model_kwargs"]["layers"] in ([4], [8])
    transformer = SKLearnTransformer(
        dynamic_model, model_kwargs={"loss": "mse", "layers": [3]},
        fit_kwargs={"verbose": 0})
    assert transformer.fit(X, X[:, 0]).transform(X).shape == (60, 1)


def test_errors_as_keras():
    X, y = _data()
    uncompiled = SKLearnClassifier(
        lambda X, y: kerasish.Sequential([kerasish.Input((4,)),
                                          kerasish.layers.Dense(2)]),
        fit_kwargs={"verbose": 0})
    with pytest.raises(RuntimeError, match="needs to be compiled"):
        uncompiled.fit(X, y)
    clf = SKLearnClassifier(dynamic_model, model_kwargs={"loss": "mse"},
                            fit_kwargs={"verbose": 0})
    with pytest.raises(NotFittedError):
        clf.predict(X)
    with pytest.raises(ValueError, match="Only binary and multiclass"):
        clf.fit(X, np.linspace(0, 1, 60))
    with pytest.raises(ValueError, match="only one class is present"):
        clf.fit(X, np.zeros(60))


def test_models_pickle_through_keras_files():
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    clone_ = pickle.loads(pickle.dumps(model))
    assert clone_.compiled and clone_ is not model
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(clone_.predict(x, verbose=0),
                               model.predict(x, verbose=0))
