"""`lstm`: a whole LSTM sequence as one primitive (see `common`).

Inside, the gate columns are reordered i, f, o, c~ so that the three
sigmoid gates are side by side. With Keras's default activations (tanh
candidate, sigmoid gates) one `exp` serves all four blocks: the kernels
are pre-scaled by -1 (gates) and -2 (candidate), so `1 / (1 + exp(z'))` is
each gate's sigmoid and, for the candidate, `sigmoid(2x)`, from which
`tanh(x) = 2 sigmoid(2x) - 1` (exact in exact arithmetic; within float32
rounding of numpy's tanh). The derivatives are then all `s (1 - s)`
(times 4 for the candidate).
"""
import numpy as np

from kerasish.backend.primitive import primitive
from kerasish.backend.rnn.common import (
    FORWARD, QUIET, Spec, carry, derivative, masked, pack, pass_through,
    project, recording, time_major, unpack)
from kerasish.backend.rnn.step_gradients import step_gradients


def _order(units):
    """Column order i, f, o, c~ from Keras's i, f, c~, o."""
    u = units
    return np.r_[0:2 * u, 3 * u:4 * u, 2 * u:3 * u]


class _Gates:
    """Turns a step's pre-activations `(B, 4U)` into gates, in place."""

    def __init__(self, activation, recurrent_activation, units, dtype):
        self.u = units
        self.fused = (activation, recurrent_activation) == ("tanh",
                                                            "sigmoid")
        self.act, self.ract = FORWARD[activation], \
            FORWARD[recurrent_activation]
        self.names = activation, recurrent_activation
        self.scale = None
        if self.fused:
            self.scale = np.concatenate([np.full(3 * units, -1, dtype),
                                         np.full(units, -2, dtype)])

    def __call__(self, z):
        """Activate one step's pre-activations `z` in place."""
        u = self.u
        if self.fused:
            np.exp(z, out=z)
            z += 1
            np.divide(1, z, out=z)
            candidate = z[:, 3 * u:]
            candidate *= 2
            candidate -= 1
            return
        self.ract(z[:, :3 * u], z[:, :3 * u])
        self.act(z[:, 3 * u:], z[:, 3 * u:])

    def slopes(self, gates, out):
        """Each gate's derivative, from the gates of all steps."""
        u = self.u
        if self.fused:
            np.subtract(1, gates, out=out)
            out *= gates
            candidate, slope = gates[..., 3 * u:], out[..., 3 * u:]
            np.multiply(candidate, candidate, out=slope)
            np.subtract(1, slope, out=slope)
            return
        out[..., :3 * u] = derivative(self.names[1], gates[..., :3 * u])
        out[..., 3 * u:] = derivative(self.names[0], gates[..., 3 * u:])


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
        mask: Optional boolean `(B, T)`: False steps carry the states.
        activation, recurrent_activation: Names from `common.FORWARD`.
        go_backwards: Read the sequence from its end.
        return_sequences: Output every step (else the last one).
        return_state: Pack the final `h` and `c` after the output.
        zero_output_for_mask: Masked steps output zeros.

    Example:

    >>> out = lstm(np.ones((2, 3, 4)), np.zeros((2, 5)), np.zeros((2, 5)),
    ...            np.ones((4, 20)), np.ones((5, 20)), np.zeros(20),
    ...            return_state=True)
    >>> out.shape        # the last output, then h and c
    (2, 3, 5)
    """
    u = h0.shape[-1]
    spec = Spec(x, u, mask, go_backwards, return_sequences, return_state,
                zero_output_for_mask, 2)
    gates = _Gates(activation, recurrent_activation, u, x.dtype)
    order = _order(u)
    kernel_p, recurrent_p = kernel[:, order], recurrent_kernel[:, order]
    bias_p = bias[order]
    if gates.scale is not None:
        kernel_p, recurrent_p = kernel_p * gates.scale, \
            recurrent_p * gates.scale
        bias_p = bias_p * gates.scale
    x_tm = time_major(x, spec.reverse)
    pre = project(x_tm, kernel_p, bias_p)
    training = recording()
    slopes = np.empty_like(pre) if training else None
    hs, cs, tcs = _forward_loop(spec, pre, slopes, h0, c0, recurrent_p,
                                gates)
    out = pack(spec, hs, [hs[-1], cs[-1]])
    if not training:
        return out, None
    return out, (spec, x_tm, pre, slopes, hs, cs, tcs,
                 kernel[:, order], recurrent_kernel[:, order], gates)


def _forward_loop(spec, pre, slopes, h0, c0, recurrent_p, gates):
    """Step through time; `pre` becomes the gates, `slopes` their slopes."""
    steps, batch, u = spec.steps, spec.batch, spec.units
    hs = np.empty((steps + 1, batch, u), pre.dtype)
    cs = np.empty_like(hs)
    tcs = np.empty((steps, batch, u), pre.dtype)
    hs[0], cs[0] = h0, c0
    rec = np.empty((batch, 4 * u), pre.dtype)
    ig = np.empty((batch, u), pre.dtype)
    with np.errstate(**QUIET):
        for t in range(steps):
            z = pre[t]
            z += np.matmul(hs[t], recurrent_p, out=rec)
            gates(z)
            c = np.multiply(z[:, u:2 * u], cs[t], out=cs[t + 1])
            c += np.multiply(z[:, :u], z[:, 3 * u:], out=ig)
            gates.act(c, tcs[t])
            np.multiply(z[:, 2 * u:3 * u], tcs[t], out=hs[t + 1])
            carry(spec, t, hs[t + 1], hs[t])
            carry(spec, t, cs[t + 1], cs[t])
        if slopes is not None:
            gates.slopes(pre, slopes)
    return hs, cs, tcs


@lstm.defvjp
def _lstm_vjp(g, out, x, h0, c0, kernel, recurrent_kernel, bias, *,
              mask=None, activation="tanh", recurrent_activation="sigmoid",
              go_backwards=False, return_sequences=False, return_state=False,
              zero_output_for_mask=False, needs, saved):
    (spec, x_tm, gates, slopes, hs, cs, tcs, kernel_p, recurrent_p,
     gate_fn) = saved
    per_step, dh, (dc,) = unpack(spec, g)
    dc = np.zeros_like(dh) if dc is None else dc
    with np.errstate(**QUIET):
        dh, dc = _backward_loop(spec, per_step, dh, dc, gates, slopes, cs,
                                tcs, recurrent_p, activation)
    dx, dk, db, drec = step_gradients(spec, x_tm, kernel_p, slopes,
                                      [(hs[:-1], slopes)],
                                      (needs[0], needs[3], needs[5],
                                       needs[4]))
    back = np.argsort(_order(spec.units))
    return (dx, dh if needs[1] else None, dc if needs[2] else None,
            None if dk is None else dk[:, back],
            drec[0][:, back] if drec else None,
            None if db is None else db[back])


def _backward_loop(spec, per_step, dh, dc, gates, slopes, cs, tcs,
                   recurrent_p, activation):
    """BPTT; `slopes[t]` becomes step t's pre-activation gradient."""
    u = spec.units
    factors = np.empty_like(slopes[0])
    carry_slope = np.empty_like(dh)
    for t in range(spec.steps - 1, -1, -1):
        if per_step is not None:
            dh += per_step[t]
        own_h, own_c = masked(spec, t, dh, dc)
        z, tc = gates[t], tcs[t]
        _carry_slope(activation, tc, carry_slope)
        carry_slope *= z[:, 2 * u:3 * u]
        carry_slope *= own_h
        own_c = own_c + carry_slope
        np.multiply(z[:, 3 * u:], own_c, out=factors[:, :u])
        np.multiply(cs[t], own_c, out=factors[:, u:2 * u])
        np.multiply(tc, own_h, out=factors[:, 2 * u:3 * u])
        np.multiply(z[:, :u], own_c, out=factors[:, 3 * u:])
        dz = np.multiply(slopes[t], factors, out=slopes[t])
        dc = pass_through(spec, t, dc, own_c * z[:, u:2 * u])
        dh = pass_through(spec, t, dh, dz @ recurrent_p.T)
    return dh, dc


def _carry_slope(activation, tc, out):
    """`act'(c)` from `tc = act(c)`, into `out` (no allocation for tanh)."""
    if activation == "tanh":
        np.multiply(tc, tc, out=out)
        np.subtract(1, out, out=out)
    else:
        out[...] = derivative(activation, tc)
