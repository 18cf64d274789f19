"""A `Trace` run on arrays: forward calls, then the tape's reverse walk.

Replaying a trace through `Primitive.__call__` wraps every result in a
tensor and records it on the tapes. When nothing else is recording, the
same computation can skip that: `Program.run` calls each primitive's numpy
forward directly, keeps what a tape would have kept for the operations a
tape would have recorded (the rule of `GradientTape.record`: an argument
needs a gradient when it is a trainable variable or the output of such an
operation, and is a float), and runs the tape's own `backward` walk over
those records. The gradients are therefore the tape's, bit for bit.
"""
import numpy as np

from kerasish.backend.primitive import _sequence_to_array, to_array
from kerasish.backend.tape import (_pop, _push, _Record, _result_like,
                                   backward)
from kerasish.backend.tensor import Tensor
from kerasish.backend.trace import _Const, _resolve


class Program:
    """The array-level form of a `Trace` (see the module docstring).

    Args:
        trace: A `Trace` that may be replayed (`trace.escaped is None`).
    """

    def __init__(self, trace):
        self.trace = trace
        self.n_slots = trace.n_slots
        self.steps = [_Step(op, refs, params, out, floats)
                      for (op, refs, params, out), floats
                      in zip(trace.ops, trace.floats)]
        self._variables = [r.value for step in self.steps
                           for r in step.refs if r.__class__ is _Const and
                           getattr(r.value, "_is_variable", False)]
        self._needs = self._needs_key = None

    def run(self, inputs, sources=None):
        """The outputs for `inputs` (tensors); with `sources`, also the
        gradients of the last output with respect to each source."""
        n = self.trace.n_inputs
        arrays = [None] * self.n_slots     # slot -> array
        tensors = [None] * self.n_slots    # slot -> tensor
        arrays[:n] = [x._value for x in inputs]
        tensors[:n] = inputs
        needs_of = self._plan() if sources is not None else None
        records = []
        if needs_of is not None:
            # Forwards that save for their VJP only under a tape (RNNs,
            # foreign calls) must see one, as they would in eager mode.
            _push(_FORWARD_FOR_GRADIENTS)
        try:
            self._forward(arrays, tensors, needs_of, records)
        finally:
            if needs_of is not None:
                _pop(_FORWARD_FOR_GRADIENTS)
        outputs = self.trace.outputs(tensors)
        if sources is None:
            return outputs
        target = self.trace.target(tensors)
        grads = {id(target): np.ones_like(target._value)}
        backward(records, grads, {id(s) for s in sources})
        return outputs, [_result_like(grads, s) for s in sources]

    def _forward(self, arrays, tensors, needs_of, records):
        for i, step in enumerate(self.steps):
            if step.draw is not None:       # its own arguments, as recorded
                result = step.draw(*[_resolve(r, tensors) for r in step.refs],
                                   **step.params)
                if step.out is not None:    # an effect has no result
                    arrays[step.out], tensors[step.out] = result._value, \
                        result
                continue
            xs = [a if a is not None else _array(r, arrays)
                  for r, a in step.fixed]
            if step.saves:
                y, saved = step.kernel(*xs, **step.params)
            else:
                y, saved = step.kernel(*xs, **step.params), None
            if type(y) is not np.ndarray:
                y = np.asarray(y)
            arrays[step.out] = y
            tensors[step.out] = result = Tensor(y)
            if needs_of is not None and needs_of[i] is not None:
                args = [_resolve(r, tensors) for r in step.refs]
                records.append(_Record(step.op, args, xs, result,
                                       step.params, saved, needs_of[i]))

    def _plan(self):
        """Per step, the `needs` a tape would record (`None`: no record).

        It depends only on which variables are trainable (watched), so it
        is computed again only when that changes.
        """
        key = tuple(bool(v._auto_watch) for v in self._variables)
        if key != self._needs_key:
            tracked = [False] * self.n_slots
            plan = []
            for step in self.steps:
                needs = tuple(_tracked(r, tracked) and f
                              for r, f in zip(step.refs, step.floats))
                if step.differentiable and any(needs):
                    tracked[step.out] = True
                    plan.append(needs)
                else:
                    plan.append(None)
            self._needs, self._needs_key = plan, key
        return self._needs


class _ForwardForGradients:
    """Stands on the tape stack while a program runs a forward whose
    gradients it computes itself; it records nothing."""

    def record(self, *args):
        pass


_FORWARD_FOR_GRADIENTS = _ForwardForGradients()


class _Step:
    """One recorded call, ready to run on arrays."""
    __slots__ = ("op", "kernel", "saves", "differentiable", "refs",
                 "params", "out", "floats", "fixed", "draw")

    def __init__(self, op, refs, params, out, floats):
        self.op, self.refs, self.params, self.out = op, refs, params, out
        self.floats = floats
        # A `traced_draw` or `traced_effect`: called with its arguments.
        self.draw = getattr(op, "draws", None) or getattr(op, "effect", None)
        if hasattr(op, "fwd"):              # a Primitive
            self.kernel, self.saves = op.fwd, op.saves
            self.differentiable = True
        else:                               # `nondiff`, draw or effect
            self.kernel, self.saves = op.__wrapped__, False
            self.differentiable = False
        # Constants other than variables are converted once.
        self.fixed = [(r, _array(r, None)) if r.__class__ is _Const and
                      not getattr(r.value, "_is_variable", False) and
                      self.draw is None else (r, None) for r in refs]


def _array(ref, arrays):
    """The array `Primitive.__call__` would pass for this argument."""
    if ref.__class__ is int:
        return arrays[ref]
    if ref.__class__ is _Const:
        value = ref.value
        return value._value if isinstance(value, Tensor) else \
            to_array(value)
    return _sequence_to_array([_resolve(r, arrays) for r in ref.items])


def _tracked(ref, tracked):
    if ref.__class__ is int:
        return tracked[ref]
    if ref.__class__ is _Const:
        return bool(getattr(ref.value, "_auto_watch", False))
    return False            # a list is never watched itself
