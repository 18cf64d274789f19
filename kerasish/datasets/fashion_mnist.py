"""Fashion-MNIST (Keras's `keras.datasets.fashion_mnist`)."""
import gzip
import os

import numpy as np

from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILES = ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz")
LABEL_NAMES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot")


def _read_idx(path, offset):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8, offset=offset)


def load_data():
    """Loads the Fashion-MNIST dataset.

    60,000 28x28 grayscale images of 10 fashion categories (`LABEL_NAMES`),
    with a test set of 10,000 images, by Zalando Research (MIT licence).
    The four gzipped IDX files are downloaded once into
    `~/.keras/datasets/fashion-mnist/`, as Keras does.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(num_samples, 28, 28)` and uint8 labels 0..9.

    Example:

    >>> (x_train, y_train), _ = load_data()  # doctest: +SKIP
    >>> LABEL_NAMES[9]
    'Ankle boot'
    """
    paths = [get_file(fname, origin=ORIGIN_FOLDER + fname,
                      cache_subdir=os.path.join("datasets", "fashion-mnist"))
             for fname in FILES]
    y_train = _read_idx(paths[0], 8)
    x_train = _read_idx(paths[1], 16).reshape(len(y_train), 28, 28)
    y_test = _read_idx(paths[2], 8)
    x_test = _read_idx(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
