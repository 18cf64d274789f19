"""`KerasTensor`: a symbolic tensor (shape and dtype, no value).

`kerasish.Input` returns one; calling layers or ops on KerasTensors records
`Node`s, from which `Model(inputs, outputs)` builds its graph.
"""
from kerasish.backend.dtypes import standardize_dtype


class KerasTensor:
    """A symbolic placeholder with a shape (None for unknown dims).

    Attributes:
        shape: Tuple of ints or None.
        dtype: String dtype name.
        name: Name (for Input tensors, the input layer's name).

    Example:

    >>> x = kerasish.Input((3,), name="features")
    >>> x.shape, x.dtype, x.name
    ((None, 3), 'float32', 'features')
    """

    def __init__(self, shape, dtype="float32", sparse=False, ragged=False,
                 record_history=True, name=None):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = standardize_dtype(dtype)
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self.name = name
        self._keras_history = None
        self._keras_mask = None

    @property
    def ndim(self):
        return len(self.shape)

    def reshape(self, newshape):
        return _ops.reshape(self, newshape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, "
                f"sparse={self.sparse}, ragged={self.ragged}, "
                f"name={self.name}>")

    def __array__(self, *args, **kwargs):
        raise ValueError(
            "A KerasTensor is symbolic: it's a placeholder for a shape and "
            "a dtype. It doesn't have any actual numerical value. You cannot "
            "convert it to a NumPy array.")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __iter__(self):
        raise NotImplementedError(
            "Iterating over a symbolic KerasTensor is not supported.")

    __hash__ = object.__hash__

    @property
    def T(self):
        return _ops.transpose(self)


_ops = None  # the ops the operators call; `kerasish/ops/operators.py` binds


def bind_operators(ops):
    """Make `KerasTensor`'s operators call `ops` (a namespace of ops)."""
    global _ops
    _ops = ops


def _bind(name, op_name, reflected=False):
    def method(self, *args):
        fn = getattr(_ops, op_name)
        if reflected:
            return fn(args[0], self)
        return fn(self, *args)
    method.__name__ = name
    setattr(KerasTensor, name, method)


for _name, _op in [("__add__", "add"), ("__sub__", "subtract"),
                   ("__mul__", "multiply"), ("__truediv__", "divide"),
                   ("__floordiv__", "floor_divide"), ("__mod__", "mod"),
                   ("__pow__", "power"), ("__matmul__", "matmul"),
                   ("__lt__", "less"), ("__le__", "less_equal"),
                   ("__gt__", "greater"), ("__ge__", "greater_equal"),
                   ("__eq__", "equal"), ("__ne__", "not_equal"),
                   ("__and__", "logical_and"), ("__or__", "logical_or"),
                   ("__getitem__", "getitem"), ("__neg__", "negative"),
                   ("__abs__", "absolute"), ("__invert__", "logical_not")]:
    _bind(_name, _op)
for _name, _op in [("__radd__", "add"), ("__rsub__", "subtract"),
                   ("__rmul__", "multiply"), ("__rtruediv__", "divide"),
                   ("__rpow__", "power"), ("__rmatmul__", "matmul")]:
    _bind(_name, _op, reflected=True)
KerasTensor.__hash__ = object.__hash__


def is_keras_tensor(x):
    """Whether `x` is a symbolic `KerasTensor`."""
    return isinstance(x, KerasTensor)
