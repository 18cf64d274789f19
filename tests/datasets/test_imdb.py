import numpy as np
import pytest

import kerasish
from kerasish.datasets import imdb
from tests.datasets.fake_cache import (assert_same, fake_files,  # noqa
                                       keras_home, keras_outputs, md5,
                                       patch_hash)
from tests.fixtures.data_utils.dataset_files import IMDB_CALLS


@pytest.fixture
def cache(keras_home, monkeypatch, fake_files):
    patch_hash(monkeypatch, imdb, fake_files, "imdb.npz")
    patch_hash(monkeypatch, imdb, fake_files, "imdb_word_index.json",
               "WORD_INDEX_HASH", md5)
    return keras_home


@pytest.mark.parametrize("name", sorted(IMDB_CALLS))
def test_matches_keras(name, cache, keras_outputs):
    result = imdb.load_data(**IMDB_CALLS[name])
    assert_same(result, keras_outputs[f"imdb_{name}"])
    (x_train, _), _ = result
    assert x_train.ndim == 1 and isinstance(x_train[0], list)


def test_word_index(cache, keras_outputs):
    assert imdb.get_word_index() == keras_outputs["imdb_word_index"]


def test_maxlen_that_keeps_nothing(cache):
    with pytest.raises(ValueError, match="maxlen=2, no sequence was kept"):
        imdb.load_data(maxlen=2)


def test_extra_keywords_warn(cache):
    with pytest.warns(UserWarning, match="nb_words"):
        imdb.load_data(nb_words=10)


def test_vocabulary_rules(cache):
    (x_train, _), (x_test, _) = imdb.load_data(num_words=10, skip_top=5)
    words = {w for seq in list(x_train) + list(x_test) for w in seq}
    assert words <= {2} | set(range(5, 10))
    assert all(seq[0] == 2 for seq in x_train)   # start_char 1 < skip_top
    assert np.asarray(imdb.load_data()[0][1]).dtype == np.int64


def test_namespace():
    assert kerasish.datasets.imdb.get_word_index is imdb.get_word_index
