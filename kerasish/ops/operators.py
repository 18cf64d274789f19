"""`Tensor`'s Python operators (`+`, `@`, `[]`, `<`, `.T`, ...) call the ops.

The backend sits below `ops`, so `backend/tensor.py` can't import them;
importing `kerasish.ops` runs this module, which hands them down once.
"""
import types

from kerasish.backend.tensor import bind_operators
from kerasish.ops import core, numpy

_NUMPY = ("add", "subtract", "multiply", "divide", "floor_divide", "mod",
          "power", "matmul", "negative", "absolute", "getitem", "less",
          "less_equal", "greater", "greater_equal", "equal", "not_equal",
          "logical_and", "logical_or", "logical_not", "transpose", "reshape")

bind_operators(types.SimpleNamespace(
    cast=core.cast, **{name: getattr(numpy, name) for name in _NUMPY}))
