"""Ops whose forward pass cannot run on placeholder zeros.

Shape inference (`KerasTensor` inputs, or a layer traced on a dummy batch)
runs ops on arrays of zeros. `inv`, `cholesky` or `solve` would fail on a
zero matrix, so these ops declare their output spec instead: while
tracing, they return zeros shaped by `spec(*args, **kwargs)`, which also
validates the arguments exactly as the real call does.
"""
import functools

import numpy as np

from kerasish import tree
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.symbolic import keras_op


def _zeros(spec):
    if not isinstance(spec, KerasTensor):
        return spec
    return Tensor(np.zeros(tuple(3 if d is None else d for d in spec.shape),
                           dtype=spec.dtype))


def spec_op(spec):
    """Decorator: a `keras_op` that answers traces with `spec`'s shapes.

    `spec` takes the op's arguments (tensors or KerasTensors) and returns
    `KerasTensor`s (or a structure of them) describing the outputs.
    """
    def decorate(fn):
        @functools.wraps(fn)
        def op(*args, **kwargs):
            if call_context.in_trace():
                return tree.map_structure(_zeros, spec(*args, **kwargs))
            return fn(*args, **kwargs)
        return keras_op(op, spec=spec)
    return decorate
