"""Maximum-margin losses: hinge, squared hinge and categorical hinge.

Binary labels given as 0/1 are mapped to -1/1 first, as Keras does (only
when every label is 0 or 1).
"""
import numpy as np

from kerasish import ops
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

_METRICS = "keras.metrics"


def convert_binary_labels_to_hinge(y_true):
    """0/1 labels -> -1/1; labels with any other value pass unchanged."""
    values = np.asarray(ops.convert_to_numpy(y_true))
    if np.all((values == 0) | (values == 1)):
        return 2.0 * y_true - 1.0
    return y_true


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    return convert_binary_labels_to_hinge(y_true), y_pred


@builtin(_METRICS)
@builtin(MODULE)
def hinge(y_true, y_pred):
    """Hinge loss `mean(maximum(1 - y_true * y_pred, 0), axis=-1)`.

    Args:
        y_true: Labels in {-1, 1} (or {0, 1}, converted), shape
            `(batch_size, d0, .. dN)`.
        y_pred: Predicted scores, same shape.

    Example:

    >>> float(hinge([[0.0, 1.0]], [[0.5, 0.5]])[0])
    1.0
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


@builtin(_METRICS)
@builtin(MODULE)
def squared_hinge(y_true, y_pred):
    """Squared hinge `mean(square(maximum(1 - y_true * y_pred, 0)))`.

    Args:
        y_true: Labels in {-1, 1} (or {0, 1}, converted).
        y_pred: Predicted scores, same shape.

    Example:

    >>> float(squared_hinge([[0.0, 1.0]], [[0.5, 0.5]])[0])
    1.25
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    margin = ops.maximum(1.0 - y_true * y_pred, 0.0)
    return ops.mean(ops.square(margin), axis=-1)


@builtin(_METRICS)
@builtin(MODULE)
def categorical_hinge(y_true, y_pred):
    """Categorical hinge `maximum(neg - pos + 1, 0)`.

    `pos = sum(y_true * y_pred)` and `neg = max((1 - y_true) * y_pred)`.

    Args:
        y_true: One-hot labels, shape `(batch_size, num_classes)`.
        y_pred: Predicted scores, same shape.

    Example:

    >>> round(float(categorical_hinge([[0.0, 1.0]], [[0.3, 0.6]])[0]), 4)
    0.7
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    pos = ops.sum(y_true * y_pred, axis=-1)
    neg = ops.max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(neg - pos + 1.0, 0.0)


@builtin(MODULE)
class Hinge(BuiltinLoss):
    """Hinge loss between labels in {-1, 1} (or {0, 1}) and scores.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"hinge"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> float(Hinge()([[0.0, 1.0]], [[0.5, 0.5]]))
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="hinge",
                 dtype=None):
        super().__init__(hinge, reduction, name, dtype)


@builtin(MODULE)
class SquaredHinge(BuiltinLoss):
    """Squared hinge loss between labels in {-1, 1} (or {0, 1}) and scores.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"squared_hinge"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> float(SquaredHinge()([[0.0, 1.0]], [[0.5, 0.5]]))
    1.25
    """

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge",
                 dtype=None):
        super().__init__(squared_hinge, reduction, name, dtype)


@builtin(MODULE)
class CategoricalHinge(BuiltinLoss):
    """Categorical hinge loss between one-hot labels and scores.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"categorical_hinge"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(CategoricalHinge()([[0.0, 1.0]], [[0.3, 0.6]])), 4)
    0.7
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, reduction, name, dtype)
