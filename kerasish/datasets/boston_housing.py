"""Boston housing price regression (Keras's `keras.datasets.boston_housing`).
"""
import numpy as np

from kerasish.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def check_test_split(test_split):
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It "
                         "must be between 0 and 1 (exclusive of 1).")


def shuffle_and_split(x, y, test_split, seed):
    """Shuffle with `np.random.RandomState(seed)`, then keep the first
    `int(n * (1 - test_split))` rows for training."""
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    split = int(len(x) * (1 - test_split))
    return ((np.array(x[:split]), np.array(y[:split])),
            (np.array(x[split:]), np.array(y[split:])))


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """Loads the Boston Housing dataset.

    506 census tracts of Boston in the 1970s, each with 13 attributes, and
    the median home value (in k$) to predict. From the StatLib archive.

    Args:
        path: File name of the cached data (in `~/.keras/datasets`).
            Defaults to `"boston_housing.npz"`.
        test_split: Fraction of the data reserved as test set, in
            `[0, 1)`. Defaults to 0.2.
        seed: Random seed for shuffling the data before computing the test
            split. Defaults to 113.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: arrays of shape
        `(num_samples, 13)` and `(num_samples,)`.

    Example:

    >>> (x_train, y_train), (x_test, y_test) = load_data()  # doctest: +SKIP
    >>> x_train.shape, x_test.shape  # doctest: +SKIP
    ((404, 13), (102, 13))
    """
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN_FOLDER}boston_housing.npz",
                    file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return shuffle_and_split(x, y, test_split, seed)
