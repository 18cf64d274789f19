"""The generic recurrence: call any cell once per timestep.

This is Keras's `backend.rnn` for cells without a fused whole-sequence
primitive (user cells, stacked cells, recurrent dropout in training). Each
step is ordinary differentiable ops, so gradients come from the tape.
Masked steps keep the previous states; their output is the previous
output (Keras's `states[0]`, or the previous step's output when unrolled)
or zeros with `zero_output_for_mask`.
"""
import numpy as np

from kerasish import ops, tree


def step_mask(mask, t):
    """`(B, 1)` boolean mask of step `t` (None when unmasked)."""
    if mask is None:
        return None
    return np.asarray(mask[:, t], bool)[:, None]


def run_cell_loop(step, sequences, states, mask=None, go_backwards=False,
                  unroll=False, zero_output_for_mask=False,
                  return_all_outputs=True):
    """Run `output, new_states = step(x_t, states)` over the time axis.

    Args:
        step: The per-step function.
        sequences: `(B, T, ...)` tensor.
        states: Nested list of `(B, ...)` state tensors.
        mask: Optional `(B, T)` boolean numpy mask.
        go_backwards: Read the sequence from its end; outputs are returned
            in processing order, as Keras does.
        unroll: Keras's unrolled masking rule (masked output = previous
            output, zeros before the first step).
        zero_output_for_mask: Output zeros at masked steps.
        return_all_outputs: Stack every step's output (else only the last).

    Returns:
        `(last_output, outputs, states)`; `outputs` is `(B, T, ...)` or, if
        `return_all_outputs` is False, the last output with a time axis.
    """
    steps = sequences.shape[1]
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    outputs, previous = [], None
    for t in order:
        output, new_states = step(sequences[:, t], states)
        if not tree.is_nested(new_states):
            new_states = [new_states]
        m = step_mask(mask, t)
        if m is not None:
            output = _masked_output(output, states, previous, m, unroll,
                                    zero_output_for_mask)
            new_states = tree.map_structure(
                lambda new, old: ops.where(m, new, old), new_states,
                list(states) if isinstance(states, tuple) else states)
        states, previous = new_states, output
        if return_all_outputs or t == order[-1]:
            outputs.append(output)
    stacked = ops.stack(outputs, axis=1)
    return outputs[-1], stacked, states


def _masked_output(output, states, previous, m, unroll, zero_output):
    if zero_output and not unroll:
        return ops.where(m, output, ops.zeros_like(output))
    if unroll:
        fallback = ops.zeros_like(output) if previous is None else previous
    else:
        fallback = states[0]
        if tree.is_nested(fallback):       # stacked cells: the top cell's h
            fallback = tree.flatten(states[-1])[0]
    return ops.where(m, output, fallback)
