"""The UCI optical recognition of handwritten digits set (8x8 images).

1,797 images of the digits 0-9, each an 8x8 grid of counts 0..16 (NIST
32x32 bitmaps summed over 4x4 blocks), by E. Alpaydin and C. Kaynak,
from the UCI Machine Learning Repository (CC BY 4.0):
https://archive.ics.uci.edu/dataset/80. Shipped inside the package, split
once at random (fixed seed) into 1,437 training and 360 test images.
"""
import os

import numpy as np

_PATH = os.path.join(os.path.dirname(__file__), "data", "digits.npz")


def load_data():
    """Load the digits set, in the shape of `keras.datasets.mnist`.

    Returns:
        `((x_train, y_train), (x_test, y_test))`: `x` is uint8 of shape
        `(n, 8, 8)` with values 0..16, `y` is uint8 labels 0..9.

    Example:

    >>> (x_train, y_train), (x_test, y_test) = load_data()
    >>> x_train.shape, x_test.shape
    ((1437, 8, 8), (360, 8, 8))
    """
    with np.load(_PATH) as data:
        return ((data["x_train"], data["y_train"]),
                (data["x_test"], data["y_test"]))
