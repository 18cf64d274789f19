"""California housing price regression (Keras's
`keras.datasets.california_housing`)."""
import numpy as np

from kerasish.datasets.boston_housing import (check_test_split,
                                              shuffle_and_split)
from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


def load_data(version="large", path="california_housing.npz", test_split=0.2,
              seed=113):
    """Loads the California Housing dataset.

    20,640 census block groups of California (1990 census), each with 8
    attributes (median income, house age, average rooms and bedrooms,
    population, average occupancy, latitude, longitude), and the median
    house value (in $) to predict. From the StatLib archive.

    Args:
        version: `"large"` (the default: all 20,640 samples) or `"small"`
            (the first 600 samples only).
        path: File name of the cached data (in `~/.keras/datasets`).
            Defaults to `"california_housing.npz"`.
        test_split: Fraction of the data reserved as test set, in
            `[0, 1)`. Defaults to 0.2.
        seed: Random seed for shuffling the data before computing the test
            split. Defaults to 113.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: arrays of shape
        `(num_samples, 8)` and `(num_samples,)`.

    Example:

    >>> (x_train, y_train), _ = load_data("small")  # doctest: +SKIP
    >>> x_train.shape  # doctest: +SKIP
    (480, 8)
    """
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN_FOLDER}california_housing.npz",
                    file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError("Argument `version` must be one of 'small', "
                         f"'large'. Received: version={version}")
    return shuffle_and_split(x, y, test_split, seed)
