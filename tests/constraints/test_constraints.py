"""Constraints: projections, names and configs as Keras 3.15.1."""
import numpy as np
import pytest

import kerasish
from kerasish import constraints

W = np.array([[3.0, 0.0], [4.0, 0.5]], "float32")   # column norms 5, 0.5


def test_max_norm():
    out = constraints.MaxNorm(max_value=2.0)(W).numpy()
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), [2.0, 0.5],
                               rtol=1e-5)
    rows = constraints.MaxNorm(max_value=1.0, axis=1)(W).numpy()
    assert (np.linalg.norm(rows, axis=1) <= 1.0 + 1e-6).all()


def test_unit_norm_non_neg_and_min_max_norm():
    np.testing.assert_allclose(
        np.linalg.norm(constraints.UnitNorm()(W).numpy(), axis=0), 1.0,
        rtol=1e-5)
    np.testing.assert_array_equal(
        constraints.NonNeg()(np.array([-1.0, 2.0])).numpy(), [0.0, 2.0])
    out = constraints.MinMaxNorm(min_value=1.0, max_value=2.0)(W).numpy()
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), [2.0, 1.0],
                               rtol=1e-5)
    half = constraints.MinMaxNorm(min_value=1.0, max_value=2.0, rate=0.5)
    np.testing.assert_allclose(np.linalg.norm(half(W).numpy(), axis=0),
                               [3.5, 0.75], rtol=1e-5)


@pytest.mark.parametrize("name,config", [
    ("max_norm", {"max_value": 2, "axis": 0}), ("non_neg", {}),
    ("unit_norm", {"axis": 0}),
    ("min_max_norm", {"min_value": 0.0, "max_value": 1.0, "rate": 1.0,
                      "axis": 0})])
def test_names_and_configs_match_keras(name, config):
    constraint = constraints.get(name)
    assert constraint.get_config() == config
    serialized = constraints.serialize(constraint)
    assert serialized["module"] == "keras.constraints"
    again = constraints.deserialize(serialized)
    assert type(again) is type(constraint)


def test_constraint_applies_after_each_update():
    model = kerasish.Sequential([
        kerasish.Input((2,)),
        kerasish.layers.Dense(1, kernel_constraint="non_neg",
                              kernel_initializer="ones")])
    model.compile(optimizer=kerasish.optimizers.SGD(10.0), loss="mse")
    model.fit(np.ones((4, 2), "float32"), -np.ones((4, 1), "float32") * 10,
              epochs=1, verbose=0)
    assert (model.layers[0].kernel.numpy() >= 0).all()


def test_unknown_constraint():
    with pytest.raises(ValueError, match="Could not interpret constraint"):
        constraints.get("positive")
