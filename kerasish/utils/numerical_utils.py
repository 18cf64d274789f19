"""Array helpers from `keras.utils`: `to_categorical`, `normalize`."""
import numpy as np


def to_categorical(x, num_classes=None):
    """One-hot encode integer class labels.

    >>> to_categorical([0, 2], 3)
    array([[1., 0., 0.],
           [0., 0., 1.]])
    """
    x = np.asarray(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if num_classes is None:
        num_classes = int(np.max(x)) + 1
    out = np.zeros((x.shape[0], num_classes))
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """Scale `x` to unit `order`-norm along `axis`.

    Example:

    >>> x = np.array([[3.0, 4.0]], "float32")
    >>> np.asarray(kerasish.utils.normalize(x))
    array([[0.6, 0.8]], dtype=float32)
    """
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
