"""Connectionist Temporal Classification loss (Graves et al., 2006).

One fused primitive: the forward pass runs the alpha recursion over time,
vectorised over the batch and the extended label states; the VJP runs the
beta recursion and turns state occupancies into the classic gradient
`softmax - occupancy`. As a composite of ops the recursion would record
about ten tape nodes per time step and keep them all alive; fused, it
keeps two `(T, batch, states)` arrays. Log-probabilities are accumulated
in float64 (long sequences add up thousands of terms); the result is cast
back to the input dtype.
"""
import numpy as np

from kerasish import ops
from kerasish.backend.primitive import primitive
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

# log(0) stand-in: finite, so `a + b - c` never meets inf - inf.
_LOG_ZERO = -1e30


def _extended_labels(labels, blank):
    """Labels interleaved with blanks: `(batch, 2 * max_len + 1)`."""
    batch, max_len = labels.shape
    ext = np.full((batch, 2 * max_len + 1), blank, dtype=np.int64)
    ext[:, 1::2] = labels
    return ext


def _skip_allowed(ext):
    """Where state s may be reached from s - 2 (a label unlike the last)."""
    skip = np.zeros(ext.shape, dtype=bool)
    skip[:, 3::2] = ext[:, 3::2] != ext[:, 1:-2:2]
    return skip


def _log_add3(a, b, c):
    return np.logaddexp(np.logaddexp(a, b), c)


def _shift(x, k):
    """`x[:, s - k]` with log-zero filled in (states shift right)."""
    out = np.full_like(x, _LOG_ZERO)
    out[:, k:] = x[:, :-k]
    return out


def _forward(emit, skip, input_length):
    """Alpha recursion; `emit` is `(T, batch, S)` state log-probs."""
    steps, batch, states = emit.shape
    alpha = np.full(emit.shape, _LOG_ZERO)
    alpha[0, :, :2] = emit[0, :, :2]
    no_skip = np.where(skip, 0.0, _LOG_ZERO)
    for t in range(1, steps):
        prev = alpha[t - 1]
        step = _log_add3(prev, _shift(prev, 1), _shift(prev, 2) + no_skip)
        alpha[t] = step + emit[t]
        # Samples already finished keep their last column unchanged.
        done = t >= input_length
        alpha[t, done] = prev[done]
    return alpha


def _final_log_prob(alpha, label_length, input_length):
    last = alpha[input_length - 1, np.arange(alpha.shape[1])]
    end = 2 * label_length
    rows = np.arange(last.shape[0])
    with_blank = last[rows, end]
    with_label = np.where(label_length > 0,
                          last[rows, np.maximum(end - 1, 0)], _LOG_ZERO)
    return np.logaddexp(with_blank, with_label)


def _backward(emit, skip, label_length, input_length):
    """Beta recursion, started per sample at its own last frame."""
    steps, batch, states = emit.shape
    beta = np.full(emit.shape, _LOG_ZERO)
    rows = np.arange(batch)
    end = 2 * label_length
    start = np.full((batch, states), _LOG_ZERO)
    start[rows, end] = 0.0
    start[rows[label_length > 0], end[label_length > 0] - 1] = 0.0
    skip_next = np.full((batch, states), _LOG_ZERO)
    skip_next[:, :-2] = np.where(skip[:, 2:], 0.0, _LOG_ZERO)
    nxt = np.full((batch, states), _LOG_ZERO)
    for t in range(steps - 1, -1, -1):
        up1 = np.full_like(nxt, _LOG_ZERO)
        up1[:, :-1] = nxt[:, 1:]
        up2 = np.full_like(nxt, _LOG_ZERO)
        up2[:, :-2] = nxt[:, 2:]
        step = _log_add3(nxt, up1, up2 + skip_next)
        step = np.where((t == input_length - 1)[:, None], start, step)
        step = np.where((t < input_length)[:, None], step, _LOG_ZERO)
        beta[t] = step + emit[t]
        nxt = beta[t]
    return beta


@primitive(saves=True)
def ctc_negative_log_likelihood(labels, label_length, input_length, logits,
                                *, blank=0):
    """`-log p(labels | logits)` per sample (logits `(batch, T, K)`)."""
    logp = logits.astype(np.float64)
    logp = logp - np.max(logp, axis=-1, keepdims=True)
    logp -= np.log(np.sum(np.exp(logp), axis=-1, keepdims=True))
    ext = _extended_labels(labels, blank)
    emit = np.take_along_axis(logp, ext[:, None, :], axis=2)
    emit = np.transpose(emit, (1, 0, 2))
    skip = _skip_allowed(ext)
    alpha = _forward(emit, skip, input_length)
    log_prob = _final_log_prob(alpha, label_length, input_length)
    out = (-log_prob).astype(logits.dtype)
    return out, (logp, ext, emit, skip, alpha, log_prob)


@ctc_negative_log_likelihood.defvjp
def _ctc_vjp(g, out, labels, label_length, input_length, logits, *,
             blank=0, saved):
    logp, ext, emit, skip, alpha, log_prob = saved
    beta = _backward(emit, skip, label_length, input_length)
    occupancy = alpha + beta - emit - log_prob[None, :, None]
    occupancy = np.exp(np.minimum(occupancy, 0.0))
    occupancy = np.transpose(occupancy, (1, 0, 2))        # (batch, T, S)
    num_classes = logits.shape[-1]
    one_hot = ext[:, :, None] == np.arange(num_classes)   # (batch, S, K)
    per_class = np.matmul(occupancy, one_hot.astype(np.float64))
    steps = logits.shape[1]
    active = np.arange(steps)[None, :] < input_length[:, None]
    grad = (np.exp(logp) - per_class) * active[:, :, None]
    grad *= g[:, None, None]
    return None, None, None, grad.astype(logits.dtype)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """CTC loss per sample (the computation behind `keras.losses.ctc`).

    Args:
        target: Integer labels `(batch, max_label_length)`.
        output: Logits `(batch, max_time, num_classes)`.
        target_length: Label length of each sample, `(batch,)`.
        output_length: Number of valid frames of each sample, `(batch,)`.
        mask_index: The blank class. Defaults to 0.

    Returns:
        Negative log-likelihoods, shape `(batch,)`.
    """
    output = ops.convert_to_tensor(output)
    labels = np.asarray(ops.convert_to_numpy(target)).astype(np.int64)
    label_length = np.asarray(target_length).astype(np.int64).reshape(-1)
    input_length = np.asarray(output_length).astype(np.int64).reshape(-1)
    _check_ctc_lengths(labels, label_length, input_length, output)
    return ctc_negative_log_likelihood(labels, label_length, input_length,
                                       output, blank=int(mask_index))


def _check_ctc_lengths(labels, label_length, input_length, output):
    num_classes = output.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(
            f"CTC labels must be in [0, {num_classes}) for logits with "
            f"{num_classes} classes. Received labels in "
            f"[{labels.min()}, {labels.max()}]")
    if np.any(input_length < 1) or np.any(input_length > output.shape[1]):
        raise ValueError(
            "CTC input lengths must be in [1, max_time="
            f"{output.shape[1]}]. Received: {input_length.tolist()}")
    if np.any(label_length > labels.shape[1]):
        raise ValueError(
            "CTC label lengths cannot exceed the label width "
            f"{labels.shape[1]}. Received: {label_length.tolist()}")


@builtin(MODULE)
def ctc(y_true, y_pred):
    """CTC loss of padded integer labels against per-frame logits.

    Class 0 is the blank and also pads the labels: each label sequence is
    its non-zero entries. Every sample uses all `max_time` frames.

    Args:
        y_true: Integer labels `(batch_size, max_length)`, 0-padded.
        y_pred: Logits `(batch_size, max_time, num_classes)`.

    Returns:
        Negative log-likelihood per sample, shape `(batch_size,)`.

    Example:

    >>> import numpy as np
    >>> logits = np.zeros((1, 2, 2), "float32")  # uniform over {blank, 1}
    >>> round(float(ctc([[1]], logits)[0]), 4)   # 3 of 4 paths emit "1"
    0.2877
    """
    y_true, y_pred = ops.convert_to_tensor(y_true), \
        ops.convert_to_tensor(y_pred)
    if len(y_true.shape) != 2:
        raise ValueError(
            "Targets `y_true` are expected to be a tensor of shape "
            "`(batch_size, max_length)` in integer format. Received: "
            f"y_true.shape={tuple(y_true.shape)}")
    if len(y_pred.shape) != 3:
        raise ValueError(
            "Logits `y_pred` are expected to be a tensor of shape "
            "`(batch_size, max_length, num_classes)`. Received: "
            f"y_pred.shape={tuple(y_pred.shape)}")
    labels = np.asarray(ops.convert_to_numpy(y_true)).astype(np.int64)
    batch, steps = y_pred.shape[0], y_pred.shape[1]
    label_length = np.sum(labels != 0, axis=-1)
    return ctc_loss(labels, y_pred, label_length, np.full(batch, steps))


@builtin(MODULE)
class CTC(BuiltinLoss):
    """Connectionist Temporal Classification loss.

    Args:
        reduction: See `Loss`. Defaults to `"sum_over_batch_size"`.
        name: Name of the loss. Defaults to `"ctc"`.
        dtype: Computation dtype (default floatx).

    Example:

    >>> import numpy as np
    >>> round(float(CTC()([[1]], np.zeros((1, 2, 2), "float32"))), 4)
    0.2877
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc",
                 dtype=None):
        super().__init__(ctc, reduction, name, dtype)
