"""`LayerProbe`: watch the layers of a model during one training step.

Used by the step runner when a hook asks for it: fetches of layer outputs
(by layer name), per-layer forward/backward times for `ProfilerHook`'s
Chrome trace, and `NanTensorHook`'s diagnosis of where values first went
non-finite. While active, each watched layer's `call` is wrapped on the
instance (never on the class), and, for timing and finiteness, an identity
primitive is put on the layer's inputs and outputs whose gradient rule
notes when (and whether finite) the gradient passes. Nothing is wrapped
when no hook asks, so ordinary steps pay nothing.
"""
import functools
import time

import numpy as np

from kerasish import tree
from kerasish.backend.primitive import primitive
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context


@primitive
def _probe(x, *, site, where):
    return x


@_probe.defvjp
def _probe_vjp(g, out, x, *, site, where):
    site.on_gradient(where, g)
    return (g,)


class CallRecord:
    """One call of one layer during the step."""

    def __init__(self, layer, depth):
        self.layer = layer
        self.depth = depth
        self.start = self.end = None
        self.outputs = None
        self.grad_out_time = None
        self.grad_in_time = None
        self.grad_finite = True

    def on_gradient(self, where, g):
        now = time.perf_counter()
        if where == "out":
            if self.grad_out_time is None:
                self.grad_out_time = now
            if self.check and not np.isfinite(np.sum(g)):
                self.grad_finite = False
        else:
            self.grad_in_time = now

    def outputs_finite(self):
        return all(np.isfinite(a).all() for a in self.outputs
                   if a.dtype.kind in "fc")


def _wrap_tensors(structure, fn):
    def wrap(x):
        if isinstance(x, Tensor) and x._value.dtype.kind == "f":
            y = fn(x)
            mask = getattr(x, "_keras_mask", None)
            if mask is not None:
                y._keras_mask = mask
            return y
        return x
    return tree.map_structure(wrap, structure)


def _arrays(structure):
    return [np.asarray(x._value) for x in tree.flatten(structure)
            if isinstance(x, Tensor)]


class LayerProbe:
    """Context manager instrumenting a model's layers for one step.

    Args:
        model: The model whose sublayers are watched.
        capture: Names of layers whose outputs are kept (last call wins).
        timing: Record forward and backward times of every layer call.
        check_finite: Keep outputs and check gradients for `diagnose()`.
    """

    def __init__(self, model, capture=(), timing=False, check_finite=False):
        self.model = model
        self.capture = set(capture)
        self.timing = timing
        self.check_finite = check_finite
        self.records = []
        self.outputs = {}
        self._installed = []
        self._depth = 0

    @property
    def active(self):
        return bool(self.capture or self.timing or self.check_finite)

    def _targets(self):
        layers = self.model._flatten_layers(include_self=False)
        if self.timing or self.check_finite:
            return layers
        return [layer for layer in layers if layer.name in self.capture]

    def __enter__(self):
        if not self.active:
            return self
        # The layers must really run: no recorded step replays past them.
        self._was_probed = self.model.__dict__.get("_layers_probed", False)
        object.__setattr__(self.model, "_layers_probed", True)
        for layer in self._targets():
            layer._spec()  # the call signature, read before wrapping
            previous = layer.__dict__.get("call")
            object.__setattr__(layer, "call", self._wrap(layer, layer.call))
            self._installed.append((layer, previous))
        return self

    def __exit__(self, *exc):
        for layer, previous in reversed(self._installed):
            if previous is None:
                layer.__dict__.pop("call", None)
            else:
                object.__setattr__(layer, "call", previous)
        self._installed = []
        if self.active:
            object.__setattr__(self.model, "_layers_probed",
                               self._was_probed)

    def _wrap(self, layer, original):
        probe = self

        @functools.wraps(original)
        def call(*args, **kwargs):
            if call_context.in_trace():
                return original(*args, **kwargs)
            return probe._call(layer, original, args, kwargs)
        return call

    def _call(self, layer, original, args, kwargs):
        grads = self.timing or self.check_finite
        record = CallRecord(layer, self._depth)
        record.check = self.check_finite
        if grads and args:
            args = (_wrap_tensors(args[0], lambda x: _probe(
                x, site=record, where="in")),) + tuple(args[1:])
        self._depth += 1
        record.start = time.perf_counter()
        try:
            outputs = original(*args, **kwargs)
        finally:
            record.end = time.perf_counter()
            self._depth -= 1
        self.records.append(record)
        record.output_bytes = sum(x._value.nbytes
                                  for x in tree.flatten(outputs)
                                  if isinstance(x, Tensor))
        if layer.name in self.capture:
            self.outputs[layer.name] = tree.map_structure(
                lambda x: np.array(x) if isinstance(x, Tensor) else x,
                outputs)
        if self.check_finite:
            record.outputs = _arrays(outputs)
        if grads:
            outputs = _wrap_tensors(outputs, lambda x: _probe(
                x, site=record, where="out"))
        return outputs

    # -- reports --------------------------------------------------------------
    def diagnose(self):
        """Where the first non-finite value appeared, as a sentence."""
        for record in sorted(self.records, key=lambda r: r.end):
            if record.outputs is not None and not record.outputs_finite():
                return (f"the output of layer '{record.layer.name}' "
                        f"({type(record.layer).__name__}) is the first "
                        "non-finite value in the forward pass")
        bad = [r for r in self.records if not r.grad_finite]
        if bad:
            first = min(bad, key=lambda r: r.grad_out_time)
            return (f"the gradient reaching the output of layer "
                    f"'{first.layer.name}' ({type(first.layer).__name__}) "
                    "is the first non-finite value in the backward pass")
        return None

    def spans(self):
        """`(name, category, start, end, depth)` for each layer call."""
        out = []
        for r in self.records:
            name = r.layer.name
            out.append((name, "forward", r.start, r.end, r.depth))
            if r.grad_out_time is not None:
                end = r.grad_in_time or r.grad_out_time
                out.append((name, "backward", r.grad_out_time,
                            max(end, r.grad_out_time), r.depth))
        return out
