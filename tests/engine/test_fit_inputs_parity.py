"""Whole training runs against real Keras 3.15.1/JAX: History values and
final weights of the scenarios in `fixtures/fit_cases.py` (optimizers,
losses, metrics, sample/class weights, validation split and data,
multi-output loss weights, regularization, schedules, embeddings, a
PyDataset), unshuffled and shuffled under the same seed.
`fixtures/keras_fit_parity.py` was written by `fixtures/gen_fit_parity.py`.
"""
import numpy as np
import pytest

import kerasish
from tests.engine.fixtures.fit_cases import SCENARIOS, SEED, SHUFFLED
from tests.engine.fixtures.keras_fit_parity import KERAS_FIT


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_training_matches_keras(name):
    model, fit_kwargs = SCENARIOS[name](kerasish)
    history = model.fit(shuffle=False, verbose=0, **fit_kwargs)
    expected = KERAS_FIT[name]
    _assert_history(history.history, expected["history"])
    _assert_weights(model, expected["weights"])


@pytest.mark.parametrize("name", sorted(SHUFFLED))
def test_shuffled_training_matches_keras_under_the_same_seed(name):
    # Keras shuffles arrays with np.random (one extra permutation drawn by
    # the first fit, which reads a batch to build) and a PyDataset with
    # Python's random.shuffle; set_random_seed seeds both.
    build, shuffle = SHUFFLED[name]
    kerasish.utils.set_random_seed(SEED)
    model, fit_kwargs = build(kerasish)
    expected = KERAS_FIT[f"shuffled/{name}"]
    for reference in expected["histories"]:
        history = model.fit(shuffle=shuffle, verbose=0, **fit_kwargs)
        _assert_history(history.history, reference)
    _assert_weights(model, expected["weights"])


def _assert_history(history, expected):
    assert sorted(history) == sorted(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(history[key], values, rtol=1e-4,
                                   atol=1e-5, err_msg=key)


def _assert_weights(model, expected):
    for i, (weight, reference) in enumerate(zip(model.get_weights(),
                                                expected)):
        np.testing.assert_allclose(weight, reference, rtol=1e-4, atol=1e-5,
                                   err_msg=f"weight {i}")
