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
