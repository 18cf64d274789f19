"""Window functions of `keras.ops.numpy` (`floatx()` constants)."""

import numpy as np

from kerasish.backend import config
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.backend.common.keras_tensor import KerasTensor

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _window(np_fn, x, *args):
    m = int(convert_to_tensor(x).numpy())
    return Tensor(np_fn(m, *args).astype(config.floatx()))


def bartlett(x):
    """Bartlett (triangular) window of `x` points.

    Args:
        x: Number of points.

    Returns:
        1-D `floatx()` tensor.

    Example:

    >>> bartlett(5).numpy()
    array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)
    """
    return _window(np.bartlett, x)


def blackman(x):
    """Blackman window of `x` points.

    Args:
        x: Number of points.

    Returns:
        1-D `floatx()` tensor.

    Example:

    >>> np.round(blackman(3).numpy(), 4)
    array([-0.,  1., -0.], dtype=float32)
    """
    return _window(np.blackman, x)


def hamming(x):
    """Hamming window of `x` points.

    Args:
        x: Number of points.

    Returns:
        1-D `floatx()` tensor.

    Example:

    >>> hamming(3).numpy()
    array([0.08, 1.  , 0.08], dtype=float32)
    """
    return _window(np.hamming, x)


def hanning(x):
    """Hann window of `x` points.

    Args:
        x: Number of points.

    Returns:
        1-D `floatx()` tensor.

    Example:

    >>> hanning(3).numpy()
    array([0., 1., 0.], dtype=float32)
    """
    return _window(np.hanning, x)


def kaiser(x, beta):
    """Kaiser window of `x` points with shape parameter `beta`.

    Args:
        x: Number of points.
        beta: Shape parameter (0 gives a rectangular window).

    Returns:
        1-D `floatx()` tensor.

    Example:

    >>> kaiser(3, 0.0).numpy()
    array([1., 1., 1.], dtype=float32)
    """
    if isinstance(x, KerasTensor):
        raise TypeError("Kaiser operation does not support symbolic tensors. "
                        f"Received input x = {x} of type {type(x)}")
    return _window(np.kaiser, x, float(to_array(beta)))
