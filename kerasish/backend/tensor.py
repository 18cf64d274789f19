"""`Tensor`: an immutable-by-convention wrapper around one `np.ndarray`.

Tensors are what `kerasish.ops` and eager layer calls return. They convert to
numpy with `np.asarray(t)` or `t.numpy()`, overload Python operators, and are
hashed by identity (the tape keys gradients by object).
"""
import numpy as np


class Tensor:
    """An array value produced by kerasish ops.

    Example:

    >>> import kerasish
    >>> t = kerasish.ops.add([1.0, 2.0], 1.0)
    >>> t.numpy()
    array([2., 3.], dtype=float32)
    """

    __slots__ = ("_value", "_keras_mask", "__weakref__")
    # Makes `ndarray + Tensor` defer to `Tensor.__radd__`, so results stay
    # on the tape; `np.exp(tensor)` still works through `__array__`.
    __array_priority__ = 100
    _auto_watch = False

    def __init__(self, value):
        self._value = value
        self._keras_mask = None

    # -- numpy interop ---------------------------------------------------
    @property
    def shape(self):
        return self._value.shape

    @property
    def dtype(self):
        return self._value.dtype

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def size(self):
        return self._value.size

    def numpy(self):
        """Return the value as a numpy array."""
        value = self._value
        return value if type(value) is np.ndarray else np.asarray(value)

    def __array__(self, dtype=None, copy=None):
        value = self._value
        if type(value) is not np.ndarray:
            value = np.asarray(value)
        if dtype is not None and value.dtype != dtype:
            return value.astype(dtype)
        return value.copy() if copy else value

    def __len__(self):
        if not self._value.ndim:
            raise TypeError("len() of a 0-d tensor")
        return self._value.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value.__index__()

    def __repr__(self):
        body = np.array2string(np.asarray(self._value), separator=", ")
        return (f"<Tensor shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"numpy=\n{body}>")

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(str(self), spec)

    __hash__ = object.__hash__

    # -- operators (their ops are bound by kerasish/ops/operators.py) -----
    def __add__(self, other):
        return _ops.add(self, other)

    def __radd__(self, other):
        return _ops.add(other, self)

    def __sub__(self, other):
        return _ops.subtract(self, other)

    def __rsub__(self, other):
        return _ops.subtract(other, self)

    def __mul__(self, other):
        return _ops.multiply(self, other)

    def __rmul__(self, other):
        return _ops.multiply(other, self)

    def __truediv__(self, other):
        return _ops.divide(self, other)

    def __rtruediv__(self, other):
        return _ops.divide(other, self)

    def __floordiv__(self, other):
        return _ops.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops.floor_divide(other, self)

    def __mod__(self, other):
        return _ops.mod(self, other)

    def __pow__(self, other):
        return _ops.power(self, other)

    def __rpow__(self, other):
        return _ops.power(other, self)

    def __matmul__(self, other):
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        return _ops.matmul(other, self)

    def __neg__(self):
        return _ops.negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _ops.absolute(self)

    def __getitem__(self, key):
        return _ops.getitem(self, key)

    def __lt__(self, other):
        return _ops.less(self, other)

    def __le__(self, other):
        return _ops.less_equal(self, other)

    def __gt__(self, other):
        return _ops.greater(self, other)

    def __ge__(self, other):
        return _ops.greater_equal(self, other)

    def __eq__(self, other):
        return _ops.equal(self, other)

    def __ne__(self, other):
        return _ops.not_equal(self, other)

    def __and__(self, other):
        return _ops.logical_and(self, other)

    def __or__(self, other):
        return _ops.logical_or(self, other)

    def __invert__(self):
        return _ops.logical_not(self)

    @property
    def T(self):
        return _ops.transpose(self)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _ops.reshape(self, shape)

    def astype(self, dtype):
        return _ops.cast(self, dtype)


_ops = None  # the ops the operators call; `kerasish/ops/operators.py` binds


def bind_operators(ops):
    """Make `Tensor`'s operators call `ops` (a namespace of `keras.ops`)."""
    global _ops
    _ops = ops
