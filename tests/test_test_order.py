"""tests/conftest.py: a test module's generators restart for every test, so
no test's numbers depend on which tests ran before it."""
import numpy as np
import pytest

rng = np.random.default_rng(0)
FIRST_DRAW = np.random.default_rng(0).standard_normal(3)


@pytest.mark.parametrize("run", range(3))
def test_a_module_generator_restarts_for_every_test(run):
    np.testing.assert_array_equal(rng.standard_normal(3), FIRST_DRAW)
