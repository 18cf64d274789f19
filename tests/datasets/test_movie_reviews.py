"""The shipped movie review sentences and their IMDB-style loader."""
import gzip
import hashlib
import os

import numpy as np
import pytest

from kerasish.datasets import movie_reviews

DATA = os.path.join(os.path.dirname(movie_reviews.__file__), "data")


def test_texts_are_balanced_real_sentences():
    (texts, y), (test_texts, y_test) = movie_reviews.load_texts()
    assert texts.shape == (5000,) and test_texts.shape == (1000,)
    assert y.dtype == np.int64 and set(y.tolist()) == {0, 1}
    assert int(y.sum()) == 2500 and int(y_test.sum()) == 500
    assert not set(texts) & set(test_texts)
    assert all(len(movie_reviews.tokenize(t)) > 0 for t in texts)


def test_ratings_agree_with_labels_and_licence_is_shipped():
    with gzip.open(os.path.join(DATA, "movie_reviews.tsv.gz"), "rt",
                   encoding="utf-8") as f:
        header = next(f).rstrip("\n").split("\t")
        rows = [line.rstrip("\n").split("\t", 3) for line in f]
    assert header == ["split", "label", "rating", "text"]
    for _, label, rating, _ in rows:
        assert (float(rating) >= 0.5) == (label == "1")
        assert abs(float(rating)) >= 0.5
    with open(os.path.join(DATA, "movie_reviews.LICENSE.txt")) as f:
        licence = f.read()
    assert "MIT License" in licence and "C.J. Hutto" in licence


def test_word_index_ranks_training_words_by_frequency():
    index = movie_reviews.get_word_index()
    (texts, _), _ = movie_reviews.load_texts()
    counts = {}
    for text in texts:
        for word in movie_reviews.tokenize(text):
            counts[word] = counts.get(word, 0) + 1
    assert len(index) == len(counts)
    by_rank = sorted(index, key=index.get)
    assert [counts[w] for w in by_rank] == sorted(counts.values(),
                                                  reverse=True)
    assert sorted(index.values()) == list(range(1, len(index) + 1))


def test_load_data_follows_the_imdb_conventions():
    (x, y), (x_test, y_test) = movie_reviews.load_data()
    assert x.dtype == object and len(x) == 5000 and len(x_test) == 1000
    assert all(s[0] == 1 for s in x)
    index = movie_reviews.get_word_index()
    inverse = {i + 3: w for w, i in index.items()}
    (texts, labels), _ = movie_reviews.load_texts()
    # The shuffle is seeded: the same text and label meet again.
    position = {t: i for i, t in enumerate(texts)}
    decoded = " ".join(inverse[i] for i in x[0][1:])
    match = [t for t in texts
             if " ".join(movie_reviews.tokenize(t)) == decoded]
    assert match and labels[position[match[0]]] == y[0]
    again = movie_reviews.load_data()[0][0]
    assert all(a == b for a, b in zip(x, again))
    assert any(a != b for a, b in zip(x, movie_reviews.load_data(seed=1)
                                      [0][0]))


def test_num_words_skip_top_maxlen_and_markers():
    (x, _), (x_test, _) = movie_reviews.load_data(num_words=100,
                                                  skip_top=10)
    flat = np.concatenate([np.array(s) for s in list(x) + list(x_test)])
    kept = flat[flat != 2]
    assert kept.max() < 100 and (kept[kept != 1] >= 10).all()
    (x, y), _ = movie_reviews.load_data(maxlen=12)
    assert max(len(s) for s in x) < 12 and len(x) == len(y)
    (x, _), _ = movie_reviews.load_data(num_words=50, start_char=None,
                                        oov_char=None, index_from=0)
    assert all(all(0 <= w < 50 for w in s) for s in x)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: num_words=0"):
        movie_reviews.load_data(num_words=0)
    with pytest.raises(ValueError, match="Received: skip_top=-1"):
        movie_reviews.load_data(skip_top=-1)
    with pytest.raises(ValueError, match="no sequence was kept"):
        movie_reviews.load_data(maxlen=1)


def test_extract_is_the_one_the_tool_builds():
    # tools/make_movie_reviews.py writes a byte-stable gzip (mtime=0);
    # this digest pins the shipped extract.
    with open(os.path.join(DATA, "movie_reviews.tsv.gz"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert digest == EXPECTED_SHA256


EXPECTED_SHA256 = (
    "ccd58f909424147f0371b0afa20d6714f1171b73b9170b427f25c8b4d53c5dc6")
