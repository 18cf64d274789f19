import copy

import numpy as np
import pytest

import kerasish


@pytest.fixture(autouse=True)
def _seed_and_reset_names():
    """Every test starts from the same seed and fresh layer names."""
    kerasish.utils.set_random_seed(1337)
    kerasish.backend.clear_session(free_memory=False)  # gc per test: slow
    yield


@pytest.fixture
def rng():
    return np.random.default_rng(0)


_GENERATOR_STATES = {}


@pytest.fixture(autouse=True)
def _module_generators_restart(request):
    """A test module's own numpy Generators (`rng = default_rng(0)` at the
    top) restart for every test, so a test draws the same numbers in
    whatever order the tests run."""
    module = request.module
    states = _GENERATOR_STATES.get(module.__name__)
    if states is None:
        states = {name: copy.deepcopy(value.bit_generator.state)
                  for name, value in vars(module).items()
                  if isinstance(value, np.random.Generator)}
        _GENERATOR_STATES[module.__name__] = states
    for name, state in states.items():
        getattr(module, name).bit_generator.state = state
