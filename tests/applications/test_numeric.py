"""Outputs equal Keras's for the same weights and inputs.

`fixtures/numeric.npz` holds, per case of `cases.NUMERIC` (one small
configuration per family), Keras's `model.predict` of
`recipe.image_batch` after `model.set_weights(recipe.weight_values(...))`
(`make_fixtures.py numeric`, Keras 3.15.1 on JAX). The same recipe sets
the same values here, so no weights file is stored.
"""
import os

import numpy as np
import pytest

from tests.applications import helpers
from tests.applications.fixtures.cases import NUMERIC, NUMERIC_BATCH
from tests.applications.fixtures.recipe import image_batch, weight_values

REFERENCE = np.load(os.path.join(helpers.FIXTURES, "numeric.npz"))


def _specs(model):
    return [(w.name, tuple(w.shape), w.dtype) for w in model.weights]


def test_fixture_covers_every_case():
    assert set(REFERENCE.files) == set(NUMERIC)


@pytest.mark.parametrize("case", sorted(NUMERIC))
def test_output_matches_keras(case):
    function_name, kwargs = NUMERIC[case]
    model = helpers.build(function_name, kwargs)
    model.set_weights(weight_values(_specs(model)))
    pixels = image_batch(kwargs["input_shape"], NUMERIC_BATCH)
    expected = REFERENCE[case]
    got = model.predict(pixels, verbose=0)
    assert got.shape == expected.shape
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * scale)
