"""MNIST handwritten digits (Keras's `keras.datasets.mnist`)."""
import numpy as np

from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """Loads the MNIST dataset.

    60,000 28x28 grayscale images of the 10 digits, with a test set of
    10,000 images, from Yann LeCun's site (CC BY-SA 3.0). Downloaded once
    into `~/.keras/datasets/` (or `$KERAS_HOME/datasets/`), the file Keras
    uses.

    Args:
        path: File name of the cached data (in `~/.keras/datasets`).
            Defaults to `"mnist.npz"`.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(num_samples, 28, 28)` with values 0..255, and uint8 labels 0..9
        of shape `(num_samples,)`.

    Example:

    >>> (x_train, y_train), (x_test, y_test) = load_data()  # doctest: +SKIP
    >>> x_train.shape, y_train.shape  # doctest: +SKIP
    ((60000, 28, 28), (60000,))
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}mnist.npz",
                    file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
