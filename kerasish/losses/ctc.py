"""Connectionist Temporal Classification loss (Graves et al., 2006).

One fused primitive running the recursion of Keras's JAX `ctc_loss` (the
optax formulation): per frame, a "blank after n labels" state and an
"emitting label n" state per label, vectorised over the batch. Forbidden
steps (a repeated label without a blank between, starting mid-sequence)
get the finite log-weight -1e5 rather than -inf, so an infeasible target
costs about 1e5 per violation and keeps a gradient, exactly as in Keras.
The forward pass keeps each step's logaddexp weights; the VJP walks them
back (reverse-mode by hand, no tape nodes per step). Log-probabilities are
accumulated in float64; the result is float32 at least, as Keras.
"""
import numpy as np

from kerasish import ops
from kerasish.backend.primitive import primitive
from kerasish.losses.wrapper import MODULE, BuiltinLoss
from kerasish.saving.object_registration import builtin

# Keras's (optax's) log-weight of a forbidden step: large but finite, so a
# target that no alignment can produce (too long for its frames, or repeats
# without room for a blank) costs about 1e5 per violation instead of inf,
# and still has a gradient.
_LOG_EPS = -1e5


def _emissions(logp, labels, blank):
    """Per-frame log-probs `(T, batch, N)` of each label and `(T, batch, 1)`
    of the blank. Out-of-range (padding) labels emit with log-prob 0, as
    Keras's one-hot product gives."""
    num_classes = logp.shape[-1]
    valid = (labels >= 0) & (labels < num_classes)
    index = np.where(valid, labels, 0)
    emit = np.take_along_axis(logp, index[:, None, :], axis=2)
    emit = np.where(valid[:, None, :], emit, 0.0)
    return (np.transpose(emit, (1, 0, 2)),
            np.transpose(logp[:, :, blank:blank + 1], (1, 0, 2)))


def _repeats(labels):
    """1.0 where a label equals the next one (padding included, as Keras)."""
    rep = np.zeros(labels.shape)
    rep[:, :-1] = labels[:, :-1] == labels[:, 1:]
    return rep


def _lae(a, b):
    """`log(exp(a) + exp(b))` and its weight `d out / d a`; the weight of `b`
    is one minus it (so only one is kept per step)."""
    out = np.logaddexp(a, b)
    return out, np.exp(a - out)


def _epsilon_step(phi, emit, rep):
    """Finish label n without a frame: `phi[n+1] += emit[n]`, forbidden
    (weight `_LOG_EPS`) when label n + 1 repeats it."""
    out = phi.copy()
    out[:, 1:], w_phi = _lae(phi[:, 1:], emit + _LOG_EPS * rep)
    return out, w_phi


def _forward(emit_lp, blank_lp, rep, input_length):
    """The phi/emit recursion of Keras's JAX `ctc_loss`, keeping each step's
    logaddexp weights for the backward pass."""
    steps, batch, n = emit_lp.shape
    phi = np.full((batch, n + 1), _LOG_EPS)
    phi[:, 0] = 0.0
    emit = np.full((batch, n), _LOG_EPS)
    saved = []
    for t in range(steps):
        eps_phi, w1 = _epsilon_step(phi, emit, rep)
        new_emit, w2 = _lae(eps_phi[:, :-1] + emit_lp[t], emit + emit_lp[t])
        new_phi = eps_phi + blank_lp[t]
        new_phi[:, 1:], w3 = _lae(
            new_phi[:, 1:], emit + blank_lp[t] + _LOG_EPS * (1.0 - rep))
        live = (t < input_length)[:, None]
        saved.append((live, w1, w2, w3))
        phi = np.where(live, new_phi, phi)
        emit = np.where(live, new_emit, emit)
    # The closing epsilon step is never penalised (padding may repeat).
    last, w_last = _epsilon_step(phi, emit, np.zeros_like(rep))
    return last, saved, w_last


def _epsilon_back(d_out, w_phi):
    """Adjoints of `_epsilon_step`'s inputs from its output's adjoint."""
    d_phi = d_out.copy()
    d_phi[:, 1:] = d_out[:, 1:] * w_phi
    return d_phi, d_out[:, 1:] * (1.0 - w_phi)


def _backward(saved, final, label_length, shape):
    """Adjoints of the label and blank log-probs, `(T, batch, N)` and
    `(T, batch)`, for `d log p / d ...` (reverse of `_forward`)."""
    steps, batch, n = shape
    d_last = np.zeros((batch, n + 1))
    d_last[np.arange(batch), label_length] = 1.0
    d_phi, d_emit = _epsilon_back(d_last, final)
    d_emit_lp = np.zeros(shape)
    d_blank_lp = np.zeros((steps, batch))
    for t in range(steps - 1, -1, -1):
        live, w1, w2, w3 = saved[t]
        g_phi, g_emit = np.where(live, d_phi, 0.0), np.where(live, d_emit, 0)
        # new_phi = eps_phi + blank; new_phi[1:] = lae(., emit + blank + ..)
        # (both terms hold the blank once, so it gets all of g_phi).
        d_blank_lp[t] = g_phi.sum(axis=1)
        g_eps_phi = g_phi.copy()
        g_eps_phi[:, 1:] *= w3
        from_emit = g_phi[:, 1:] * (1.0 - w3)
        # new_emit = lae(eps_phi[:-1] + emit_lp, emit + emit_lp)
        d_emit_lp[t] = g_emit
        g_eps_phi[:, :-1] += g_emit * w2
        from_emit += g_emit * (1.0 - w2)
        # eps_phi = _epsilon_step(phi, emit)
        prev_phi, prev_emit = _epsilon_back(g_eps_phi, w1)
        d_phi = np.where(live, prev_phi, d_phi)
        d_emit = np.where(live, prev_emit + from_emit, d_emit)
    return d_emit_lp, d_blank_lp


def _log_softmax(logits):
    logp = logits.astype(np.float64)
    logp = logp - np.max(logp, axis=-1, keepdims=True)
    return logp - np.log(np.sum(np.exp(logp), axis=-1, keepdims=True))


@primitive(saves=True)
def ctc_negative_log_likelihood(labels, label_length, input_length, logits,
                                *, blank=0):
    """`-log p(labels | logits)` per sample (logits `(batch, T, K)`)."""
    logp = _log_softmax(logits)
    emit_lp, blank_lp = _emissions(logp, labels, blank)
    last, saved, final = _forward(emit_lp, blank_lp, _repeats(labels),
                                  input_length)
    log_prob = last[np.arange(last.shape[0]), label_length]
    out = (-log_prob).astype(_result_dtype(logits))
    return out, (logp, saved, final)


def _result_dtype(logits):
    """float32 at least, as Keras (half-precision logits give float32)."""
    return np.result_type(logits.dtype, np.float32)


@ctc_negative_log_likelihood.defvjp
def _ctc_vjp(g, out, labels, label_length, input_length, logits, *,
             blank=0, saved):
    logp, steps, final = saved
    d_emit_lp, d_blank_lp = _backward(steps, final, label_length,
                                      (logits.shape[1], logits.shape[0],
                                       labels.shape[1]))
    num_classes = logits.shape[-1]
    valid = (labels >= 0) & (labels < num_classes)
    one_hot = (labels[:, :, None] == np.arange(num_classes)) & \
        valid[:, :, None]                                   # (batch, N, K)
    d_logp = np.matmul(np.transpose(d_emit_lp, (1, 0, 2)),
                       one_hot.astype(np.float64))         # (batch, T, K)
    d_logp[:, :, blank] += d_blank_lp.T
    # Through log_softmax; the loss is minus the log-probability.
    grad = np.exp(logp) * d_logp.sum(-1, keepdims=True) - d_logp
    grad *= np.asarray(g, np.float64)[:, None, None]
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
    # Only labels within each sample's length count; padding may be anything.
    used = np.arange(labels.shape[1])[None, :] < label_length[:, None]
    bad = used & ((labels < 0) | (labels >= num_classes))
    if np.any(bad):
        raise ValueError(
            f"CTC labels must be in [0, {num_classes}) for logits with "
            f"{num_classes} classes. Received labels in "
            f"[{labels[used].min()}, {labels[used].max()}]")
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
