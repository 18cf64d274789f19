"""Losses between distributions and counts: Kullback-Leibler divergence
and Poisson."""
from kerasish import ops
from kerasish.backend import config
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

_METRICS = "keras.metrics"


@builtin(_METRICS)
@builtin(MODULE, "kld", "KLD", "kullback_leibler_divergence")
def kl_divergence(y_true, y_pred):
    """Kullback-Leibler divergence `sum(y_true * log(y_true / y_pred))`.

    Both inputs are clipped to `[epsilon, 1]` first.

    Args:
        y_true: Target distribution, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted distribution, same shape.

    Example:

    >>> round(float(kl_divergence([[0.5, 0.5]], [[0.25, 0.75]])[0]), 4)
    0.1438
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    eps = config.epsilon()
    y_true = ops.clip(y_true, eps, 1.0)
    y_pred = ops.clip(y_pred, eps, 1.0)
    return ops.sum(y_true * ops.log(y_true / y_pred), axis=-1)


@builtin(_METRICS)
@builtin(MODULE)
def poisson(y_true, y_pred):
    """Poisson loss `mean(y_pred - y_true * log(y_pred + epsilon))`.

    Args:
        y_true: Observed counts, shape `(batch_size, d0, .. dN)`.
        y_pred: Predicted rates, same shape.

    Example:

    >>> round(float(poisson([[1.0, 2.0]], [[1.0, 1.0]])[0]), 4)
    1.0
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    eps = ops.convert_to_tensor(config.epsilon(), dtype=y_pred.dtype)
    return ops.mean(y_pred - y_true * ops.log(y_pred + eps), axis=-1)


@builtin(MODULE)
class KLDivergence(BuiltinLoss):
    """Kullback-Leibler divergence between labels and predictions.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"kl_divergence"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(KLDivergence()([[0.5, 0.5]], [[0.25, 0.75]])), 4)
    0.1438
    """

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence",
                 dtype=None):
        super().__init__(kl_divergence, reduction, name, dtype)


@builtin(MODULE)
class Poisson(BuiltinLoss):
    """Poisson loss between observed counts and predicted rates.

    Args:
        reduction: `"sum_over_batch_size"` (default), `"sum"`, `"mean"`,
            `"mean_with_sample_weight"` or `None`/`"none"`.
        name: Name of the loss. Defaults to `"poisson"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> round(float(Poisson()([[1.0, 2.0]], [[1.0, 1.0]])), 4)
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="poisson",
                 dtype=None):
        super().__init__(poisson, reduction, name, dtype)
