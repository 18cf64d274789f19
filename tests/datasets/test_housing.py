import pytest

import kerasish
from kerasish.datasets import boston_housing, california_housing
from tests.datasets.fake_cache import (assert_same, fake_files,  # noqa
                                       keras_home, keras_outputs,
                                       patch_hash)
from tests.fixtures.data_utils.dataset_files import HOUSING_CALLS

MODULES = {"boston_housing": boston_housing,
           "california_housing": california_housing}


@pytest.fixture
def cache(keras_home, monkeypatch, fake_files):
    for name, module in MODULES.items():
        patch_hash(monkeypatch, module, fake_files, f"{name}.npz")
    return keras_home


@pytest.mark.parametrize("name", sorted(HOUSING_CALLS))
def test_matches_keras(name, cache, keras_outputs):
    module, kwargs = HOUSING_CALLS[name]
    assert_same(MODULES[module].load_data(**kwargs), keras_outputs[name])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_test_split_errors(module):
    with pytest.raises(ValueError, match="Invalid `test_split` argument: 1"):
        MODULES[module].load_data(test_split=1)


def test_version_error(cache):
    with pytest.raises(ValueError, match="version=medium"):
        california_housing.load_data(version="medium")


def test_namespace():
    assert kerasish.datasets.boston_housing.load_data is \
        boston_housing.load_data
    assert kerasish.datasets.california_housing.load_data is \
        california_housing.load_data
