"""CIFAR-100 small images (Keras's `keras.datasets.cifar100`)."""
import os

import numpy as np

from kerasish.backend import config
from kerasish.datasets.cifar import load_batch
from kerasish.utils.file_utils import get_file

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine"):
    """Loads the CIFAR100 dataset.

    50,000 32x32 color training images and 10,000 test images labelled
    over 100 fine-grained classes grouped into 20 coarse-grained classes,
    by Alex Krizhevsky. The archive is downloaded once into
    `~/.keras/datasets/` and extracted as Keras does (into
    `cifar-100-python-target/`).

    Args:
        label_mode: `"fine"` (the default, 100 classes) or `"coarse"` (20
            super-classes).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(num_samples, 32, 32, 3)` (or channels first, following the image
        data format) and int64 labels of shape `(num_samples, 1)`.

    Example:

    >>> (x_train, y_train), _ = load_data("coarse")  # doctest: +SKIP
    >>> int(y_train.max())  # doctest: +SKIP
    19
    """
    if label_mode not in ("fine", "coarse"):
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. '
                         f"Received: label_mode={label_mode}.")
    path = get_file(fname="cifar-100-python-target", origin=ORIGIN,
                    extract=True, file_hash=FILE_HASH)
    path = os.path.join(path, "cifar-100-python")
    x_train, y_train = load_batch(os.path.join(path, "train"),
                                  label_key=f"{label_mode}_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"),
                                label_key=f"{label_mode}_labels")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if config.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
