"""`Loss` base class and Keras's reduction rules.

`loss(y_true, y_pred, sample_weight)` computes per-sample values with
`call`, merges any Keras mask into the sample weights, applies them and
reduces: `"sum_over_batch_size"` (default, = `"mean"`) divides the weighted
sum by the number of elements, not by the sum of the weights.
"""
import numpy as np

from kerasish import ops, tree
from kerasish.backend import config
from kerasish.backend.common import naming
from kerasish.backend.tensor import Tensor

_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean",
               "mean_with_sample_weight")


def standardize_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(
            "Invalid value for argument `reduction`. Expected one of "
            f"{set(_REDUCTIONS)}. Received: reduction={reduction}")
    return reduction


class Loss:
    """Base class of losses: subclass and implement `call(y_true, y_pred)`.

    Args:
        name: Name of the loss (defaults to the snake_case class name).
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"`, or `None`/`"none"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> class MeanSquared(Loss):
    ...     def call(self, y_true, y_pred):
    ...         return ops.mean(ops.square(y_pred - y_true), axis=-1)
    >>> float(MeanSquared()([[0.0, 1.0]], [[1.0, 1.0]]))
    0.5
    """

    def __init__(self, name=None, reduction="sum_over_batch_size",
                 dtype=None):
        self.name = name or naming.auto_name(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype = str(getattr(dtype, "compute_dtype", dtype)
                          or config.floatx())

    @property
    def dtype(self):
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        in_mask = getattr(y_pred, "_keras_mask", None)
        y_pred = convert_structure(y_pred, self._dtype)
        y_true = convert_structure(y_true, self._dtype)
        losses = self.call(y_true, y_pred)
        out_mask = getattr(losses, "_keras_mask", None)
        if in_mask is not None and out_mask is not None:
            mask = ops.logical_and(in_mask, out_mask)
        else:
            mask = in_mask if in_mask is not None else out_mask
        return reduce_weighted_values(losses, sample_weight, mask,
                                      self.reduction, self._dtype)

    def call(self, y_true, y_pred):
        raise NotImplementedError(
            f"Loss {type(self).__name__} must implement `call()`.")

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _is_number_list(x):
    return isinstance(x, (list, tuple)) and all(
        isinstance(v, (int, float, np.number)) or _is_number_list(v)
        for v in x)


def convert_structure(structure, dtype):
    """Tensors of `dtype` for every array of `structure`.

    A (nested) list of plain numbers is one array, not a structure of
    scalars: `loss([[0.0, 1.0]], [[1.0, 1.0]])` works as it reads.
    """
    if isinstance(structure, (Tensor, np.ndarray)):
        return ops.convert_to_tensor(structure, dtype=dtype)
    if _is_number_list(structure):
        return ops.convert_to_tensor(np.asarray(structure), dtype=dtype)
    return tree.map_structure(
        lambda x: ops.convert_to_tensor(x, dtype=dtype), structure)


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Squeeze or expand the last axis when the ranks differ by exactly 1."""
    r1, r2 = len(x1.shape), len(x2.shape)
    if r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, axis=-1)
        else:
            x1 = ops.squeeze(x1, axis=-1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, axis=-1)
        else:
            x2 = ops.squeeze(x2, axis=-1)
    return x1, x2


def reduce_values(values, sample_weight=None,
                  reduction="sum_over_batch_size"):
    if reduction is None or reduction == "none" or \
            tuple(values.shape) in ((), (0,)):
        return values
    loss = ops.sum(values)
    if reduction in ("sum_over_batch_size", "mean",
                     "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and \
                sample_weight is not None:
            divisor = ops.cast(ops.sum(sample_weight), loss.dtype)
            loss = ops.divide_no_nan(loss, divisor)
        elif values.size:
            loss = ops.divide(loss, float(values.size))
        else:
            loss = ops.zeros((), loss.dtype)
    return loss


def apply_mask(sample_weight, mask, dtype, reduction):
    """Fold a boolean mask into the sample weights (Keras's rule)."""
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):
        # Valid entries weigh total/valid so that the mean is over them.
        total = ops.cast(ops.size(mask), dtype)
        valid = ops.sum(ops.cast(mask, dtype))
        weight = ops.divide_no_nan(total, valid)
        float_mask = ops.where(ops.cast(mask, "bool"), weight, 0.0)
    else:
        float_mask = ops.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    sample_weight = ops.cast(sample_weight, dtype)
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(
        float_mask, sample_weight)
    return sample_weight * float_mask


def reduce_weighted_values(values, sample_weight=None, mask=None,
                           reduction="sum_over_batch_size", dtype=None):
    """Weight, mask and reduce per-sample loss values as a `Loss` does.

    Args:
        values: Per-sample (or per-element) loss values.
        sample_weight: Optional weights broadcastable to `values`.
        mask: Optional boolean mask; masked entries count as weight 0.
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"`, `"none"` or `None`.
        dtype: Optional dtype of the computation.

    Example:

    >>> import kerasish
    >>> values = np.array([1.0, 2.0, 3.0], "float32")
    >>> weights = np.array([1.0, 0.0, 1.0], "float32")
    >>> float(kerasish.losses.reduce_weighted_values(values, weights))
    1.3333333730697632
    """
    reduction = standardize_reduction(reduction)
    values = ops.convert_to_tensor(values, dtype=dtype)
    if sample_weight is None and mask is None:
        return reduce_values(values, None, reduction)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
    if mask is not None:
        mask = ops.convert_to_tensor(mask)
    sample_weight = apply_mask(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        sample_weight = ops.cast(sample_weight, values.dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(
            values, sample_weight)
        _check_broadcastable(values, sample_weight)
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)


def _check_broadcastable(values, sample_weight):
    # numpy's "operands could not be broadcast together" names neither.
    shapes = tuple(values.shape), tuple(sample_weight.shape)
    if any(d is None for shape in shapes for d in shape):
        return
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(
            "`sample_weight` must broadcast to the per-sample losses (one "
            f"weight per sample): the losses have shape {shapes[0]}. "
            f"Received: sample_weight.shape={shapes[1]}") from None
