"""Movie review sentences labelled by sentiment (a small IMDB stand-in).

6,000 sentences from Rotten Tomatoes reviews (Pang & Lee's movie review
data), each rated for sentiment by about 20 people in the VADER study
(Hutto & Gilbert, ICWSM 2014). The extract keeps sentences with a clear
polarity (mean rating at least 0.5 away from neutral) and labels them 1
(positive) or 0 (negative): 5,000 for training and 1,000 for testing, both
balanced. Source: the `vaderSentiment` 3.3.2 source distribution on PyPI,
MIT licence (c) 2016 C.J. Hutto; the licence and provenance are in
`data/movie_reviews.LICENSE.txt`, and `tools/make_movie_reviews.py`
rebuilds the extract.

`load_data` follows `keras.datasets.imdb.load_data`: sentences as lists of
word indices ranked by frequency in the training sentences.
"""
import collections
import gzip
import os
import re

import numpy as np

_PATH = os.path.join(os.path.dirname(__file__), "data",
                     "movie_reviews.tsv.gz")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_cache = {}


def tokenize(text):
    """Lower-cased words of `text` (apostrophes kept inside words).

    Example:

    >>> tokenize("It's a gem -- 10/10!")
    ["it's", 'a', 'gem', '10', '10']
    """
    return _WORD.findall(text.lower())


def _rows():
    if "rows" not in _cache:
        with gzip.open(_PATH, "rt", encoding="utf-8") as f:
            next(f)                      # header: split, label, rating, text
            _cache["rows"] = [line.rstrip("\n").split("\t", 3)
                              for line in f]
    return _cache["rows"]


def load_texts():
    """The sentences as strings, with their labels.

    Returns:
        `((texts_train, y_train), (texts_test, y_test))`: `texts` are numpy
        string arrays, `y` are int64 labels (1 positive, 0 negative), in
        the shipped order.

    Example:

    >>> (texts, labels), (test_texts, test_labels) = load_texts()
    >>> len(texts), len(test_texts), int(labels.sum())
    (5000, 1000, 2500)
    """
    splits = {"train": ([], []), "test": ([], [])}
    for split, label, _, text in _rows():
        splits[split][0].append(text)
        splits[split][1].append(int(label))
    return tuple((np.array(texts), np.array(labels, dtype="int64"))
                 for texts, labels in splits.values())


def get_word_index():
    """Word -> rank by frequency in the training sentences (1 = commonest).

    Ties are broken alphabetically. In `load_data`'s sequences a word of
    rank `r` has index `r + index_from`.

    Example:

    >>> index = get_word_index()
    >>> index["the"], index["a"]
    (1, 2)
    """
    if "word_index" not in _cache:
        (texts, _), _ = load_texts()
        counts = collections.Counter(
            word for text in texts for word in tokenize(text))
        ranked = sorted(counts, key=lambda w: (-counts[w], w))
        _cache["word_index"] = {w: i + 1 for i, w in enumerate(ranked)}
    return dict(_cache["word_index"])


def _check_arguments(num_words, skip_top, maxlen):
    for name, value in (("num_words", num_words), ("maxlen", maxlen)):
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValueError(f"`{name}` must be a positive int or None. "
                             f"Received: {name}={value!r}")
    if not isinstance(skip_top, int) or skip_top < 0:
        raise ValueError("`skip_top` must be a non-negative int. "
                         f"Received: skip_top={skip_top!r}")


def _encode(texts, word_index, start_char, index_from):
    """Index sequences; words unknown to the index are left out."""
    start = [] if start_char is None else [start_char]
    return [start + [word_index[w] + index_from for w in tokenize(t)
                     if w in word_index] for t in texts]


def _shuffled(sequences, labels, rng):
    order = np.arange(len(sequences))
    rng.shuffle(order)
    return [sequences[i] for i in order], labels[order]


def _cap_vocabulary(sequences, num_words, skip_top, oov_char):
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in s]
                for s in sequences]
    return [[w for w in s if skip_top <= w < num_words] for s in sequences]


def _as_object_array(sequences):
    out = np.empty(len(sequences), dtype=object)
    out[:] = sequences
    return out


def load_data(num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3):
    """Load the sentences as word-index sequences, like `imdb.load_data`.

    Args:
        num_words: Keep only the `num_words` most frequent words (by rank
            in the training sentences); rarer ones become `oov_char`.
            Defaults to `None` (all words).
        skip_top: Also replace the `skip_top` most frequent words by
            `oov_char`. Defaults to 0.
        maxlen: Leave out sequences of `maxlen` indices or more (counting
            `start_char`), as Keras's IMDB loader does. Defaults to `None`.
        seed: Seed of the shuffle of each split. Defaults to 113.
        start_char: Index marking the start of every sequence; `None` for
            no marker. Defaults to 1.
        oov_char: Index of words cut by `num_words`/`skip_top`; `None`
            drops them instead. Defaults to 2.
        index_from: Offset added to word ranks. Defaults to 3 (0 is
            padding, 1 start, 2 out-of-vocabulary).

    Returns:
        `((x_train, y_train), (x_test, y_test))`: `x` are object arrays of
        lists of ints, `y` int64 labels (1 positive, 0 negative). Test
        words never seen in training are left out of their sequences.

    Example:

    >>> (x_train, y_train), (x_test, y_test) = load_data(num_words=2000)
    >>> len(x_train), len(x_test), x_train[0][0]
    (5000, 1000, 1)
    >>> max(max(s) for s in x_train) < 2000
    True
    """
    _check_arguments(num_words, skip_top, maxlen)
    word_index = get_word_index()
    rng = np.random.RandomState(seed)
    splits = []
    for texts, labels in load_texts():
        sequences = _encode(texts, word_index, start_char, index_from)
        splits.append(_shuffled(sequences, labels, rng))
    if maxlen:
        splits = [([s for s in seqs if len(s) < maxlen],
                   labels[[len(s) < maxlen for s in seqs]])
                  for seqs, labels in splits]
        if not len(splits[0][0]) or not len(splits[1][0]):
            raise ValueError(
                "After filtering for sequences shorter than maxlen="
                f"{maxlen}, no sequence was kept. Increase maxlen.")
    if not num_words:
        num_words = max(max(s, default=0) for seqs, _ in splits
                        for s in seqs) + 1
    return tuple(
        (_as_object_array(_cap_vocabulary(seqs, num_words, skip_top,
                                          oov_char)), labels)
        for seqs, labels in splits)
