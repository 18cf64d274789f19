"""Compiled steps: the model's forward pass and loss, recorded and replayed.

Keras compiles `train_step`, `test_step` and `predict_step` unless
`run_eagerly=True` (`jit_compile="auto"`): the Python of the step runs
when it is traced, the recorded computation at every later step. kerasish
does the same with `backend.capture`: the first batch of a given signature
(structure, shapes, dtypes and the model's variables) runs eagerly, the
second is run eagerly and recorded, and from the third on the recorded
primitive calls are replayed, skipping the layer, loss and structure
bookkeeping around them.

What is recorded is the part of a step between the data and the loss: the
model call (and `compute_loss` for training and evaluation). A training
replay also computes the gradients, as a program on arrays
(`backend.capture_program`) with the tape's own reverse walk; the optimizer,
metrics and callbacks run as always. A recording that saw Python depend on
data, a variable written other than by a recorded effect (moving
statistics), a random number drawn other than through `kerasish.random`'s
recorded draws, or mixed precision (see
`backend.capture`) is dropped, and that kind of step then runs eagerly for
good, with the eager semantics.

Recording is off with `run_eagerly=True` or `jit_compile=False`, for a
`train_step`/`test_step`/`predict_step` the model overrides (they are not
called through here) and while a `LayerProbe` instruments the layers;
`compile()` and `quantize()` start afresh.
"""
import numpy as np

from kerasish import tree
from kerasish.backend import capture as trace_module
from kerasish.backend.tensor import Tensor

MAX_SIGNATURES = 8      # per kind of step, as a bound on retracing


class StepTraces:
    """The recorded steps of one compiled model, by kind and signature."""

    def __init__(self):
        self._traces = {}       # key -> Trace, or None after one eager run
        self._disabled = {}     # kind -> why recording was given up

    def reset(self):
        """Forget every recording (the model's layers changed)."""
        self._traces, self._disabled = {}, {}

    def disabled(self, kind):
        """Why steps of `kind` run eagerly for good, or `None`."""
        return self._disabled.get(kind)

    def run(self, model, kind, fn, args, extra_key=()):
        """`fn(*args)`, eagerly, recorded or replayed.

        Args:
            model: The model (its `run_eagerly`/`jit_compile` decide).
            kind: `"train"`, `"test"` or `"predict"`.
            fn: The function of the step to record.
            args: Its positional arguments (nested structures of arrays).
            extra_key: Anything else the recording depends on (hashable).
        """
        key = self._key(model, kind, args, extra_key)
        if key is None:
            return fn(*args)
        if key not in self._traces:
            if sum(k[0] == kind for k in self._traces) >= MAX_SIGNATURES:
                return fn(*args)
            self._traces[key] = None
            return fn(*args)
        flat, where, leaves = _leaves(args)
        trace = self._traces[key]
        if trace is not None:
            return trace.replay(leaves)

        def packed(*values):
            full = list(flat)
            for i, value in zip(where, values):
                full[i] = value
            return fn(*tree.pack_sequence_as(args, full))
        outputs, trace = trace_module.capture(packed, leaves)
        if trace.escaped is not None:
            self._disabled[kind] = trace.escaped
            self._traces = {k: v for k, v in self._traces.items()
                            if k[0] != kind}
        else:
            self._traces[key] = trace
        return outputs


    def replay_with_gradients(self, model, kind, args, sources,
                              extra_key=()):
        """`(outputs, gradients)` from a recorded step whose last output is
        the loss, without a `GradientTape`; `None` when there is no such
        recording (yet) or a tape is recording."""
        key = self._key(model, kind, args, extra_key)
        trace = self._traces.get(key) if key is not None else None
        if trace is None or trace_module.active_tapes() is not None:
            return None
        return trace.replay_with_gradients(_leaves(args)[2], sources)

    def _key(self, model, kind, args, extra_key):
        if not _wanted(model) or kind in self._disabled:
            return None
        signature = _signature(args)
        return None if signature is None else (kind, signature, extra_key)


def _leaves(args):
    """The flat arguments, where the non-`None` ones are, and those as
    fresh tensors (the inputs of a trace)."""
    flat = tree.flatten(args)
    where = [i for i, x in enumerate(flat) if x is not None]
    return flat, where, [_as_tensor(flat[i]) for i in where]


def _wanted(model):
    return bool(model.jit_compile) and not model.run_eagerly and \
        not getattr(model, "_layers_probed", False)


def _as_tensor(x):
    # Always a new wrapper: two leaves never share an identity (a slot).
    return Tensor(x._value if isinstance(x, Tensor) else np.asarray(x))


def _signature(obj):
    """A hashable description of a nested structure of arrays, or `None`
    when something in it is not an array, a number or `None`."""
    if obj is None:
        return None.__class__
    if isinstance(obj, (np.ndarray, Tensor)):
        dtype = obj.dtype
        if dtype.kind not in "biufc" and dtype.name != "bfloat16":
            return None
        return (obj.shape, dtype.str)
    if isinstance(obj, (list, tuple)):
        parts = tuple(_signature(v) for v in obj)
        return None if None in parts else (type(obj), parts)
    if isinstance(obj, dict):
        try:
            keys = sorted(obj)
        except TypeError:
            return None
        parts = tuple(_signature(obj[k]) for k in keys)
        return None if None in parts else (dict, tuple(keys), parts)
    return None
