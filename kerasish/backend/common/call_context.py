"""What the current (outer) layer call decided: `training`, tracing.

A stack per thread: an inner layer inherits `training` from the call it
runs inside unless it is passed explicitly. Tracing (shape inference on a
dummy batch) suppresses state updates such as BatchNorm's moving averages.
"""
import threading

_local = threading.local()


def _stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def current_training():
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


def is_outermost():
    return not getattr(_local, "stack", None)


def in_trace():
    """True while layers run on placeholder data to infer output shapes."""
    return getattr(_local, "trace", 0) > 0


class training_scope:
    def __init__(self, training):
        self.training = training

    def __enter__(self):
        _stack().append(self.training)

    def __exit__(self, *exc):
        _local.stack.pop()


class trace_scope:
    """Shape inference on placeholders whose unknown dims are `sizes`
    (first axis, other axes), when given; `filled` says whether some
    input dim was unknown (and so stands for any size)."""

    def __init__(self, sizes=None, filled=False):
        self.sizes = sizes
        self.filled = filled

    def __enter__(self):
        _local.trace = getattr(_local, "trace", 0) + 1
        self._outer = getattr(_local, "trace_sizes", None)
        self._outer_filled = getattr(_local, "trace_filled", False)
        if self.sizes is not None:
            _local.trace_sizes = self.sizes
            _local.trace_filled = self.filled

    def __exit__(self, *exc):
        _local.trace -= 1
        _local.trace_sizes = self._outer
        _local.trace_filled = self._outer_filled



def trace_fills_unknown_dims():
    """True inside a trace some of whose placeholder dims stand for unknown
    sizes: a size there may differ from the one a real batch will have."""
    return in_trace() and getattr(_local, "trace_filled", False)


def trace_sizes():
    """The current trace's placeholder sizes `(first axis, other axes)`,
    or None outside a trace that set them."""
    return getattr(_local, "trace_sizes", None) if in_trace() else None
