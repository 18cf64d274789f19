"""A `Trace` run on arrays: forward calls, then the tape's reverse walk.

Replaying a trace through `Primitive.__call__` wraps every result in a
tensor and records it on the tapes. When nothing else is recording, the
same computation can skip that: `Program.run` calls each primitive's numpy
forward directly, keeps what a tape would have kept for the operations a
tape would have recorded (the rule of `GradientTape.record`: an argument
needs a gradient when it is a trainable variable or the output of such an
operation, and is a float), and walks them backwards as the tape's
`backward` does: the same VJPs, called in the same order, their gradients
added up in the same order. The gradients are therefore the tape's, bit
for bit. The walk is written out as Python once per plan
(`capture_codegen`); gradients are kept by slot and by constant instead of
by tensor identity, and only the slots something outside the arrays reads
(the outputs, recorded draws and effects) get a tensor.
"""
from kerasish.backend.primitive import to_array
from kerasish.backend.tape import _pop, _push, gradient_like
from kerasish.backend.tensor import Tensor
from kerasish.backend.capture import _Const, _Seq
from kerasish.backend.capture_codegen import (FIXED, LIST, SLOT,
                                              VARIABLE, compile_program)


class Program:
    """The array-level form of a `Trace` (see the module docstring).

    Args:
        trace: A `Trace` that may be replayed (`trace.escaped is None`).

    Attributes:
        steps: One `_Step` per recorded call.
        consts: Every constant an argument refers to (variables among
            them), numbered after the slots in `_Step.dests`.
        wrapped: The slots that get a tensor (outputs, masks, arguments
            of recorded draws and effects).
    """

    def __init__(self, trace):
        self.trace = trace
        self.n_slots = trace.n_slots
        self.steps = [_Step(op, refs, params, out, floats)
                      for (op, refs, params, out), floats
                      in zip(trace.ops, trace.floats)]
        self.consts, self._const_index = [], {}
        for step in self.steps:
            for ref in step.refs:
                if ref.__class__ is _Const and \
                        id(ref.value) not in self._const_index:
                    self._const_index[id(ref.value)] = len(self.consts)
                    self.consts.append(ref.value)
            step.dests = tuple(
                r if r.__class__ is int else
                self.n_slots + self.const_index(r.value)
                if r.__class__ is _Const else None for r in step.refs)
        self._variables = [v for v in self.consts
                           if getattr(v, "_is_variable", False)]
        self.wrapped = _slots_in(list(trace._out_refs) +
                                 list(trace._mask_refs))
        for step in self.steps:
            if step.draw is not None:
                self.wrapped |= _slots_in(step.refs)
        self._plan_key = self._needs = None
        self._forward_only = self._training = None

    def const_index(self, value):
        """The index of a constant in `consts`, or `None`."""
        return self._const_index.get(id(value))

    def run(self, inputs, sources=None):
        """The outputs for `inputs` (tensors); with `sources`, also the
        gradients of the last output with respect to each source."""
        tensors = [None] * self.n_slots    # slot -> tensor, where needed
        tensors[:len(inputs)] = inputs
        arrays = [x._value for x in inputs]
        if sources is None:
            if self._forward_only is None:
                self._forward_only = compile_program(self)
            self._forward_only(*arrays, tensors, None)
            return self.trace.outputs(tensors)
        self._plan()
        # Forwards that save for their VJP only under a tape (RNNs,
        # foreign calls) must see one, as they would in eager mode; the
        # step closes the scope where its backward walk begins.
        with _ForwardScope() as scope:
            grads = self._training(*arrays, tensors, scope)
        self.trace.target(tensors)      # a tensor, or a TypeError
        outputs = self.trace.outputs(tensors)
        return outputs, [self._gradient(grads, s) for s in sources]

    def _gradient(self, grads, source):
        k = self.const_index(source)
        return None if k is None else gradient_like(grads[k], source)

    def _plan(self):
        """Per step, the `needs` a tape would record (`None`: no record);
        compiles the training step for it.

        It depends only on which variables are trainable (watched), so it
        is computed again only when that changes.
        """
        key = tuple(bool(v._auto_watch) for v in self._variables)
        if key != self._plan_key:
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
            self._training = compile_program(self, plan)
            self._needs, self._plan_key = plan, key
        return self._needs


class _ForwardScope:
    """Keeps `_FORWARD_FOR_GRADIENTS` on the tape stack from entry until
    `close()` (or exit)."""

    def __enter__(self):
        _push(_FORWARD_FOR_GRADIENTS)
        self.open = True
        return self

    def close(self):
        if self.open:
            self.open = False
            _pop(_FORWARD_FOR_GRADIENTS)

    def __exit__(self, *exc):
        self.close()


class _ForwardForGradients:
    """Stands on the tape stack while a program runs a forward whose
    gradients it computes itself; it records nothing."""

    def record(self, *args):
        pass


_FORWARD_FOR_GRADIENTS = _ForwardForGradients()


class _Step:
    """One recorded call, ready to run on arrays."""
    __slots__ = ("op", "kernel", "saves", "differentiable", "refs",
                 "params", "out", "floats", "args", "draw", "dests")

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
        self.args = None if self.draw is not None else \
            [_argument(r) for r in refs]


def _argument(ref):
    """How the step's code gives this argument (see `capture_codegen`)."""
    if ref.__class__ is int:
        return SLOT, ref
    if ref.__class__ is _Const:
        value = ref.value
        if getattr(value, "_is_variable", False):
            return VARIABLE, value
        # Converted once, as `Primitive.__call__` converts it.
        return FIXED, value._value if isinstance(value, Tensor) else \
            to_array(value)
    return LIST, ref


def _tracked(ref, tracked):
    if ref.__class__ is int:
        return tracked[ref]
    if ref.__class__ is _Const:
        return bool(getattr(ref.value, "_auto_watch", False))
    return False            # a list is never watched itself


def _slots_in(refs):
    """The slots among `refs`, looking into lists."""
    found = set()
    for ref in refs:
        if ref.__class__ is int:
            found.add(ref)
        elif ref.__class__ is _Seq:
            found |= _slots_in(ref.items)
    return found
