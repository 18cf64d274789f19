"""The rest of `keras.ops.math`: FFTs, STFT, framing, segment ops, logdet.

`kerasish/ops/math.py` re-exports everything listed in `__all__`.
"""
from kerasish.backend import linalg_ops as LO
from kerasish.ops.linalg import _assert_2d, _assert_square, _float
from kerasish.ops.symbolic import keras_op

__all__ = ["logdet"]


@keras_op
def logdet(x):
    """Log-determinant of a (positive-definite) square matrix.

    Computed as the log of the absolute determinant (`slogdet`), stably.

    Args:
        x: Tensor of shape `(..., M, M)`.

    Returns:
        Tensor of shape `(...)`.

    Example:

    >>> round(float(logdet([[2.0, 0.0], [0.0, 3.0]])), 5)
    1.79176
    """
    x = _float(x)
    _assert_2d(x)
    _assert_square(x)
    return LO.logabsdet(x)
