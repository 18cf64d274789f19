"""Warm starting from another checkpoint."""
import numpy as np
import pytest

from kerasish import estimator
from kerasish import feature_column as fc
from tests.estimator.util import data, make, regression_model_fn


def trained(tmp_path):
    source = make(tmp_path / "source")
    source.train(data, steps=30)
    return source


def warm(tmp_path, settings):
    est = make(tmp_path / "warm")
    est._warm_start_settings = estimator.warm_starting.settings_from(
        settings)
    est.train(data, steps=1)
    return est


def test_warm_start_from_a_folder_takes_trainable_variables(tmp_path):
    source = trained(tmp_path)
    est = estimator.Estimator(regression_model_fn, str(tmp_path / "warm"),
                              params={"learning_rate": 0.0},
                              warm_start_from=str(tmp_path / "source"))
    est.train(data, steps=1)
    np.testing.assert_allclose(est.get_variable_value("linear/kernel"),
                               source.get_variable_value("linear/kernel"))
    # Optimizer slots are not trainable: the default regex skips them.
    assert int(est.get_variable_value("adam/iteration")) == 1


def test_list_of_regexes_takes_every_variable(tmp_path):
    trained(tmp_path)
    est = warm(tmp_path, estimator.WarmStartSettings(
        str(tmp_path / "source"), vars_to_warm_start=[".*"]))
    assert int(est.get_variable_value("adam/iteration")) == 31


def test_previous_names_and_missing_variables(tmp_path):
    trained(tmp_path)
    with pytest.raises(ValueError, match="'renamed' \\(warm-starting "
                                         "'linear/kernel'\\) is not in"):
        warm(tmp_path, estimator.WarmStartSettings(
            str(tmp_path / "source"), vars_to_warm_start="linear/kernel",
            var_name_to_prev_var_name={"linear/kernel": "renamed"}))


def test_vocabulary_remap(tmp_path):
    old_vocab = tmp_path / "old.txt"
    old_vocab.write_text("a\nb\nc\n")
    new_vocab = tmp_path / "new.txt"
    new_vocab.write_text("c\nz\na\n")
    column = fc.categorical_column_with_vocabulary_file("w", str(old_vocab))
    features = {"w": np.array(["a", "b", "c"])}
    source = estimator.LinearRegressor([column], model_dir=str(tmp_path /
                                                                "s"))
    source.train(lambda: (features, np.array([1.0, 2.0, 3.0])), steps=20)
    old = source.get_variable_value("linear/linear_model/w/weights")
    name = "linear/linear_model/w/weights"
    new_column = fc.categorical_column_with_vocabulary_file(
        "w", str(new_vocab), num_oov_buckets=1)
    est = estimator.LinearRegressor(
        [new_column], model_dir=str(tmp_path / "t"),
        optimizer="SGD", warm_start_from=estimator.WarmStartSettings(
            str(tmp_path / "s"), vars_to_warm_start=None,
            var_name_to_vocab_info={name: estimator.VocabInfo(
                str(new_vocab), 3, 1, str(old_vocab))}))
    # One step on "z" (label 0, its weight and the bias are 0): the rows
    # of "c" and "a" keep their warm-started values.
    est.train(lambda: ({"w": np.array(["z"])}, np.array([0.0])), steps=1)
    remapped = est.get_variable_value(name)
    np.testing.assert_allclose(remapped[[0, 2]], old[[2, 0]])
    assert remapped[3, 0] == 0.0   # the OOV bucket starts at zero


def test_settings_errors():
    with pytest.raises(ValueError, match="MUST be set"):
        estimator.WarmStartSettings("")
    with pytest.raises(ValueError, match="string or a WarmStartSettings"):
        estimator.warm_starting.settings_from(3)
    with pytest.raises(ValueError, match="axis"):
        estimator.VocabInfo("a", 1, 0, "b", axis=2)
