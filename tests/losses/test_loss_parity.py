"""Every built-in loss against values computed by real Keras 3.15.1/JAX.

The inputs are in `fixtures/cases.py`; `fixtures/gen_loss_refs.py` printed
`KERAS_REFS` below (see its docstring for the command).
"""
import numpy as np
import pytest

from kerasish import losses
from tests.losses.fixtures.cases import CASES

KERAS_REFS = {
    'mse': 1.223333,
    'mse_sw': 1.624167,
    'mse_sum': 2.446667,
    'mse_none': [1.096667, 1.35],
    'mse_mean_sw': 1.299333,
    'mae': 0.833333,
    'mape': 33333386.0,
    'msle': 0.308469,
    'cosine': -0.819357,
    'cosine_axis0': [-0.902362, -0.996815, -0.953231],
    'huber': 0.5075,
    'huber_delta': [0.34, 0.3],
    'log_cosh': 0.443159,
    'kld': 0.586662,
    'poisson': 1.543751,
    'hinge': 0.733333,
    'hinge_pm1': [0.2, 1.0, 1.0],
    'squared_hinge': 0.746667,
    'categorical_hinge': [0.0, 2.9, 1.0, 0.0],
    'bce': [0.105361, 0.713558, 0.780324],
    'bce_logits_ls': 0.609339,
    'bce_extreme': [0.0, 8.059048, 0.693147],
    'cce': [0.356675, 1.203973, 0.798508, 0.223144],
    'cce_logits_ls': 0.915608,
    'cce_axis0': [0.356675, 1.203973, 0.798508, 0.223144],
    'scce': [0.356675, 1.203973, 0.798508, 0.223144],
    'scce_logits': 0.833942,
    'scce_ignore': 0.542068,
    'scce_ignore_sum': 2.225624,
    'bfce': [0.001054, 0.205798, 0.311024],
    'bfce_balanced': 0.112233,
    'cfce': [0.008025, 0.147487, 0.060387, 0.002231],
    'cfce_logits': 0.334119,
    'gce': [0.338255, 1.010516, 0.710066, 0.215839],
    'dice': 0.25,
    'dice_axis': [0.148148, 0.461538],
    'tversky': 0.25,
    'tversky_axis': [0.148148, 0.461538],
    'circle': [47.231998, 0.006748, 40.314884, 27.080673],
    'circle_mean': 5.664275,
    'ctc': [4.617951, 4.53219, 6.832757],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name):
    spec = CASES[name]
    loss = getattr(losses, spec["cls"])(**spec["kwargs"])
    value = loss(spec["y_true"], spec["y_pred"],
                 sample_weight=spec["sample_weight"])
    np.testing.assert_allclose(np.asarray(value), KERAS_REFS[name],
                               rtol=2e-5, atol=2e-6)


def test_every_case_has_a_reference():
    assert set(CASES) == set(KERAS_REFS)
