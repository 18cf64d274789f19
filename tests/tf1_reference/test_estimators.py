"""Canned estimators against TF 2.15.1 (`tf.estimator`, the V2 classes).

Each case of `estimators.json` trains one canned estimator for 6 steps on
the same 8 examples (batches of 4, repeated), with TF's default optimizers
(FTRL for linear and baseline models, Adagrad for DNNs). Linear and
baseline models start from zeros as in TF; DNN weights start from fixed
values through a warm start from a checkpoint holding them under TF's
names. Compared: the variable names, every model weight after training,
`evaluate` (keys and numbers), `predict` (keys and values) and the
checkpoints written. The `*_numeric_columns` DNN cases have no embedding,
so their variable names are only the layers' (no input-layer scope).
"""
import numpy as np
import pytest

from kerasish import data, estimator
from kerasish import feature_column as fc
from kerasish.estimator.variable_store import write_checkpoint
from kerasish.train.checkpoint import SUFFIX
from tests.tf1_reference.columns import build_column
from tests.tf1_reference.test_hooks import checkpoint_steps
from tests.tf1_reference.util import assert_close, load

FIXTURE = load("estimators")
INPUTS = FIXTURE["inputs"]
CASES = sorted(FIXTURE["cases"])
MODEL_PREFIXES = ("linear/", "dnn/", "baseline/")


def zeros_or(array):
    def initializer(shape, dtype=None):
        return np.asarray(array, np.float32).reshape(shape)
    return initializer


def input_fn(case, epochs=None):
    labels = INPUTS["labels"][case["labels"]]
    labels = np.asarray(labels, dtype=str if case["labels"] == "vocabulary"
                        else None)
    if case["labels"].startswith("regression"):
        labels = labels.astype(np.float32)
    features = {"x": np.asarray(INPUTS["x"], np.float32)}
    if not case["class"].startswith("Baseline"):
        features["c"] = np.asarray(INPUTS["c"])

    def fn():
        dataset = data.Dataset.from_tensor_slices((features, labels))
        dataset = dataset.batch(INPUTS["batch_size"])
        return dataset.repeat() if epochs is None else dataset
    return fn


def make_estimator(case, model_dir, start_dir):
    kwargs = {}
    for name, value in case["kwargs"].items():
        if name.endswith("feature_columns"):
            value = [build_column(spec, fc, zeros_or, None)
                     for spec in value]
        kwargs[name] = value
    if case["start_values"]:
        values = {name: np.asarray(v, np.float32)
                  for name, v in case["start_values"].items()}
        write_checkpoint(str(start_dir / "start") + SUFFIX, values)
        kwargs["warm_start_from"] = estimator.WarmStartSettings(
            str(start_dir / "start"), vars_to_warm_start=".*")
    cls = getattr(estimator, case["class"])
    return cls(model_dir=str(model_dir), **kwargs)


_TRAINED = {}


@pytest.fixture
def trained(request, tmp_path_factory):
    """`(case, estimator, model_dir)` trained once per case."""
    name = request.param
    if name not in _TRAINED:
        case = FIXTURE["cases"][name]
        folder = tmp_path_factory.mktemp(name)
        (folder / "start").mkdir()
        try:
            est = make_estimator(case, folder / "model", folder / "start")
            est.train(input_fn(case), steps=case["steps"])
            _TRAINED[name] = (case, est, folder / "model")
        except Exception as error:  # noqa: BLE001 - re-raised per test
            _TRAINED[name] = error
    if isinstance(_TRAINED[name], Exception):
        raise _TRAINED[name]
    return _TRAINED[name]


def by_case(test):
    return pytest.mark.parametrize("trained", CASES, indirect=True)(test)


@by_case
def test_model_variable_names(trained):
    case, est, _ = trained
    ours = [n for n in est.get_variable_names()
            if n == "global_step" or n.startswith(MODEL_PREFIXES)]
    assert ours == [n for n in case["variable_names"]
                    if not n.startswith("training/")]


@by_case
def test_all_variable_names(trained):
    # TF lists its optimizer's slots and hyperparameters under "training/".
    case, est, _ = trained
    assert est.get_variable_names() == case["variable_names"]


@by_case
def test_weights_after_training(trained):
    case, est, _ = trained
    for name, value in case["weights"].items():
        assert_close(est.get_variable_value(name), value, rtol=1e-4,
                     atol=1e-5, what=name)


@by_case
def test_evaluate(trained):
    case, est, _ = trained
    results = est.evaluate(input_fn(case, epochs=1))
    assert sorted(results) == sorted(case["evaluate"])
    for key, value in case["evaluate"].items():
        assert_close(results[key], value, rtol=1e-4, atol=1e-5, what=key)


def _plain(value):
    value = np.asarray(value)
    if value.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v
                for v in value.tolist()]
    return value


@by_case
def test_predict(trained):
    case, est, _ = trained
    predictions = list(est.predict(input_fn(case, epochs=1)))
    assert len(predictions) == len(case["predict"])
    for ours, tf in zip(predictions, case["predict"]):
        assert sorted(ours) == sorted(tf)
        for key, value in tf.items():
            if isinstance(np.asarray(value).flat[0], str):
                assert _plain(ours[key]) == value, key
            else:
                assert_close(ours[key], value, rtol=1e-4, atol=1e-5,
                             what=key)


@by_case
def test_checkpoints(trained):
    case, _, model_dir = trained
    assert checkpoint_steps(model_dir) == case["checkpoints"]


def test_warm_start_with_vocab_info(tmp_path):
    # LinearRegressor warm-started from a model with another vocabulary:
    # each token's row moves to its new id, the new token "d" starts at 0;
    # then one FTRL step.
    case = FIXTURE["warm_start_vocab"]
    old_vocab, new_vocab = tmp_path / "old", tmp_path / "new"
    old_vocab.write_text(case["old_vocab"])
    new_vocab.write_text(case["new_vocab"])
    start = str(tmp_path / "start")
    write_checkpoint(start + SUFFIX, {
        n: np.asarray(v, np.float32) for n, v in
        case["start_values"].items()})
    name = "linear/linear_model/c/weights"
    warm = estimator.WarmStartSettings(
        start, vars_to_warm_start=".*", var_name_to_vocab_info={
            name: estimator.VocabInfo(str(new_vocab), new_vocab_size=4,
                                      num_oov_buckets=0,
                                      old_vocab=str(old_vocab),
                                      old_vocab_size=3)})
    columns = [fc.numeric_column("x", shape=2),
               fc.categorical_column_with_vocabulary_file(
                   "c", str(new_vocab), vocabulary_size=4)]
    est = estimator.LinearRegressor(columns, model_dir=str(tmp_path / "m"),
                                    warm_start_from=warm)
    est.train(input_fn({"labels": "regression", "class": "LinearRegressor"}),
              steps=1)
    for variable, value in case["weights"].items():
        assert_close(est.get_variable_value(variable), value, rtol=1e-4,
                     atol=1e-5, what=variable)
