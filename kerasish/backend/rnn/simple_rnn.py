"""`simple_rnn`: a whole SimpleRNN sequence as one primitive."""
import numpy as np

from kerasish.backend.primitive import primitive
from kerasish.backend.rnn.common import (
    FORWARD, QUIET, Spec, carry, derivative, masked, pack, pass_through,
    project, recording, time_major, unpack)
from kerasish.backend.rnn.step_gradients import step_gradients


@primitive(saves=True)
def simple_rnn(x, h0, kernel, recurrent_kernel, bias, *, mask=None,
               activation="tanh", go_backwards=False, return_sequences=False,
               return_state=False, zero_output_for_mask=False):
    """A whole SimpleRNN sequence: `h = act(x_t @ W + h @ R + b)`.

    Args:
        x: Inputs `(B, T, D)`. h0: initial state `(B, U)`.
        kernel, recurrent_kernel, bias: `(D, U)`, `(U, U)`, `(U,)`.
        mask: Optional bool `(B, T)`; `activation` a name of `FORWARD`;
            the other parameters as in `lstm`.

    Example:

    >>> out = simple_rnn(np.ones((2, 3, 4)), np.zeros((2, 5)),
    ...                  np.ones((4, 5)), np.eye(5), np.zeros(5))
    >>> out.shape
    (2, 5)
    """
    spec = Spec(x, h0.shape[-1], mask, go_backwards, return_sequences,
                return_state, zero_output_for_mask, 1)
    x_tm = time_major(x, spec.reverse)
    pre = project(x_tm, kernel, bias)
    act = FORWARD[activation]
    hs = np.empty((spec.steps + 1,) + h0.shape, pre.dtype)
    hs[0] = h0
    rec = np.empty(h0.shape, pre.dtype)
    with np.errstate(**QUIET):
        for t in range(spec.steps):
            pre[t] += np.matmul(hs[t], recurrent_kernel, out=rec)
            act(pre[t], pre[t])
            hs[t + 1] = pre[t]
            carry(spec, t, hs[t + 1], hs[t])
    out = pack(spec, hs, [hs[-1]])
    return out, ((spec, x_tm, pre, hs) if recording() else None)


@simple_rnn.defvjp
def _simple_rnn_vjp(g, out, x, h0, kernel, recurrent_kernel, bias, *,
                    mask=None, activation="tanh", go_backwards=False,
                    return_sequences=False, return_state=False,
                    zero_output_for_mask=False, needs, saved):
    spec, x_tm, new_h, hs = saved
    per_step, dh, _ = unpack(spec, g)
    d_pre = derivative(activation, new_h)
    for t in range(spec.steps - 1, -1, -1):
        if per_step is not None:
            dh += per_step[t]
        own, _ = masked(spec, t, dh)
        d_pre[t] *= own
        dh = pass_through(spec, t, dh, d_pre[t] @ recurrent_kernel.T)
    dx, dk, db, drec = step_gradients(spec, x_tm, kernel, d_pre,
                                      [(hs[:-1], d_pre)],
                                      (needs[0], needs[2], needs[4],
                                       needs[3]))
    return (dx, dh if needs[1] else None, dk, drec[0] if drec else None,
            db)
