"""IMDB movie review sentiment (Keras's `keras.datasets.imdb`).

Reviews are lists of word indices, words indexed by overall frequency in
the dataset (index 3 + k is the k-th most frequent word with the default
`index_from=3`); 0 is unused, 1 marks the start of a review and 2 stands
for out-of-vocabulary words. The helpers here are shared with `reuters`.
"""
import json
import warnings

import numpy as np

from kerasish.datasets.cifar import load_npz
from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def shuffled(rng, *arrays):
    """The arrays reordered by one permutation drawn from `rng`."""
    indices = np.arange(len(arrays[0]))
    rng.shuffle(indices)
    return [a[indices] for a in arrays]


def shift_indices(sequences, start_char, index_from):
    """Word indices moved up by `index_from`, after `start_char` if any."""
    head = [] if start_char is None else [start_char]
    return [head + [int(w) + index_from for w in seq] for seq in sequences]


def remove_long_seq(maxlen, sequences, labels):
    """Keep the sequences shorter than `maxlen` (and their labels)."""
    kept = [(seq, label) for seq, label in zip(sequences, labels)
            if len(seq) < maxlen]
    return [s for s, _ in kept], [label for _, label in kept]


def limit_vocabulary(sequences, num_words, skip_top, oov_char):
    """Words outside `[skip_top, num_words)` become `oov_char` (or are
    dropped when `oov_char` is None). `num_words=None` means the largest
    index present (which, as in Keras, then counts as out of range)."""
    if not num_words:
        num_words = max((max(seq) for seq in sequences if seq), default=0)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in seq]
                for seq in sequences]
    return [[w for w in seq if skip_top <= w < num_words]
            for seq in sequences]


def object_array(sequences):
    """A 1D object array of lists (never a 2D array, even when all the
    lists have the same length)."""
    out = np.empty(len(sequences), dtype=object)
    out[:] = [list(seq) for seq in sequences]
    return out


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None,
              seed=113, start_char=1, oov_char=2, index_from=3, **kwargs):
    """Loads the IMDB dataset.

    25,000 movie reviews for training and 25,000 for testing, labelled by
    sentiment (1 positive, 0 negative), as lists of word indices.

    Args:
        path: File name of the cached data (in `~/.keras/datasets`).
            Defaults to `"imdb.npz"`.
        num_words: Keep the `num_words` most frequent words (indices below
            `num_words` after shifting); others become `oov_char`. Defaults
            to `None`: all words.
        skip_top: Skip the `skip_top` most frequent words (they become
            `oov_char`). Defaults to 0.
        maxlen: Drop the reviews of `maxlen` words or more (counting the
            start character). Defaults to `None`: keep all.
        seed: Seed of the shuffle of each set. Defaults to 113.
        start_char: Index marking the start of each review. Defaults to 1.
        oov_char: Index replacing out-of-vocabulary words; `None` drops
            them. Defaults to 2.
        index_from: Shift of the word indices. Defaults to 3.
        **kwargs: Ignored (with a warning), as Keras 3 ignores them.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: 1D object arrays of lists
        of int indices, and int64 labels.

    Example:

    >>> (x_train, y_train), _ = load_data(num_words=10000)  # doctest: +SKIP
    >>> max(max(review) for review in x_train) < 10000  # doctest: +SKIP
    True
    """
    if kwargs:
        # Keras 3 accepts and ignores extra keywords; say so at least.
        warnings.warn(f"Ignoring unrecognized keyword arguments: "
                      f"{sorted(kwargs)}.", stacklevel=2)
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb.npz",
                    file_hash=FILE_HASH)
    f = load_npz(path)
    rng = np.random.RandomState(seed)
    x_train, labels_train = shuffled(rng, f["x_train"], f["y_train"])
    x_test, labels_test = shuffled(rng, f["x_test"], f["y_test"])
    x_train = shift_indices(x_train, start_char, index_from)
    x_test = shift_indices(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = remove_long_seq(maxlen, x_train, labels_train)
        x_test, labels_test = remove_long_seq(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError("After filtering for sequences shorter than "
                             f"maxlen={maxlen}, no sequence was kept. "
                             "Increase maxlen.")
    xs = limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    split = len(x_train)
    return ((object_array(xs[:split]), labels[:split]),
            (object_array(xs[split:]), labels[split:]))


def get_word_index(path="imdb_word_index.json"):
    """Retrieves the dictionary mapping words to word indices.

    The indices are the dataset's frequency ranks, before the
    `index_from` shift that `load_data` applies.

    Args:
        path: File name of the cached index (in `~/.keras/datasets`).
            Defaults to `"imdb_word_index.json"`.

    Returns:
        The word index dictionary: keys are words, values their index.

    Example:

    >>> index = get_word_index()  # doctest: +SKIP
    >>> index["the"]  # doctest: +SKIP
    1
    """
    path = get_file(fname=path,
                    origin=f"{ORIGIN_FOLDER}imdb_word_index.json",
                    file_hash=WORD_INDEX_HASH)
    with open(path) as f:
        return json.load(f)
