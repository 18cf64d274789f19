"""Circle loss (Sun et al., 2020) for metric learning on embeddings."""
import numpy as np

from kerasish import ops
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

# Stands in for -inf in the masked log-sum-exps: exp() of it is exactly 0
# in float32, and unlike -inf it keeps all-masked rows free of NaNs in
# both the value and the gradient.
_MASKED = -1e30


def build_pos_neg_masks(query_labels, key_labels, remove_diagonal=True):
    """Boolean `(positive, negative)` pair masks from two label vectors."""
    query = np.asarray(query_labels).reshape(-1, 1)
    key = np.asarray(key_labels).reshape(-1, 1)
    positive = query == key.T
    negative = ~positive
    if remove_diagonal:
        positive &= ~np.eye(query.size, key.size, dtype=bool)
    return positive, negative


@builtin(MODULE)
def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None,
           remove_diagonal=True, gamma=80, margin=0.4):
    """Circle loss over all pairs of (L2-normalised) embeddings.

    Each pair's similarity is re-weighted by how far it is from its
    optimum, so hard positives and hard negatives dominate.

    Args:
        y_true: Integer labels, shape `(batch_size,)`.
        y_pred: Embeddings (L2-normalised), shape `(batch_size, dim)`.
        ref_labels: Labels of reference embeddings; defaults to `y_true`.
        ref_embeddings: Reference embeddings; defaults to `y_pred`.
        remove_diagonal: Ignore each sample paired with itself. Defaults
            to True.
        gamma: Scale factor. Defaults to 80.
        margin: Relaxation margin. Defaults to 0.4.

    Returns:
        Per-sample losses (samples without any valid pair are masked out).

    Example:

    >>> import numpy as np
    >>> emb = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]], "float32")
    >>> [round(v, 3) for v in circle([0, 0, 1], emb).numpy().tolist()]
    [0.0, 38.4, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    labels = np.asarray(ops.convert_to_numpy(y_true)).astype("int32")
    ref = y_pred if ref_embeddings is None else \
        ops.convert_to_tensor(ref_embeddings)
    ref_labels = labels if ref_labels is None else \
        np.asarray(ops.convert_to_numpy(ref_labels)).astype("int32")
    distances = ops.maximum(1.0 - ops.matmul(y_pred, ops.transpose(ref)),
                            0.0)
    positive, negative = build_pos_neg_masks(labels, ref_labels,
                                             remove_diagonal)
    pos_weights = ops.maximum((margin + distances) * positive, 0.0)
    neg_weights = ops.maximum((1.0 + margin - distances) * negative, 0.0)
    pos_logits = -gamma * pos_weights * (margin - distances)
    neg_logits = gamma * neg_weights * (1.0 - margin - distances)
    p_loss = ops.logsumexp(ops.where(positive, pos_logits, _MASKED), axis=1)
    n_loss = ops.logsumexp(ops.where(negative, neg_logits, _MASKED), axis=1)
    loss = ops.softplus(p_loss + n_loss)
    loss._keras_mask = ops.greater(loss, 0.0)
    return loss


@builtin(MODULE)
class Circle(BuiltinLoss):
    """Circle loss for metric learning (pairs built within the batch).

    Args:
        gamma: Scale factor. Defaults to 80.0.
        margin: Relaxation margin. Defaults to 0.4.
        remove_diagonal: Ignore each sample paired with itself. Defaults
            to True.
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        name: Name of the loss. Defaults to `"circle"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> import numpy as np
    >>> emb = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]], "float32")
    >>> round(float(Circle()([0, 0, 1], emb)), 3)
    19.2
    """
    _config_keys = ("gamma", "margin", "remove_diagonal")

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, reduction, name, dtype, gamma=gamma,
                         margin=margin, remove_diagonal=remove_diagonal)
