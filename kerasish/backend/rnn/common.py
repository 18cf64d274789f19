"""What the fused recurrent primitives share: activations, the packed
output layout, masks and projections.

The primitives (one per cell type, in this package) run a whole sequence:
one GEMM projects the inputs of all timesteps (time-major, so each step
reads contiguous rows), a loop over time does one small GEMM and a few
in-place elementwise ops per step, and the VJP backpropagates through time
with one GEMM per step; the kernel, bias, recurrent-kernel and input
gradients then come from a few large GEMMs over all steps
(`step_gradients`).

Keras's semantics are kept: gate layouts (LSTM i, f, c, o; GRU z, r, h),
masks (a masked step carries the states and outputs the carried `h`, or
zeros with `zero_output_for_mask`), `go_backwards` (the sequence is read
backwards and outputs come in processing order).

A primitive has one output, so the result is packed: the output (`(B, T,
U)` sequence or `(B, U)` last step) alone, or, with `return_state`,
`(B, n, U)` holding the output's step(s) then the final states.
"""
import numpy as np

from kerasish.backend.tape import active_tapes

QUIET = dict(over="ignore", under="ignore")


# -- activations: forward in place, derivative from the output ----------------
def _sigmoid(x, out):
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    return np.divide(1, out, out=out)


def _hard_sigmoid(x, out):
    np.multiply(x, 1 / 6, out=out)
    out += 0.5
    return np.clip(out, 0, 1, out=out)


def _linear(x, out):
    if out is not x:
        out[...] = x
    return out


FORWARD = {
    "tanh": lambda x, out: np.tanh(x, out=out),
    "sigmoid": _sigmoid,
    "hard_sigmoid": _hard_sigmoid,
    "relu": lambda x, out: np.maximum(x, 0, out=out),
    "linear": _linear,
}


def derivative(name, y):
    """The activation's derivative, written in terms of its output `y`."""
    if name == "tanh":
        return 1 - y * y
    if name == "sigmoid":
        return y * (1 - y)
    if name == "hard_sigmoid":
        return ((y > 0) & (y < 1)) * np.asarray(1 / 6, y.dtype)
    if name == "relu":
        return (y > 0).astype(y.dtype)
    return np.ones_like(y)


# -- shared scaffolding -------------------------------------------------------
class Spec:
    """Static facts of one call, derived from the primitive's parameters."""

    def __init__(self, x, units, mask, go_backwards, return_sequences,
                 return_state, zero_output_for_mask, n_states):
        self.batch, self.steps, self.units = x.shape[0], x.shape[1], units
        self.reverse, self.sequences = go_backwards, return_sequences
        self.state, self.zero_output = return_state, zero_output_for_mask
        self.n_states = n_states
        self.mask = None
        if mask is not None:
            m = np.asarray(mask, bool)[:, ::-1] if go_backwards else \
                np.asarray(mask, bool)
            self.mask = np.ascontiguousarray(m.T)[:, :, None].astype(x.dtype)


def time_major(x, reverse):
    """`(T, B, D + 1)` inputs in processing order with a trailing ones
    column, so the bias rides in the projection GEMM (and its gradient in
    the kernel-gradient GEMM) instead of costing a pass of its own."""
    x = x[:, ::-1] if reverse else x
    steps, batch, dim = x.shape[1], x.shape[0], x.shape[2]
    out = np.empty((steps, batch, dim + 1), x.dtype)
    out[..., :dim] = x.transpose(1, 0, 2)
    out[..., dim] = 1
    return out


def project(x_tm, kernel, bias):
    """All steps' `x_t @ kernel + bias` as one GEMM, `(T, B, units)`."""
    steps, batch, dim = x_tm.shape
    weights = np.concatenate([kernel, bias[None].astype(kernel.dtype)])
    return (x_tm.reshape(steps * batch, dim) @ weights).reshape(
        steps, batch, -1)


def carry(spec, t, new, old):
    """Keep `old` where step `t` is masked (in place into `new`)."""
    if spec.mask is not None:
        np.copyto(new, old, where=spec.mask[t] == 0)


def pack(spec, hs, states):
    """The primitive's single output from `hs` (T+1, B, U) and the states."""
    seq = hs[1:]
    if spec.mask is not None and spec.zero_output:
        seq = seq * spec.mask
    out = seq.transpose(1, 0, 2) if spec.sequences else seq[-1][:, None]
    if not spec.state:
        return np.ascontiguousarray(out if spec.sequences else out[:, 0])
    return np.concatenate([out] + [s[:, None] for s in states], axis=1)


def unpack(spec, g):
    """Split the output gradient for backpropagation through time.

    Returns the per-step output gradients (time-major `(T, B, U)`, or None
    when only the last step is returned), the gradient reaching the final
    `h` (last output and/or state), and those of the other final states.
    """
    n_out = spec.steps if spec.sequences else 1
    if spec.state:
        g_out = g[:, :n_out]
        g_states = [g[:, n_out + k] for k in range(spec.n_states)]
    else:
        g_out = g if spec.sequences else g[:, None]
        g_states = [None] * spec.n_states
    zero_masked = spec.mask is not None and spec.zero_output
    dh = np.zeros((spec.batch, spec.units), g.dtype)
    per_step = None
    if spec.sequences:
        per_step = np.ascontiguousarray(g_out.transpose(1, 0, 2))
        if zero_masked:
            per_step *= spec.mask
    else:
        dh += g_out[:, 0] * spec.mask[-1] if zero_masked else g_out[:, 0]
    if g_states[0] is not None:
        dh += g_states[0]
    others = [None if s is None else np.array(s) for s in g_states[1:]]
    return per_step, dh, others


def masked(spec, t, dh, dc=None):
    """Gradients reaching the step's own computation (zero where masked)."""
    if spec.mask is None:
        return dh, dc
    m = spec.mask[t]
    return dh * m, (None if dc is None else dc * m)


def pass_through(spec, t, grad, through):
    """Add the part of `grad` that a masked step hands to the step before."""
    if spec.mask is not None:
        through += grad * (1 - spec.mask[t])
    return through


def recording():
    return bool(active_tapes())
