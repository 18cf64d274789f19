"""CIFAR-10 small images (Keras's `keras.datasets.cifar10`)."""
import os

import numpy as np

from kerasish.backend import config
from kerasish.datasets.cifar import load_batch
from kerasish.utils.file_utils import get_file

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
FILE_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"
LABEL_NAMES = ("airplane", "automobile", "bird", "cat", "deer", "dog",
               "frog", "horse", "ship", "truck")


def load_data():
    """Loads the CIFAR10 dataset.

    50,000 32x32 color training images and 10,000 test images in 10
    categories (`LABEL_NAMES`), by Alex Krizhevsky. The archive is
    downloaded once into `~/.keras/datasets/` and extracted as Keras does
    (into `cifar-10-batches-py-target/`).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(num_samples, 32, 32, 3)` (or `(num_samples, 3, 32, 32)` when the
        image data format is `"channels_first"`) and uint8 labels 0..9 of
        shape `(num_samples, 1)`.

    Example:

    >>> (x_train, y_train), _ = load_data()  # doctest: +SKIP
    >>> x_train.shape, y_train.shape  # doctest: +SKIP
    ((50000, 32, 32, 3), (50000, 1))
    """
    path = get_file(fname="cifar-10-batches-py-target", origin=ORIGIN,
                    extract=True, file_hash=FILE_HASH)
    path = os.path.join(path, "cifar-10-batches-py")
    parts = [load_batch(os.path.join(path, f"data_batch_{i}"))
             for i in range(1, 6)]
    x_train = np.concatenate([x for x, _ in parts]).astype("uint8")
    y_train = np.concatenate([y for _, y in parts]).astype("uint8")
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train = y_train.reshape(len(y_train), 1)
    y_test = np.reshape(y_test, (len(y_test), 1)).astype(y_train.dtype)
    x_test = x_test.astype(x_train.dtype)
    if config.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
