"""Whole-sequence recurrent primitives: LSTM, GRU and SimpleRNN.

One primitive runs a whole sequence, because recording each timestep's
half-dozen ops on the tape would cost more than the arithmetic. Each one:

* projects the inputs of all timesteps with one GEMM (`x @ kernel + bias`),
  time-major so that every step reads contiguous rows;
* loops over time (never over samples), one `h @ recurrent_kernel` GEMM and
  a few in-place elementwise ops per step, keeping what the VJP needs;
* backpropagates through time in the VJP with one GEMM per step; the
  elementwise factors that do not depend on the recurrence are computed
  for all steps at once beforehand, and the kernel, recurrent kernel and
  bias gradients are each one GEMM (or sum) over all steps afterwards.

Keras's semantics are kept: gate layouts (LSTM i, f, c, o; GRU z, r, h),
masks (a masked step carries the states and outputs the carried `h`, or
zeros with `zero_output_for_mask`), `go_backwards` (the sequence is read
backwards and outputs come in processing order).

The result is packed into one array, since a primitive has one output:
the output (`(B, T, U)` sequence or `(B, U)` last step) alone, or, with
`return_state`, `(B, n, U)` holding the output's step(s) then the states.
"""
import numpy as np

from kerasish.backend.primitive import primitive
from kerasish.backend.tape import active_tapes

_QUIET = dict(over="ignore", under="ignore")


# -- activations: forward in place, derivative from the output ----------------
def _sigmoid(x, out):
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


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


# -- shared scaffolding ------------------------------------------------------------
class _Spec:
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


def _time_major(x, reverse):
    x = x[:, ::-1] if reverse else x
    return np.ascontiguousarray(x.transpose(1, 0, 2))


def _project(x_tm, kernel, bias):
    steps, batch, dim = x_tm.shape
    xw = x_tm.reshape(steps * batch, dim) @ kernel
    xw += bias
    return xw.reshape(steps, batch, -1)


def _carry(spec, t, new, old):
    """Keep `old` where step `t` is masked (in place into `new`)."""
    if spec.mask is not None:
        np.copyto(new, old, where=spec.mask[t] == 0)


def _pack(spec, hs, states):
    """The primitive's single output from `hs` (T+1, B, U) and the states."""
    seq = hs[1:]
    if spec.mask is not None and spec.zero_output:
        seq = seq * spec.mask
    out = seq.transpose(1, 0, 2) if spec.sequences else seq[-1][:, None]
    if not spec.state:
        return np.ascontiguousarray(out if spec.sequences else out[:, 0])
    return np.concatenate([out] + [s[:, None] for s in states], axis=1)


def _unpack(spec, g):
    """Split the output gradient into (per-step (T, B, U), final states)."""
    steps, u = spec.steps, spec.units
    if spec.state:
        n_out = steps if spec.sequences else 1
        g_out, g_states = g[:, :n_out], [g[:, n_out + k]
                                         for k in range(spec.n_states)]
    else:
        g_out = g if spec.sequences else g[:, None]
        g_states = [None] * spec.n_states
    per_step = np.zeros((steps, spec.batch, u), g.dtype)
    if spec.sequences:
        per_step[...] = g_out.transpose(1, 0, 2)
    else:
        per_step[-1] = g_out[:, 0]
    if spec.mask is not None and spec.zero_output:
        per_step *= spec.mask
    return per_step, g_states


def _masked(spec, t, dh, dc=None):
    """Gradients reaching the step's own computation (zero where masked)."""
    if spec.mask is None:
        return dh, dc
    m = spec.mask[t]
    return dh * m, (None if dc is None else dc * m)


def _pass_through(spec, t, grad, through):
    """Add the part of `grad` that a masked step hands to the step before."""
    if spec.mask is not None:
        through += grad * (1 - spec.mask[t])
    return through


def _input_grads(spec, d_pre, x, x_tm, kernel, needs):
    """dx, dkernel, dbias from the per-step input pre-activation grads."""
    flat = d_pre.reshape(-1, d_pre.shape[-1])
    dx = dk = db = None
    if needs[0]:
        dx = (flat @ kernel.T).reshape(x_tm.shape).transpose(1, 0, 2)
        dx = np.ascontiguousarray(dx[:, ::-1] if spec.reverse else dx)
    if needs[1]:
        dk = x_tm.reshape(-1, x_tm.shape[-1]).T @ flat
    if needs[2]:
        db = flat.sum(axis=0)
    return dx, dk, db


def _recurrent_grad(prev, d_pre):
    """One GEMM over all steps: sum_t prev_t^T @ d_pre_t."""
    return prev.reshape(-1, prev.shape[-1]).T @ \
        d_pre.reshape(-1, d_pre.shape[-1])


def _recording():
    return bool(active_tapes())


# -- LSTM --------------------------------------------------------------------------
def _lstm_order(units):
    """Column order i, f, o, c: the three sigmoid gates side by side."""
    u = units
    return np.r_[0:2 * u, 3 * u:4 * u, 2 * u:3 * u]


@primitive(saves=True)
def lstm(x, h0, c0, kernel, recurrent_kernel, bias, *, mask=None,
         activation="tanh", recurrent_activation="sigmoid",
         go_backwards=False, return_sequences=False, return_state=False,
         zero_output_for_mask=False):
    """A whole LSTM sequence (Keras's LSTMCell over every timestep).

    Args:
        x: Inputs `(B, T, D)`. h0, c0: initial states `(B, U)`.
        kernel, recurrent_kernel, bias: `(D, 4U)`, `(U, 4U)`, `(4U,)`,
            gate blocks i, f, c, o.
        mask: Optional bool `(B, T)`; activation names as in `FORWARD`.
    """
    units = h0.shape[-1]
    spec = _Spec(x, units, mask, go_backwards, return_sequences,
                 return_state, zero_output_for_mask, 2)
    order = _lstm_order(units)
    kernel, recurrent_kernel = kernel[:, order], recurrent_kernel[:, order]
    x_tm = _time_major(x, spec.reverse)
    gates = _project(x_tm, kernel, bias[order])
    hs, cs, tcs = _lstm_loop(spec, gates, h0, c0, recurrent_kernel,
                             FORWARD[activation],
                             FORWARD[recurrent_activation])
    out = _pack(spec, hs, [hs[-1], cs[-1]])
    saved = None
    if _recording():
        saved = (spec, x_tm, gates, hs, cs, tcs, kernel, recurrent_kernel)
    return out, saved


def _lstm_loop(spec, gates, h0, c0, recurrent_kernel, act, ract):
    steps, batch, u = spec.steps, spec.batch, spec.units
    hs = np.empty((steps + 1, batch, u), gates.dtype)
    cs = np.empty_like(hs)
    tcs = np.empty((steps, batch, u), gates.dtype)
    hs[0], cs[0] = h0, c0
    rec = np.empty((batch, 4 * u), gates.dtype)
    ig = np.empty((batch, u), gates.dtype)
    with np.errstate(**_QUIET):
        for t in range(steps):
            z = gates[t]
            z += np.matmul(hs[t], recurrent_kernel, out=rec)
            ract(z[:, :3 * u], z[:, :3 * u])
            act(z[:, 3 * u:], z[:, 3 * u:])
            c = np.multiply(z[:, u:2 * u], cs[t], out=cs[t + 1])
            c += np.multiply(z[:, :u], z[:, 3 * u:], out=ig)
            act(c, tcs[t])
            np.multiply(z[:, 2 * u:3 * u], tcs[t], out=hs[t + 1])
            _carry(spec, t, hs[t + 1], hs[t])
            _carry(spec, t, cs[t + 1], cs[t])
    return hs, cs, tcs


@lstm.defvjp
def _lstm_vjp(g, out, x, h0, c0, kernel, recurrent_kernel, bias, *,
              mask=None, activation="tanh", recurrent_activation="sigmoid",
              go_backwards=False, return_sequences=False, return_state=False,
              zero_output_for_mask=False, needs, saved):
    spec, x_tm, gates, hs, cs, tcs, kernel_p, recurrent_p = saved
    u = spec.units
    per_step, (dh, dc) = _unpack(spec, g)
    dh = np.zeros_like(hs[0]) if dh is None else np.array(dh)
    dc = np.zeros_like(cs[0]) if dc is None else np.array(dc)
    coef, dc_coef = _lstm_coefficients(gates, cs, tcs, activation,
                                       recurrent_activation, u)
    forget = gates[..., u:2 * u]
    for t in range(spec.steps - 1, -1, -1):
        dh += per_step[t]
        own_h, own_c = _masked(spec, t, dh, dc)
        own_c = own_c + own_h * dc_coef[t]
        dz = coef[t]
        two = dz[:, :2 * u].reshape(-1, 2, u)
        np.multiply(two, own_c[:, None], out=two)
        np.multiply(dz[:, 3 * u:], own_c, out=dz[:, 3 * u:])
        np.multiply(dz[:, 2 * u:3 * u], own_h, out=dz[:, 2 * u:3 * u])
        dc = _pass_through(spec, t, dc, own_c * forget[t])
        dh = _pass_through(spec, t, dh, dz @ recurrent_p.T)
    return _lstm_grads(spec, coef, x, x_tm, hs, kernel_p, needs, dh, dc)


def _lstm_coefficients(gates, cs, tcs, activation, recurrent_activation, u):
    """Per-step factors of the gate gradients, for all steps at once.

    `coef` (overwritten with the gate pre-activation gradients in the loop)
    holds i: c~ * i', f: c_prev * f', o: act(c) * o', c~: i * act'(c~); the
    carry gradient gains `dh * o * act'(c)` (`dc_coef`).
    """
    d_sig = derivative(recurrent_activation, gates[..., :3 * u])
    coef = np.empty_like(gates)
    np.multiply(gates[..., 3 * u:], d_sig[..., :u], out=coef[..., :u])
    np.multiply(cs[:-1], d_sig[..., u:2 * u], out=coef[..., u:2 * u])
    np.multiply(tcs, d_sig[..., 2 * u:], out=coef[..., 2 * u:3 * u])
    np.multiply(gates[..., :u], derivative(activation, gates[..., 3 * u:]),
                out=coef[..., 3 * u:])
    dc_coef = gates[..., 2 * u:3 * u] * derivative(activation, tcs)
    return coef, dc_coef


def _lstm_grads(spec, dz, x, x_tm, hs, kernel_p, needs, dh0, dc0):
    back = np.argsort(_lstm_order(spec.units))
    dx, dk, db = _input_grads(spec, dz, x, x_tm, kernel_p,
                              (needs[0], needs[3], needs[5]))
    drec = _recurrent_grad(hs[:-1], dz)[:, back] if needs[4] else None
    return (dx, dh0 if needs[1] else None, dc0 if needs[2] else None,
            None if dk is None else dk[:, back], drec,
            None if db is None else db[back])



# -- GRU ------------------------------------------------------------------------------
@primitive(saves=True)
def gru(x, h0, kernel, recurrent_kernel, bias, recurrent_bias, *, mask=None,
        activation="tanh", recurrent_activation="sigmoid", reset_after=True,
        go_backwards=False, return_sequences=False, return_state=False,
        zero_output_for_mask=False):
    """A whole GRU sequence (Keras's GRUCell over every timestep).

    Args:
        x: Inputs `(B, T, D)`. h0: initial state `(B, U)`.
        kernel, recurrent_kernel: `(D, 3U)`, `(U, 3U)`, blocks z, r, h.
        bias, recurrent_bias: `(3U,)` each (the input and recurrent rows of
            Keras's `(2, 3U)` bias; with `reset_after=False` the recurrent
            one is zeros and unused).
        reset_after: Apply the reset gate after the recurrent product.
    """
    units = h0.shape[-1]
    spec = _Spec(x, units, mask, go_backwards, return_sequences,
                 return_state, zero_output_for_mask, 1)
    x_tm = _time_major(x, spec.reverse)
    xw = _project(x_tm, kernel, bias)
    loop = _gru_loop_after if reset_after else _gru_loop_before
    hs, keep = loop(spec, xw, h0, recurrent_kernel, recurrent_bias,
                    FORWARD[activation], FORWARD[recurrent_activation])
    out = _pack(spec, hs, [hs[-1]])
    saved = (spec, x_tm, xw, hs, keep) if _recording() else None
    return out, saved


def _gru_update(gates, h_prev, h_out, u):
    """h = z * h_prev + (1 - z) * h~, written as h~ + z * (h_prev - h~)."""
    np.subtract(h_prev, gates[:, 2 * u:], out=h_out)
    h_out *= gates[:, :u]
    h_out += gates[:, 2 * u:]


def _gru_loop_after(spec, xw, h0, recurrent_kernel, recurrent_bias, act,
                    ract):
    """reset_after=True: `xw` becomes [z, r, h~]; keeps `h @ R_h + b_h`."""
    steps, batch, u = spec.steps, spec.batch, spec.units
    hs = np.empty((steps + 1, batch, u), xw.dtype)
    hs[0] = h0
    rec_h = np.empty((steps, batch, u), xw.dtype)
    rec = np.empty((batch, 3 * u), xw.dtype)
    with np.errstate(**_QUIET):
        for t in range(steps):
            z = xw[t]
            np.matmul(hs[t], recurrent_kernel, out=rec)
            rec += recurrent_bias
            z[:, :2 * u] += rec[:, :2 * u]
            ract(z[:, :2 * u], z[:, :2 * u])
            rec_h[t] = rec[:, 2 * u:]
            rec[:, 2 * u:] *= z[:, u:2 * u]
            z[:, 2 * u:] += rec[:, 2 * u:]
            act(z[:, 2 * u:], z[:, 2 * u:])
            _gru_update(z, hs[t], hs[t + 1], u)
            _carry(spec, t, hs[t + 1], hs[t])
    return hs, rec_h


def _gru_loop_before(spec, xw, h0, recurrent_kernel, recurrent_bias, act,
                     ract):
    """reset_after=False: `xw` becomes [z, r, h~]; keeps `r * h_prev`."""
    steps, batch, u = spec.steps, spec.batch, spec.units
    hs = np.empty((steps + 1, batch, u), xw.dtype)
    hs[0] = h0
    reset_h = np.empty((steps, batch, u), xw.dtype)
    rec = np.empty((batch, 2 * u), xw.dtype)
    rec_h = np.empty((batch, u), xw.dtype)
    kernel_zr, kernel_h = recurrent_kernel[:, :2 * u], \
        recurrent_kernel[:, 2 * u:]
    with np.errstate(**_QUIET):
        for t in range(steps):
            z = xw[t]
            z[:, :2 * u] += np.matmul(hs[t], kernel_zr, out=rec)
            ract(z[:, :2 * u], z[:, :2 * u])
            np.multiply(z[:, u:2 * u], hs[t], out=reset_h[t])
            z[:, 2 * u:] += np.matmul(reset_h[t], kernel_h, out=rec_h)
            act(z[:, 2 * u:], z[:, 2 * u:])
            _gru_update(z, hs[t], hs[t + 1], u)
            _carry(spec, t, hs[t + 1], hs[t])
    return hs, reset_h


@gru.defvjp
def _gru_vjp(g, out, x, h0, kernel, recurrent_kernel, bias, recurrent_bias,
             *, mask=None, activation="tanh", recurrent_activation="sigmoid",
             reset_after=True, go_backwards=False, return_sequences=False,
             return_state=False, zero_output_for_mask=False, needs, saved):
    spec, x_tm, gates, hs, keep = saved
    u = spec.units
    per_step, (dh,) = _unpack(spec, g)
    dh = np.zeros_like(hs[0]) if dh is None else np.array(dh)
    # d_pre: gradients of the input pre-activations [z, r, h~] (xw); the
    # recurrent pre-activation gradient differs only in the h~ block.
    d_pre = np.empty_like(gates)
    d_rec = np.empty_like(gates) if reset_after else None
    c_z, c_h, c_r = _gru_coefficients(gates, hs, keep, activation,
                                      recurrent_activation, u, reset_after)
    update = gates[..., :u]
    r_gate = gates[..., u:2 * u]
    for t in range(spec.steps - 1, -1, -1):
        dh += per_step[t]
        own, _ = _masked(spec, t, dh)
        d = d_pre[t]
        np.multiply(own, c_z[t], out=d[:, :u])
        np.multiply(own, c_h[t], out=d[:, 2 * u:])
        if reset_after:
            np.multiply(d[:, 2 * u:], c_r[t], out=d[:, u:2 * u])
            dr = d_rec[t]
            dr[:, :2 * u] = d[:, :2 * u]
            np.multiply(d[:, 2 * u:], r_gate[t], out=dr[:, 2 * u:])
            back = dr @ recurrent_kernel.T
        else:
            d_reset_h = d[:, 2 * u:] @ recurrent_kernel[:, 2 * u:].T
            np.multiply(d_reset_h, c_r[t], out=d[:, u:2 * u])
            back = d[:, :2 * u] @ recurrent_kernel[:, :2 * u].T
            back += d_reset_h * r_gate[t]
        back += own * update[t]
        dh = _pass_through(spec, t, dh, back)
    return _gru_grads(spec, x, x_tm, hs, keep, d_pre, d_rec, kernel,
                      reset_after, needs, dh)


def _gru_coefficients(gates, hs, keep, activation, recurrent_activation, u,
                      reset_after):
    """Factors of the gate gradients for all steps (see `_gru_vjp`).

    With `dh` the gradient of a step's new state: dz = dh * c_z,
    dh~ = dh * c_h (pre-activation), and the reset gate's pre-activation
    gradient is dh~ * c_r (reset_after: c_r = (h R_h + b_h) * r') or
    (dh~ @ R_h^T) * c_r (before: c_r = h_prev * r').
    """
    d_gates = derivative(recurrent_activation, gates[..., :2 * u])
    candidate = gates[..., 2 * u:]
    c_z = (hs[:-1] - candidate) * d_gates[..., :u]
    c_h = (1 - gates[..., :u]) * derivative(activation, candidate)
    c_r = (keep if reset_after else hs[:-1]) * d_gates[..., u:]
    return c_z, c_h, c_r


def _gru_grads(spec, x, x_tm, hs, keep, d_pre, d_rec, kernel, reset_after,
               needs, dh0):
    u = spec.units
    dx, dk, db = _input_grads(spec, d_pre, x, x_tm, kernel,
                              (needs[0], needs[2], needs[4]))
    drec = drb = None
    if reset_after:
        if needs[3]:
            drec = _recurrent_grad(hs[:-1], d_rec)
        if needs[5]:
            drb = d_rec.reshape(-1, 3 * u).sum(axis=0)
    elif needs[3]:
        drec = np.concatenate(
            [_recurrent_grad(hs[:-1], d_pre[..., :2 * u]),
             _recurrent_grad(keep, d_pre[..., 2 * u:])], axis=1)
    return dx, dh0 if needs[1] else None, dk, drec, db, drb


# -- SimpleRNN -------------------------------------------------------------------------
@primitive(saves=True)
def simple_rnn(x, h0, kernel, recurrent_kernel, bias, *, mask=None,
               activation="tanh", go_backwards=False, return_sequences=False,
               return_state=False, zero_output_for_mask=False):
    """A whole SimpleRNN sequence: `h = act(x_t @ W + h @ R + b)`."""
    spec = _Spec(x, h0.shape[-1], mask, go_backwards, return_sequences,
                 return_state, zero_output_for_mask, 1)
    x_tm = _time_major(x, spec.reverse)
    pre = _project(x_tm, kernel, bias)
    act = FORWARD[activation]
    hs = np.empty((spec.steps + 1,) + h0.shape, pre.dtype)
    hs[0] = h0
    rec = np.empty(h0.shape, pre.dtype)
    with np.errstate(**_QUIET):
        for t in range(spec.steps):
            pre[t] += np.matmul(hs[t], recurrent_kernel, out=rec)
            act(pre[t], pre[t])
            hs[t + 1] = pre[t]
            _carry(spec, t, hs[t + 1], hs[t])
    out = _pack(spec, hs, [hs[-1]])
    return out, ((spec, x_tm, pre, hs) if _recording() else None)


@simple_rnn.defvjp
def _simple_rnn_vjp(g, out, x, h0, kernel, recurrent_kernel, bias, *,
                    mask=None, activation="tanh", go_backwards=False,
                    return_sequences=False, return_state=False,
                    zero_output_for_mask=False, needs, saved):
    spec, x_tm, new_h, hs = saved
    per_step, (dh,) = _unpack(spec, g)
    dh = np.zeros_like(hs[0]) if dh is None else np.array(dh)
    d_pre = derivative(activation, new_h)
    for t in range(spec.steps - 1, -1, -1):
        dh += per_step[t]
        own, _ = _masked(spec, t, dh)
        d_pre[t] *= own
        dh = _pass_through(spec, t, dh, d_pre[t] @ recurrent_kernel.T)
    dx, dk, db = _input_grads(spec, d_pre, x, x_tm, kernel,
                              (needs[0], needs[2], needs[4]))
    drec = _recurrent_grad(hs[:-1], d_pre) if needs[3] else None
    return dx, dh if needs[1] else None, dk, drec, db
