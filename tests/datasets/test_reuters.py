import pytest

import kerasish
from kerasish.datasets import reuters
from tests.datasets.fake_cache import (assert_same, fake_files,  # noqa
                                       keras_home, keras_outputs, md5,
                                       patch_hash)
from tests.fixtures.data_utils.dataset_files import REUTERS_CALLS


@pytest.fixture
def cache(keras_home, monkeypatch, fake_files):
    patch_hash(monkeypatch, reuters, fake_files, "reuters.npz")
    patch_hash(monkeypatch, reuters, fake_files, "reuters_word_index.json",
               "WORD_INDEX_HASH", md5)
    return keras_home


@pytest.mark.parametrize("name", sorted(REUTERS_CALLS))
def test_matches_keras(name, cache, keras_outputs):
    assert_same(reuters.load_data(**REUTERS_CALLS[name]),
                keras_outputs[f"reuters_{name}"])


def test_word_index_and_label_names(cache, keras_outputs):
    assert reuters.get_word_index() == keras_outputs["reuters_word_index"]
    assert list(reuters.get_label_names()) == \
        keras_outputs["reuters_label_names"]


def test_namespace():
    module = kerasish.datasets.reuters
    assert module.load_data is reuters.load_data
    assert module.get_label_names is reuters.get_label_names
