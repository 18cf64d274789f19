"""The Python operators (`+`, `@`, `[]`, `<`, `.T`, ...) of `Tensor` and
`KerasTensor` call the ops.

The backend sits below `ops`, so `backend/tensor.py` and
`backend/common/keras_tensor.py` can't import them; importing
`kerasish.ops` runs this module, which hands them down once.
"""
import types

from kerasish.backend import tensor
from kerasish.backend.common import keras_tensor
from kerasish.ops import core, numpy

_NUMPY = ("add", "subtract", "multiply", "divide", "floor_divide", "mod",
          "power", "matmul", "negative", "absolute", "getitem", "less",
          "less_equal", "greater", "greater_equal", "equal", "not_equal",
          "logical_and", "logical_or", "logical_not", "transpose", "reshape")

_OPS = types.SimpleNamespace(
    cast=core.cast, **{name: getattr(numpy, name) for name in _NUMPY})
tensor.bind_operators(_OPS)
keras_tensor.bind_operators(_OPS)
