"""Whole training runs against real Keras 3.15.1/JAX: History values and
final weights of the scenarios in `fixtures/fit_cases.py` (optimizers,
losses, metrics, sample/class weights, validation split and data,
multi-output loss weights, regularization, schedules, embeddings).
`fixtures/keras_fit_parity.py` was written by `fixtures/gen_fit_parity.py`.
"""
import numpy as np
import pytest

import kerasish
from tests.engine.fixtures.fit_cases import SCENARIOS
from tests.engine.fixtures.keras_fit_parity import KERAS_FIT


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_training_matches_keras(name):
    model, fit_kwargs = SCENARIOS[name](kerasish)
    history = model.fit(shuffle=False, verbose=0, **fit_kwargs)
    expected = KERAS_FIT[name]
    assert sorted(history.history) == sorted(expected["history"])
    for key, values in expected["history"].items():
        np.testing.assert_allclose(history.history[key], values, rtol=1e-4,
                                   atol=1e-5, err_msg=key)
    for i, (weight, reference) in enumerate(zip(model.get_weights(),
                                                expected["weights"])):
        np.testing.assert_allclose(weight, reference, rtol=1e-4, atol=1e-5,
                                   err_msg=f"weight {i}")
