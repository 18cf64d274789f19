"""Regularizers: penalties, names, configs (Keras 3.15.1 values), errors."""
import numpy as np
import pytest

import kerasish
from kerasish import regularizers
from kerasish.utils import check_grads

W = np.array([[1.0, -2.0], [0.5, 3.0]], "float32")


def test_penalties():
    assert float(regularizers.L1(0.1)(W)) == pytest.approx(0.65, rel=1e-6)
    assert float(regularizers.L2(0.1)(W)) == pytest.approx(1.425, rel=1e-6)
    assert float(regularizers.L1L2(l1=0.1, l2=0.1)(W)) == pytest.approx(
        2.075, rel=1e-6)
    assert float(regularizers.L1L2()(W)) == 0.0


def test_orthogonal_regularizer():
    rows = np.array([[1.0, 0.0], [1.0, 1.0]])
    # Normalized rows have cosine 1/sqrt(2); one pair.
    penalty = regularizers.OrthogonalRegularizer(factor=1.0)(rows)
    assert float(penalty) == pytest.approx(1 / np.sqrt(2), rel=1e-6)
    cols = regularizers.OrthogonalRegularizer(factor=1.0, mode="columns")
    assert float(cols(rows.T)) == pytest.approx(1 / np.sqrt(2), rel=1e-6)
    assert float(regularizers.OrthogonalRegularizer(1.0)(np.eye(3))) == 0.0
    check_grads(regularizers.OrthogonalRegularizer(0.5),
                [np.random.default_rng(0).standard_normal((3, 4))])
    with pytest.raises(ValueError, match="rank 2"):
        regularizers.OrthogonalRegularizer()(np.ones(3))
    with pytest.raises(ValueError, match="mode"):
        regularizers.OrthogonalRegularizer(mode="diagonal")


def test_gradients():
    check_grads(regularizers.L1L2(l1=0.3, l2=0.2),
                [np.array([[0.7, -1.2], [2.0, -0.1]])])


@pytest.mark.parametrize("name,cls", [
    ("l1", regularizers.L1), ("l2", regularizers.L2),
    ("l1l2", regularizers.L1L2), ("l1_l2", regularizers.L1L2),
    ("orthogonal_regularizer", regularizers.OrthogonalRegularizer),
    ("L1", regularizers.L1), ("L1L2", regularizers.L1L2)])
def test_names_resolve_to_instances(name, cls):
    assert isinstance(regularizers.get(name), cls)


def test_configs_match_keras():
    # Keras keeps L1's and OrthogonalRegularizer's factor as float32.
    assert regularizers.L1().get_config() == {"l1": 0.009999999776482582}
    assert regularizers.L2().get_config() == {"l2": 0.01}
    assert regularizers.L1L2().get_config() == {"l1": 0.0, "l2": 0.0}
    assert regularizers.OrthogonalRegularizer().get_config() == {
        "factor": 0.009999999776482582, "mode": "rows"}
    config = regularizers.serialize(regularizers.L2(0.5))
    assert config == {"module": "keras.regularizers", "class_name": "L2",
                      "config": {"l2": 0.5}, "registered_name": None}
    assert regularizers.deserialize(config).l2 == 0.5
    assert regularizers.l1_l2 is regularizers.L1L2


@pytest.mark.parametrize("value", [-0.1, float("nan"), "0.1"])
def test_bad_factors(value):
    with pytest.raises(ValueError, match="l2"):
        regularizers.L2(value)


def test_unknown_identifier_and_base_class():
    with pytest.raises(ValueError, match="Could not interpret regularizer"):
        regularizers.get("l3")
    with pytest.raises(NotImplementedError):
        regularizers.Regularizer().get_config()


def test_weight_regularizer_adds_to_model_losses():
    layer = kerasish.layers.Dense(2, kernel_regularizer="l2",
                                  kernel_initializer="ones")
    layer.build((None, 3))
    assert float(layer.losses[0]) == pytest.approx(0.06)
