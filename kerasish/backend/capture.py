"""Recorded calls: capture the primitive calls of one run, replay them.

`capture(fn, inputs)` runs `fn` once, eagerly, while every primitive (and
`nondiff`) call is written down together with where each of its arguments
came from: an input, the output of an earlier call, or something else (a
variable, a constant array or number), which is kept by reference.
`Trace.replay(inputs)` then makes the same calls on new inputs and skips
all the Python around them (layers, losses, structure handling). The
primitives still record on any active `GradientTape`, so gradients through
a replay are those of the eager run.

A recording is only kept when nothing outside the primitives depended on a
traced value. While capturing, these mark the trace unsafe (`escaped`):

* reading the array of a traced tensor or of a variable outside a
  primitive (`np.asarray(t)`, `float(t)`, `t.numpy()`, `t._value`, ...):
  Python then decided something from data, and a replay would not redo it;
* writing a variable (`assign`, RNG state) other than through a
  `traced_effect` (a recorded write, made again at each replay, such as
  BatchNormalization's moving statistics);
* drawing random numbers other than through a `traced_draw` (a replay
  would reuse the draws; recorded draws draw again);
* mixed-precision autocasting (it happens outside the primitives);
* a change of numpy's or Python's global random state.

That is the contract of a compiled step in Keras (`jax.jit`,
`tf.function`): the Python of the step runs when it is traced, the
recorded computation at every step.

Example:

>>> import kerasish
>>> from kerasish import ops
>>> w = kerasish.Variable([[2.0], [3.0]])
>>> def f(x):
...     return ops.sum(ops.relu(ops.matmul(x, w)))
>>> out, trace = capture(f, [ops.convert_to_tensor([[1.0, 1.0]])])
>>> float(out), trace.escaped is None
(5.0, True)
>>> float(trace.replay([ops.convert_to_tensor([[1.0, -1.0]])]))
0.0
>>> _, bad = capture(lambda x: float(x) * w, [ops.convert_to_tensor(1.0)])
>>> bad.escaped
'a traced value was read outside the primitives (Tensor._value)'
"""
import functools
import random as _pyrandom
import threading

import numpy as np

from kerasish import tree
from kerasish.backend.tape import _local as _state
from kerasish.backend.tape import active_tapes
from kerasish.backend.tensor import Tensor
from kerasish.backend.autocast import _state as autocast_state

_RAW = Tensor.__dict__["_value"]      # the slot itself, never patched
_raw_get = _RAW.__get__
_raw_set = _RAW.__set__


def active_tracer():
    """The `Tracer` capturing on this thread, or `None`."""
    return _state.tracer


def note_escape(why):
    """Mark the current capture (if any) unsafe, e.g. on a random draw."""
    tracer = _state.tracer
    if tracer is not None:
        tracer.escape(why)


def traced_call(op, args, params):
    """Run `op(*args, **params)` and record it on this thread's tracer.

    `Primitive.__call__` and `nondiff` wrappers come here while a capture
    is active. The op's own reads of its arguments are legitimate, so the
    tracer is paused while it runs (nested ops are not recorded: the
    replay calls `op` itself).
    """
    tracer = _state.tracer
    if autocast_state.dtype is not None:
        tracer.escape("mixed-precision autocasting inside the step")
    _state.tracer = None
    try:
        result = op(*args, **params)
    finally:
        _state.tracer = tracer
    tracer.record(op, args, params, result)
    return result


def traced_draw(fn):
    """Decorator for a random draw (`fn(...) -> Tensor`): a capture records
    it as an operation, so a replay draws again from the same generator,
    in the same order as an eager step would.

    Arguments are kept as recorded (shapes, seeds, generators), so a draw
    whose arguments are traced tensors is replayed with the new values.
    """
    return _called_at_replay(fn, "draws")


def traced_effect(fn):
    """Decorator for an update of variables (`fn(...) -> None`), such as a
    layer's moving statistics: a capture records it as an operation, so a
    replay makes the same writes at the same point of the step, from that
    step's values.
    """
    return _called_at_replay(fn, "effect")


def _called_at_replay(fn, kind):
    """`fn`, recorded while a capture runs; `wrapper.<kind>` is `fn`,
    which a replay calls with the recorded arguments."""
    @functools.wraps(fn)
    def wrapper(*args, **params):
        if _state.tracer is not None:
            return traced_call(wrapper, args, params)
        return fn(*args, **params)
    setattr(wrapper, kind, fn)
    return wrapper


class _Const:
    """An argument kept by reference: a variable, constant or number."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Seq:
    """A list or tuple argument holding references."""
    __slots__ = ("kind", "items")

    def __init__(self, kind, items):
        self.kind, self.items = kind, items


def _is_float(arg):
    if not isinstance(arg, Tensor):
        return False
    dtype = _raw_get(arg).dtype
    return dtype.kind in "fc" or dtype.name == "bfloat16"


def _resolve(ref, values):
    if ref.__class__ is int:
        return values[ref]
    if ref.__class__ is _Const:
        return ref.value
    return ref.kind(_resolve(r, values) for r in ref.items)


class Tracer:
    """What one capture has seen so far (ops, slots, escapes)."""

    def __init__(self):
        self.ops = []
        self.floats = []        # per op: which arguments are float tensors
        self.slot_of = {}
        self.keep = []          # holds slot tensors so their ids stay unique
        self.escaped = None

    def escape(self, why):
        if self.escaped is None:
            self.escaped = why

    def new_slot(self, tensor):
        slot = len(self.keep)
        self.slot_of[id(tensor)] = slot
        self.keep.append(tensor)
        return slot

    def ref(self, arg):
        slot = self.slot_of.get(id(arg))
        if slot is not None:
            return slot
        if isinstance(arg, (list, tuple)) and any(
                isinstance(a, (Tensor, list, tuple)) for a in arg):
            return _Seq(type(arg), [self.ref(a) for a in arg])
        return _Const(arg)

    def record(self, op, args, params, result):
        if result is None and getattr(op, "effect", None) is not None:
            self.ops.append((op, tuple(self.ref(a) for a in args), params,
                             None))
            self.floats.append(tuple(_is_float(a) for a in args))
            return
        if not isinstance(result, Tensor):
            self.escape(f"`{getattr(op, 'name', op)}` returned a "
                        f"{type(result).__name__}, not a tensor")
            return
        refs = tuple(self.ref(a) for a in args)
        self.ops.append((op, refs, params, self.new_slot(result)))
        self.floats.append(tuple(_is_float(a) for a in args))

    def is_traced(self, tensor):
        return id(tensor) in self.slot_of or \
            getattr(type(tensor), "_is_variable", False)


class Trace:
    """A finished recording; `replay(inputs)` re-runs it on new inputs.

    Attributes:
        escaped: `None` for a trace that may be replayed, else why not.
    """

    def __init__(self, tracer, n_inputs, structure, out_refs, mask_refs):
        self.ops = tracer.ops
        self.floats = tracer.floats
        self.n_slots = len(tracer.keep)
        self.n_inputs = n_inputs
        self.escaped = tracer.escaped
        self._structure = structure
        self._out_refs = out_refs
        self._mask_refs = mask_refs
        self._pack = tree.unflattener(structure)
        self._program = None

    def replay(self, inputs):
        """The outputs of the recorded calls made on `inputs` (tensors).

        With a `GradientTape` recording, every primitive is called as in
        eager mode (so it is recorded); otherwise the program runs on the
        arrays directly.
        """
        self._check(inputs)
        if active_tapes() is None:
            return self.program().run(inputs)
        values = [None] * self.n_slots
        values[:self.n_inputs] = inputs
        for op, refs, params, out in self.ops:
            result = op(*[_resolve(r, values) for r in refs], **params)
            if out is not None:         # an effect has no result
                values[out] = result
        return self.outputs(values)

    def replay_with_gradients(self, inputs, sources):
        """`(outputs, gradients)`: a replay and the gradients of its last
        output (a scalar loss) with respect to `sources`, as a
        `GradientTape` around `replay` would give them.

        Must not run while a tape records (nothing would be recorded).
        """
        self._check(inputs)
        if active_tapes() is not None:
            raise RuntimeError("`replay_with_gradients` bypasses the tapes; "
                               "a GradientTape is recording.")
        return self.program().run(inputs, sources=sources)

    def program(self):
        """The array-level `Program` of this trace (built once)."""
        if self._program is None:
            # lazy: kept out of `import kerasish`
            from kerasish.backend.capture_program import Program
            self._program = Program(self)
        return self._program

    def outputs(self, values):
        """The recorded outputs (with their masks), given every slot's
        tensor in `values`."""
        flat = []
        for ref, mask in zip(self._out_refs, self._mask_refs):
            value = _resolve(ref, values)
            if mask is not None:
                value._keras_mask = _resolve(mask, values)
            flat.append(value)
        return self._pack(flat)

    def target(self, values):
        """The last output: what `replay_with_gradients` differentiates."""
        target = _resolve(self._out_refs[-1], values)
        if not isinstance(target, Tensor):
            raise TypeError("The last output of a trace differentiated by "
                            "`replay_with_gradients` must be a tensor.")
        return target

    def _check(self, inputs):
        if len(inputs) != self.n_inputs:
            raise ValueError(
                f"This trace takes {self.n_inputs} inputs. "
                f"Received: {len(inputs)}")


def capture(fn, inputs):
    """Run `fn(*inputs)` eagerly while recording it.

    Args:
        fn: The function to record.
        inputs: A list of tensors, the positional arguments of `fn`.

    Returns:
        `(outputs, trace)`: what `fn` returned, and a `Trace` whose
        `escaped` says whether it may be replayed.
    """
    tracer = Tracer()
    for x in inputs:
        tracer.new_slot(x)
    np_state = np.random.get_state()[1].copy()
    py_state = _pyrandom.getstate()
    previous = _state.tracer
    _Guard.install()
    _state.tracer = tracer
    try:
        outputs = fn(*inputs)
    finally:
        _state.tracer = previous
        _Guard.uninstall()
    if not np.array_equal(np.random.get_state()[1], np_state) or \
            _pyrandom.getstate() != py_state:
        tracer.escape("numpy's or Python's global random state changed")
    flat = tree.flatten(outputs)
    out_refs, mask_refs = [], []
    for value in flat:
        out_refs.append(tracer.ref(value))
        mask = getattr(value, "_keras_mask", None)
        mask_refs.append(None if mask is None else tracer.ref(mask))
    if any(ref.__class__ is _Const and isinstance(ref.value, Tensor)
           and getattr(ref.value, "_keras_mask", None) is not None
           for ref in out_refs):
        tracer.escape("an output with a mask was not computed by the ops")
    trace = Trace(tracer, len(inputs), outputs, out_refs, mask_refs)
    tracer.keep = tracer.slot_of = None
    return outputs, trace


# -- the guard on `Tensor._value` while a capture runs ---------------------
def _guarded_get(obj, owner=None):
    tracer = _state.tracer
    if tracer is not None and tracer.is_traced(obj):
        tracer.escape("a traced value was read outside the primitives "
                      "(Tensor._value)")
    return _raw_get(obj, owner)


class _ValueGuard:
    """Stands in for the `Tensor._value` slot during a capture."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return _guarded_get(obj, owner)

    def __set__(self, obj, value):
        tracer = _state.tracer
        if tracer is not None and getattr(type(obj), "_is_variable", False):
            tracer.escape("a variable was written inside the step")
        _raw_set(obj, value)


def _len(self):
    value = _raw_get(self)
    if not value.ndim:
        raise TypeError("len() of a 0-d tensor")
    return value.shape[0]


# Metadata is not data: these read the slot directly while guarded.
_METADATA = {
    "_value": _ValueGuard(),
    "shape": property(lambda self: _raw_get(self).shape),
    "dtype": property(lambda self: _raw_get(self).dtype),
    "ndim": property(lambda self: _raw_get(self).ndim),
    "size": property(lambda self: _raw_get(self).size),
    "__len__": _len,
}


class _Guard:
    """Installs the guard on `Tensor` for the length of the captures."""
    _lock = threading.Lock()
    _depth = 0
    _saved = None

    @classmethod
    def install(cls):
        with cls._lock:
            if cls._depth == 0:
                cls._saved = {k: Tensor.__dict__[k] for k in _METADATA}
                for name, value in _METADATA.items():
                    setattr(Tensor, name, value)
            cls._depth += 1

    @classmethod
    def uninstall(cls):
        with cls._lock:
            cls._depth -= 1
            if cls._depth == 0:
                for name, value in cls._saved.items():
                    setattr(Tensor, name, value)
                cls._saved = None
