"""kerasish loads the files real Keras 3 wrote (tests/fixtures/keras).

For every family of tests/fixtures/families.py, Keras saved a trained
model as `.keras`, `.h5` and `.weights.h5`, with its predictions, weights,
optimizer state and the weights after one more training step
(tests/fixtures/make_fixtures.py). No Keras is needed here.
"""
import warnings

import numpy as np
import pytest

import kerasish
from tests.fixtures import families
from tests.saving import interop
from tests.saving.interop import Expected, assert_allclose_tree

MODEL_FORMATS = [".keras", "_dir", ".h5"]
# Keras 3 records no input shape for a subclassed model in legacy .h5, so
# neither Keras nor kerasish can rebuild it from such a file (checked in
# test_keras_subclassed_h5_needs_a_built_model).
UNLOADABLE = {("subclassed", ".h5")}


LOADABLE = [(name, ext) for name in interop.NAMES for ext in MODEL_FORMATS
            if ext in interop.info(name)["formats"] and
            (name, ext) not in UNLOADABLE]
RESUMABLE = [(name, ext) for name, ext in LOADABLE
             if interop.info(name)["exact_resume"]]


def _load(name, ext):
    return kerasish.models.load_model(
        interop.path(name, ext), custom_objects=interop.custom_objects(name))


def test_every_family_has_fixtures():
    assert set(interop.NAMES) == set(families.FAMILIES)
    assert interop.MANIFEST["keras_version"].startswith("3.")


@pytest.mark.parametrize("name, ext", LOADABLE)
def test_load_model_predicts_like_keras(name, ext):
    expected = Expected(name)
    model = _load(name, ext)
    assert_allclose_tree(model.predict(expected.x, verbose=0),
                         expected.pred)
    assert_allclose_tree(model.get_weights(), expected.weights, atol=0,
                         rtol=0)
    if interop.info(name)["compiled"]:
        state = [np.asarray(v) for v in model.optimizer.variables]
        assert_allclose_tree(state, expected.optimizer, atol=0, rtol=0)


@pytest.mark.parametrize("name, ext", RESUMABLE)
def test_training_resumes_where_keras_stopped(name, ext):
    expected = Expected(name)
    model = _load(name, ext)
    model.train_on_batch(expected.x, expected.y)
    for got, after, before in zip(model.get_weights(), expected.after,
                                  expected.weights):
        # A weight whose true gradient is zero (an attention key bias:
        # softmax ignores it) moves by rounding noise that Adam-like
        # optimizers normalize; only its step's size is reproducible.
        step = np.max(np.abs(after - before), initial=0.0)
        atol = 2 * step if step < 1e-4 else 2e-6
        np.testing.assert_allclose(got, after, atol=max(atol, 2e-6),
                                   rtol=1e-5)


# Keras reads a legacy .h5 file's metric names as metric objects, so they
# come back under the objects' names (what Keras 3.15 gives after loading
# these files; it cannot load multi_io_shared's, which follows the rule).
H5_RENAMED_BY_KERAS = {
    "compile_objects": {"mae": "weighted_mean_absolute_error",
                        "mse": "mean_squared_error"},
    "functional_sgd": {"mae": "mean_absolute_error"},
    "multi_io_shared": {"score_mae": "score_mean_absolute_error"},
}


@pytest.mark.parametrize("name, ext", [
    (name, ext) for name, ext in LOADABLE if interop.info(name)["compiled"]])
def test_loaded_model_evaluates_like_keras(name, ext):
    # The compile configuration (losses, metrics, their names) survives.
    expected = Expected(name)
    model = _load(name, ext)
    logs = model.evaluate(expected.x, expected.y, verbose=0,
                          return_dict=True)
    renamed = H5_RENAMED_BY_KERAS.get(name, {}) if ext == ".h5" else {}
    keras_logs = {renamed.get(key, key): value for key, value in
                  interop.info(name)["evaluate"].items()}
    assert sorted(logs) == sorted(keras_logs)
    for key, value in keras_logs.items():
        np.testing.assert_allclose(logs[key], value, rtol=2e-5, atol=1e-6,
                                   err_msg=key)


def _fresh(name):
    kerasish.backend.clear_session()
    return families.FAMILIES[name](kerasish).model


@pytest.mark.parametrize("name", interop.with_format(".weights.h5"))
def test_load_weights_from_keras_weights_h5(name):
    expected = Expected(name)
    model = _fresh(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.load_weights(interop.path(name, ".weights.h5"))
    # As in Keras: the fresh optimizer is not built yet (it holds only
    # iteration and learning_rate), so saved slots are skipped with a
    # warning.
    assert all("Skipping variable loading for optimizer" in str(w.message)
               for w in caught)
    assert len(caught) == int(len(expected.optimizer) > 2)
    assert_allclose_tree(model.predict(expected.x, verbose=0),
                         expected.pred)


@pytest.mark.parametrize("by_name", [False, True])
@pytest.mark.parametrize("name", sorted(set(interop.with_format(".h5")) -
                                         {"subclassed"}))
def test_load_weights_from_keras_legacy_h5(name, by_name):
    expected = Expected(name)
    model = _fresh(name)
    model.load_weights(interop.path(name, ".h5"), by_name=by_name)
    assert_allclose_tree(model.get_weights(), expected.weights, atol=0,
                         rtol=0)


def test_keras_subclassed_h5_needs_a_built_model():
    name = "subclassed"
    expected = Expected(name)
    with pytest.raises(ValueError, match="not built yet"):
        _load(name, ".h5")
    model = _fresh(name)        # the family calls the model once: built
    model.load_weights(interop.path(name, ".h5"))
    assert_allclose_tree(model.predict(expected.x, verbose=0),
                         expected.pred)


def test_loaded_keras_model_trains_dropout_in_fit():
    # Keras records `training=False` on the Dropout node; it must not
    # freeze the layer in kerasish.
    model = _load("reshape_flatten", ".keras")
    x = Expected("reshape_flatten").x
    train = model(x, training=True).numpy()
    infer = model(x, training=False).numpy()
    assert not np.allclose(train, infer)
