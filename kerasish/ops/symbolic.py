"""Symbolic dispatch: an op called on a `KerasTensor` becomes a graph node.

`x = kerasish.Input((4,)); y = ops.exp(x) * 2` builds two nodes of the
functional graph, as in Keras 3, where every op is also an `Operation`.
"""
import functools

import numpy as np

from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.backend.common.variable import Variable
from kerasish.backend.tensor import Tensor


_EAGER_TYPES = set()


def any_symbolic(args, kwargs=None):
    for a in args:
        if type(a) in _EAGER_TYPES:
            continue
        if isinstance(a, KerasTensor):
            return True
        if isinstance(a, (list, tuple)) and any_symbolic(a):
            return True
        if isinstance(a, dict) and any_symbolic(list(a.values())):
            return True
    if kwargs:
        return any_symbolic(list(kwargs.values()))
    return False


def keras_op(fn=None, *, spec=None):
    """Decorator: run `fn` eagerly, or record it when given KerasTensors.

    The output of a recorded call is found by running `fn` on placeholder
    arrays. `spec`, when given, is `fn`'s shape rule instead (Keras's
    `compute_output_spec`): called with the same arguments, KerasTensors
    included, it returns the output KerasTensors, or None to fall back to
    the placeholder run. Ops whose output shape the placeholder sizes
    cannot show (a `-1` in `reshape` over an unknown axis) have one.
    """
    if fn is None:
        return functools.partial(keras_op, spec=spec)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if (args or kwargs) and any_symbolic(args, kwargs):
            # lazy: a top-level import would close an import circle
            from kerasish.ops.operation import OpCall
            return OpCall(fn, fn.__name__, spec=spec)(*args, **kwargs)
        return fn(*args, **kwargs)
    wrapper.eager = fn
    wrapper.spec = spec
    return wrapper


def _register_eager_types():
    _EAGER_TYPES.update({Tensor, Variable, np.ndarray, int, float, bool,
                         type(None), str, np.float32, np.float64, np.int32,
                         np.int64})


_register_eager_types()
