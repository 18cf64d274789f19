"""`gru`: a whole GRU sequence as one primitive (see `common`)."""
import numpy as np

from kerasish.backend.primitive import primitive
from kerasish.backend.rnn.common import (
    FORWARD, QUIET, Spec, carry, derivative, masked, pack, pass_through,
    project, recording, time_major, unpack)
from kerasish.backend.rnn.step_gradients import step_gradients


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
        mask, activation, recurrent_activation, go_backwards,
        return_sequences, return_state, zero_output_for_mask: As in `lstm`.

    Example:

    >>> out = gru(np.ones((2, 3, 4)), np.zeros((2, 5)), np.ones((4, 15)),
    ...           np.ones((5, 15)), np.zeros(15), np.zeros(15),
    ...           return_sequences=True)
    >>> out.shape
    (2, 3, 5)
    """
    units = h0.shape[-1]
    spec = Spec(x, units, mask, go_backwards, return_sequences,
                return_state, zero_output_for_mask, 1)
    x_tm = time_major(x, spec.reverse)
    xw = project(x_tm, kernel, bias)
    loop = _gru_loop_after if reset_after else _gru_loop_before
    hs, keep = loop(spec, xw, h0, recurrent_kernel, recurrent_bias,
                    FORWARD[activation], FORWARD[recurrent_activation])
    out = pack(spec, hs, [hs[-1]])
    saved = (spec, x_tm, xw, hs, keep) if recording() else None
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
    with np.errstate(**QUIET):
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
            carry(spec, t, hs[t + 1], hs[t])
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
    with np.errstate(**QUIET):
        for t in range(steps):
            z = xw[t]
            z[:, :2 * u] += np.matmul(hs[t], kernel_zr, out=rec)
            ract(z[:, :2 * u], z[:, :2 * u])
            np.multiply(z[:, u:2 * u], hs[t], out=reset_h[t])
            z[:, 2 * u:] += np.matmul(reset_h[t], kernel_h, out=rec_h)
            act(z[:, 2 * u:], z[:, 2 * u:])
            _gru_update(z, hs[t], hs[t + 1], u)
            carry(spec, t, hs[t + 1], hs[t])
    return hs, reset_h


@gru.defvjp
def _gru_vjp(g, out, x, h0, kernel, recurrent_kernel, bias, recurrent_bias,
             *, mask=None, activation="tanh", recurrent_activation="sigmoid",
             reset_after=True, go_backwards=False, return_sequences=False,
             return_state=False, zero_output_for_mask=False, needs, saved):
    spec, x_tm, gates, hs, keep = saved
    u = spec.units
    per_step, dh, _ = unpack(spec, g)
    # d_pre: gradients of the input pre-activations [z, r, h~] (xw); the
    # recurrent pre-activation gradient differs only in the h~ block.
    d_pre = np.empty_like(gates)
    d_rec = np.empty_like(gates) if reset_after else None
    c_z, c_h, c_r = _gru_coefficients(gates, hs, keep, activation,
                                      recurrent_activation, u, reset_after)
    update = gates[..., :u]
    r_gate = gates[..., u:2 * u]
    dh = _gru_backward_loop(spec, per_step, dh, d_pre, d_rec, c_z, c_h,
                            c_r, update, r_gate, recurrent_kernel,
                            reset_after)
    dx, dk, db, drec = step_gradients(
        spec, x_tm, kernel, d_pre,
        _recurrent_pairs(hs, keep, d_pre, d_rec, u, reset_after),
        (needs[0], needs[2], needs[4], needs[3] or needs[5]))
    drec_k = drec_b = None
    if reset_after and drec:
        drec_k, drec_b = drec[0], drec[1][0]
    elif drec:
        drec_k = np.concatenate(drec, axis=1)
    return (dx, dh if needs[1] else None, dk,
            drec_k if needs[3] else None, db,
            drec_b if needs[5] else None)


def _recurrent_pairs(hs, keep, d_pre, d_rec, u, reset_after):
    """`(prev, d)` pairs whose sums over steps are the recurrent grads."""
    if reset_after:
        # The recurrent bias gradient is sum_t d_rec_t: a pair with ones.
        ones = np.ones(hs.shape[:2] + (1,), hs.dtype)
        return [(hs[:-1], d_rec), (ones[:-1], d_rec)]
    return [(hs[:-1], d_pre[..., :2 * u]), (keep, d_pre[..., 2 * u:])]


def _gru_backward_loop(spec, per_step, dh, d_pre, d_rec, c_z, c_h, c_r,
                       update, r_gate, recurrent_kernel, reset_after):
    u = spec.units
    for t in range(spec.steps - 1, -1, -1):
        if per_step is not None:
            dh += per_step[t]
        own, _ = masked(spec, t, dh)
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
        dh = pass_through(spec, t, dh, back)
    return dh


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
