"""Symbolic dispatch: an op called on a `KerasTensor` becomes a graph node.

`x = kerasish.Input((4,)); y = ops.exp(x) * 2` builds two nodes of the
functional graph, as in Keras 3, where every op is also an `Operation`.
"""
import functools

from kerasish.engine.keras_tensor import KerasTensor


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


def keras_op(fn):
    """Decorator: run `fn` eagerly, or record it when given KerasTensors."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if (args or kwargs) and any_symbolic(args, kwargs):
            from kerasish.engine.operation import OpCall
            return OpCall(fn, fn.__name__)(*args, **kwargs)
        return fn(*args, **kwargs)
    wrapper.eager = fn
    return wrapper


def _register_eager_types():
    import numpy as np
    from kerasish.backend.tensor import Tensor
    _EAGER_TYPES.update({Tensor, np.ndarray, int, float, bool, type(None),
                         str, np.float32, np.float64, np.int32, np.int64})


_register_eager_types()
