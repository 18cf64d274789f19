"""Neural-network primitives: activations, softmax, fused cross-entropy.

The cross-entropy primitives are fused with their softmax because the
composite (softmax -> log -> pick) loses precision for confident logits and
costs three passes; the fused VJP is simply `softmax - onehot`.
"""
import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast

_quiet = dict(divide="ignore", over="ignore", invalid="ignore",
              under="ignore")


@primitive
def relu(x):
    return np.maximum(x, 0)


@relu.defvjp
def _relu_vjp(g, out, x):
    # Zero gradient at exactly 0 (jax.nn.relu's documented choice); a
    # relu written as maximum(x, 0) would give 0.5 there. A select, as in
    # JAX, so an overflowed (inf) gradient of an inactive unit stays 0
    # instead of becoming nan (dynamic loss scaling relies on it).
    return (np.where(x > 0, g, np.zeros((), g.dtype)),)


@primitive
def sigmoid(x):
    with np.errstate(**_quiet):
        return 1 / (1 + np.exp(-x))


@sigmoid.defvjp
def _sigmoid_vjp(g, out, x):
    return (g * out * (1 - out),)


@primitive
def softplus(x):
    # log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|).
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


@softplus.defvjp
def _softplus_vjp(g, out, x):
    with np.errstate(**_quiet):
        return (g / (1 + np.exp(-x)),)



@primitive
def sigmoid_cross_entropy(labels, logits):
    """`max(x, 0) - x * z + log(1 + e^-|x|)`: logistic loss of logits `x`
    against labels `z`, without overflow for any logit."""
    with np.errstate(**_quiet):
        return (np.maximum(logits, 0) - logits * labels +
                np.log1p(np.exp(-np.abs(logits))))


@sigmoid_cross_entropy.defvjp
def _sigmoid_cross_entropy_vjp(g, out, labels, logits, *, needs):
    # Fused because the composite is wrong at x == 0: relu'(0) = 0 and
    # |x|'(0) = 0 drop the 0.5 of sigmoid(0), giving -z instead of 0.5 - z
    # (every canned linear classifier starts at zero logits).
    d_labels = d_logits = None
    if needs[1]:
        with np.errstate(**_quiet):
            d_logits = unbroadcast(g * (1 / (1 + np.exp(-logits)) - labels),
                                   logits)
    if needs[0]:
        d_labels = unbroadcast(-g * logits, labels)
    return d_labels, d_logits

def _shifted(x, axis):
    return x - x.max(axis=axis, keepdims=True)


@primitive
def softmax(x, *, axis=-1):
    with np.errstate(**_quiet):
        e = _shifted(x, axis)
        if e.dtype.kind != "f":
            e = np.exp(e)
        else:       # the same ufuncs in place: no temporaries per call
            np.exp(e, out=e)
        e /= e.sum(axis=axis, keepdims=True)
        return e


@softmax.defvjp
def _softmax_vjp(g, out, x, *, axis=-1):
    gy = g * out
    return (gy - out * gy.sum(axis=axis, keepdims=True),)


@primitive
def log_softmax(x, *, axis=-1):
    with np.errstate(**_quiet):
        z = _shifted(x, axis)
        return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


@log_softmax.defvjp
def _log_softmax_vjp(g, out, x, *, axis=-1):
    return (g - np.exp(out) * np.sum(g, axis=axis, keepdims=True),)


@primitive(saves=True)
def softmax_cross_entropy(target, logits, *, axis=-1):
    """`-sum(target * log_softmax(logits))` over `axis` (dense targets)."""
    logp = log_softmax.fwd(logits, axis=axis)
    return -np.sum(target * logp, axis=axis), logp


@softmax_cross_entropy.defvjp
def _softmax_cross_entropy_vjp(g, out, target, logits, *, axis=-1, needs,
                               saved):
    logp = saved
    g = np.expand_dims(g, axis)
    d_logits = d_target = None
    if needs[1]:
        total = np.sum(target, axis=axis, keepdims=True)
        d_logits = g * (np.exp(logp) * total - target)
    if needs[0]:
        d_target = -g * logp
    return d_target, d_logits


@primitive(saves=True)
def sparse_softmax_cross_entropy(labels, logits, *, axis=-1):
    """`-log_softmax(logits)[label]` along `axis`, for integer labels."""
    logp = log_softmax.fwd(logits, axis=axis)
    idx = np.expand_dims(labels, axis)
    return -np.squeeze(np.take_along_axis(logp, idx, axis=axis), axis), logp


@sparse_softmax_cross_entropy.defvjp
def _sparse_softmax_cross_entropy_vjp(g, out, labels, logits, *, axis=-1,
                                      saved):
    grad = np.exp(saved)
    idx = np.expand_dims(labels, axis)
    np.put_along_axis(grad, idx, np.take_along_axis(grad, idx, axis) - 1,
                      axis=axis)
    return None, grad * np.expand_dims(g, axis)


def _rows(labels, axis, ndim):
    """Row indices for `a[rows, labels]` when the class axis is the last
    of a matrix (the common case), else `None`."""
    if ndim == 2 and axis in (-1, 1):
        return np.arange(labels.shape[0])
    return None


def _pick(a, labels, axis, rows):
    """`a[..., label, ...]` along `axis`."""
    if rows is not None:
        return a[rows, labels]
    idx = np.expand_dims(labels, axis)
    return np.squeeze(np.take_along_axis(a, idx, axis=axis), axis)


@primitive(saves=True)
def sparse_probs_cross_entropy(labels, probs, *, axis=-1, eps=1e-7):
    """`-log(clip(probs / sum(probs), eps, 1 - eps))[label]`.

    Keras's formula for `from_logits=False`, fused into one primitive: the
    composite takes seven ops per step in a classifier's loss.
    """
    total = probs.sum(axis=axis)
    rows = _rows(labels, axis, probs.ndim)
    p_label = _pick(probs, labels, axis, rows) / total
    # maximum/minimum: np.clip costs ~40 us of dispatch on a small batch.
    clipped = np.minimum(np.maximum(p_label, eps), 1 - eps)
    if eps > 0:
        return -np.log(clipped), (p_label, total, rows)
    with np.errstate(divide="ignore"):      # log(0) = -inf, as in Keras
        return -np.log(clipped), (p_label, total, rows)


@sparse_probs_cross_entropy.defvjp
def _sparse_probs_ce_vjp(g, out, labels, probs, *, axis=-1, eps=1e-7,
                         saved):
    # d/dprobs_j of -log(probs_l / S) is 1/S - [j == l] / probs_l, and zero
    # where the clip is active (as the gradient of clip is).
    p_label, total, rows = saved
    inside = (p_label > eps) & (p_label < 1 - eps)
    g = g * inside
    column = g / total
    grad = np.empty(probs.shape, column.dtype)
    grad[...] = column[:, None] if rows is not None else \
        np.expand_dims(column, axis)
    # Where the clip is active the gradient is 0, also for a probability
    # of exactly 0 (0 / 0 would make it NaN).
    delta = np.divide(g, p_label * total, out=np.zeros(g.shape, g.dtype),
                      where=inside)
    if rows is not None:
        grad[rows, labels] -= delta
    else:
        idx = np.expand_dims(labels, axis)
        np.put_along_axis(grad, idx, np.take_along_axis(grad, idx, axis) -
                          np.expand_dims(delta, axis), axis=axis)
    return None, grad
