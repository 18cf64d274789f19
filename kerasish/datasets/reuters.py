"""Reuters newswire topics (Keras's `keras.datasets.reuters`).

11,228 newswires from Reuters labelled over 46 topics, as lists of word
indices encoded like `imdb`'s (see `kerasish.datasets.imdb`).
"""
import json

import numpy as np

from kerasish.datasets.cifar import load_npz
from kerasish.datasets.imdb import (limit_vocabulary, object_array,
                                    remove_long_seq, shift_indices, shuffled)
from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"
LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
    "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton",
    "carcass", "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp",
    "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal",
    "livestock", "retail", "ipi", "iron-steel", "rubber", "heat", "jobs",
    "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver",
    "wpi", "hog", "lead")


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None,
              test_split=0.2, seed=113, start_char=1, oov_char=2,
              index_from=3):
    """Loads the Reuters newswire classification dataset.

    Args:
        path: File name of the cached data (in `~/.keras/datasets`).
            Defaults to `"reuters.npz"`.
        num_words: Keep the `num_words` most frequent words (indices below
            `num_words` after shifting); others become `oov_char`. Defaults
            to `None`: all words.
        skip_top: Skip the `skip_top` most frequent words. Defaults to 0.
        maxlen: Drop the newswires of `maxlen` words or more. Defaults to
            `None`: keep all.
        test_split: Fraction of the (shuffled) dataset used for testing.
            Defaults to 0.2.
        seed: Seed of the shuffle. Defaults to 113.
        start_char: Index marking the start of each sequence. Defaults to 1.
        oov_char: Index replacing out-of-vocabulary words; `None` drops
            them. Defaults to 2.
        index_from: Shift of the word indices. Defaults to 3.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: 1D object arrays of lists
        of int indices, and int64 topic labels 0..45.

    Example:

    >>> (x_train, y_train), _ = load_data(num_words=1000)  # doctest: +SKIP
    >>> get_label_names()[3]
    'earn'
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}reuters.npz",
                    file_hash=FILE_HASH)
    f = load_npz(path)
    xs, labels = shuffled(np.random.RandomState(seed), f["x"], f["y"])
    xs = shift_indices(xs, start_char, index_from)
    if maxlen:
        xs, labels = remove_long_seq(maxlen, xs, labels)
    xs = limit_vocabulary(xs, num_words, skip_top, oov_char)
    split = int(len(xs) * (1 - test_split))
    return ((object_array(xs[:split]), np.array(labels[:split])),
            (object_array(xs[split:]), np.array(labels[split:])))


def get_word_index(path="reuters_word_index.json"):
    """Retrieves the dictionary mapping words to word indices.

    The indices are frequency ranks, before the `index_from` shift that
    `load_data` applies.

    Args:
        path: File name of the cached index (in `~/.keras/datasets`).
            Defaults to `"reuters_word_index.json"`.

    Returns:
        The word index dictionary: keys are words, values their index.

    Example:

    >>> index = get_word_index()  # doctest: +SKIP
    >>> index["the"]  # doctest: +SKIP
    1
    """
    path = get_file(path, origin=f"{ORIGIN_FOLDER}reuters_word_index.json",
                    file_hash=WORD_INDEX_HASH)
    with open(path) as f:
        return json.load(f)


def get_label_names():
    """Returns the names of the 46 topics, in label order.

    Example:

    >>> names = get_label_names()
    >>> len(names), names[:3]
    (46, ('cocoa', 'grain', 'veg-oil'))
    """
    return LABEL_NAMES
