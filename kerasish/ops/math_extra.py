"""`keras.ops.math` segment reductions, `logdet` and `cdist`."""
import numpy as np

from kerasish.backend import linalg_ops as LO
from kerasish.backend import scatter as SC
from kerasish.backend.dtypes import standardize_dtype
from kerasish.backend.primitive import to_array
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.linalg import _assert_2d, _assert_square, _float
from kerasish.ops.numpy_base import sqrt, square, subtract
from kerasish.ops.numpy_reduce import sum
from kerasish.ops.numpy_shape import expand_dims
from kerasish.ops.symbolic import keras_op


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


def _segment_spec(data, segment_ids, num_segments=None, sorted=False):
    """Symbolic result: `num_segments` rows (None when it is inferred from
    the ids' values, as in Keras)."""
    dtype = data.dtype if isinstance(data, KerasTensor) else \
        convert_to_tensor(data).dtype
    rows = None if num_segments is None else int(num_segments)
    return KerasTensor((rows,) + tuple(data.shape[1:]),
                       dtype=standardize_dtype(dtype))


def _segments(data, segment_ids, num_segments, kind):
    data = convert_to_tensor(data)
    ids = np.asarray(to_array(segment_ids)).astype(np.int64)
    if ids.ndim != 1 or ids.shape[0] != data.shape[0]:
        raise ValueError("`segment_ids` must be 1-D with one id per row of "
                         f"`data`. Received: segment_ids.shape={ids.shape}, "
                         f"data.shape={data.shape}")
    if num_segments is None:
        num_segments = int(ids.max()) + 1 if ids.size else 0
    return SC.segment_reduce(data, ids=ids, num_segments=int(num_segments),
                             kind=kind)


@keras_op(spec=_segment_spec)
def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """Minimum of the rows of `data` per segment id.

    Args:
        data: Tensor whose first axis is segmented.
        segment_ids: 1-D int ids, one per row (out-of-range ids are
            dropped).
        num_segments: Number of segments (default: `max(id) + 1`).
        sorted: Accepted for compatibility (ids need not be sorted).

    Returns:
        Tensor of shape `(num_segments, *data.shape[1:])`; empty segments
        hold the dtype's largest value (`inf` for floats).

    Example:

    >>> segment_min([3.0, 1.0, 2.0], [0, 0, 1]).numpy()
    array([1., 2.], dtype=float32)
    """
    return _segments(data, segment_ids, num_segments, "min")


@keras_op(spec=_segment_spec)
def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """Product of the rows of `data` per segment id.

    Args:
        data: Tensor whose first axis is segmented.
        segment_ids: 1-D int ids, one per row (out-of-range ids are
            dropped).
        num_segments: Number of segments (default: `max(id) + 1`).
        sorted: Accepted for compatibility (ids need not be sorted).

    Returns:
        Tensor of shape `(num_segments, *data.shape[1:])` (1 for empty
        segments); differentiable, exactly also with zeros.

    Example:

    >>> segment_prod([3.0, 2.0, 5.0], [0, 0, 1]).numpy()
    array([6., 5.], dtype=float32)
    """
    return _segments(data, segment_ids, num_segments, "prod")


@keras_op
def cdist(x, y):
    """Euclidean distances between the rows of `x` and the rows of `y`.

    Args:
        x: Tensor of shape `(..., P, M)`.
        y: Tensor of shape `(..., R, M)`.

    Returns:
        Tensor of shape `(..., P, R)`.

    Example:

    >>> cdist([[0.0, 0.0]], [[3.0, 4.0], [0.0, 1.0]]).numpy()
    array([[5., 1.]], dtype=float32)
    """
    x, y = _float(x), _float(y)
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError("`cdist` inputs must have rank >= 2. Received: "
                         f"x.shape={x.shape}, y.shape={y.shape}")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError("Last dimension of inputs to `cdist` must match. "
                         f"Received: x.shape={x.shape}, y.shape={y.shape}")
    diff = subtract(expand_dims(x, -2), expand_dims(y, -3))
    return sqrt(sum(square(diff), axis=-1))
