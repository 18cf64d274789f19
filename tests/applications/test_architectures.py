"""Every application equals Keras's: layer names, classes, order, weights.

The fixture (`fixtures/structures.json.gz`, made by real Keras) lists per
case the model name, input/output shapes, parameter count and, per layer,
its name, class and weights (name, shape, dtype, path). Equal records mean
Keras's weights files load by position and by name.
"""
import numpy as np
import pytest

from kerasish.backend.common.variable import Variable
from tests.applications import helpers
from tests.applications.fixtures.cases import STRUCTURE

REFERENCE = helpers.load_structures()


@pytest.fixture
def zero_weights(monkeypatch):
    # The structure does not depend on the initial values; skipping the
    # random draws keeps the 350M-parameter ConvNeXtXLarge cheap (np.zeros
    # pages are only mapped when written).
    monkeypatch.setattr(Variable, "_initial_value", staticmethod(
        lambda initializer, shape, dtype: np.zeros(shape, dtype)))


def test_fixture_covers_every_case():
    assert set(REFERENCE) == set(STRUCTURE)


@pytest.mark.parametrize("case", sorted(STRUCTURE))
def test_structure_matches_keras(case, zero_weights):
    function_name, kwargs = STRUCTURE[case]
    model = helpers.build(function_name, kwargs)
    difference = helpers.first_difference(helpers.structure(model),
                                          REFERENCE[case])
    assert difference is None, difference


def test_every_family_function_is_covered():
    import kerasish
    functions = {name for name in dir(kerasish.applications)
                 if name[0].isupper()}
    assert functions == {function for function, _ in STRUCTURE.values()}
