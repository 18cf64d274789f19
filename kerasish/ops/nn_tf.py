"""TF's `tf.nn` losses that `keras.ops` has no name for, used by the TF1
side (canned heads, `nce_loss`) and by ported TF scripts."""
from kerasish.backend import nn as N
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_base import _float
from kerasish.ops.symbolic import keras_op

__all__ = ["sigmoid_cross_entropy_with_logits"]


@keras_op
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Elementwise logistic loss of `logits` against `labels` in `[0, 1]`.

    `max(x, 0) - x * z + log(1 + exp(-|x|))`, stable for any logit, with
    the exact gradient `sigmoid(x) - z` everywhere (also at `x = 0`), as
    `tf.nn.sigmoid_cross_entropy_with_logits`.

    Args:
        labels: Targets `z`, the same shape as `logits`. Defaults to None
            (required; keyword arguments as in TF).
        logits: Logits `x`. Defaults to None (required).
        name: Accepted for TF compatibility.

    Returns:
        A tensor of the shape of `logits`.

    Example:

    >>> loss = sigmoid_cross_entropy_with_logits(
    ...     labels=np.array([1.0, 0.0], "float32"),
    ...     logits=np.array([0.0, 2.0], "float32"))
    >>> np.round(loss.numpy(), 4)
    array([0.6931, 2.1269], dtype=float32)
    """
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits expected both "
                         "`labels` and `logits`. Received: "
                         f"labels={labels!r}, logits={logits!r}")
    logits = _float(logits)
    labels = cast(convert_to_tensor(labels), logits.dtype)
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(
            "sigmoid_cross_entropy_with_logits expected `logits` and "
            "`labels` of the same shape. Received: "
            f"labels.shape={labels.shape}, logits.shape={logits.shape}")
    return N.sigmoid_cross_entropy(labels, logits)
