"""`Variable`: a named, mutable tensor that layers and optimizers own.

The value lives in one numpy array that is updated in place (`assign`), so
optimizer slots and the PS runtime can refer to it by its stable `path`.
`numpy()` and `np.asarray(v)` return copies: a snapshot never changes under
the caller when training continues.
"""
import contextlib
import threading

import numpy as np

from kerasish.backend import dtypes
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import load_budget, naming
from kerasish.backend import shape as S

# A variable store (kerasish.estimator's: TF1's `get_variable` reuse, for a
# model_fn called again for every batch) sets `_store.active`: a variable
# created at a path the store knows shares the store's array, and
# `store.add(variable)` records every variable created meanwhile.
_store = threading.local()


# `StatelessScope` (backend/common/scopes.py) sets `_write_guard.scope`:
# assignments inside it go to the scope's copy of the variable, never to the
# variable.
class _WriteGuard(threading.local):
    scope = None    # class default: every thread starts outside any scope


_write_guard = _WriteGuard()


# A parameter-server strategy's scope sets `_weights.factory`: the weights
# layers make (`Layer.add_weight`) and optimizer state
# (`Optimizer.add_variable`) are then made by it, as a `Variable` subclass
# that knows where it lives. `role` is "weight" or "optimizer".
_weights = threading.local()


def make_variable(role, initializer, **kwargs):
    """A new variable for a layer weight or optimizer state: a plain
    `Variable`, or what the active weight factory makes."""
    factory = getattr(_weights, "factory", None)
    if factory is None:
        return Variable(initializer, **kwargs)
    return factory(role, initializer, **kwargs)


@contextlib.contextmanager
def weight_factory(factory):
    """Make layer weights and optimizer state with `factory` in the block
    (`factory(role, initializer, **variable_kwargs)`)."""
    previous = getattr(_weights, "factory", None)
    _weights.factory = factory
    try:
        yield factory
    finally:
        _weights.factory = previous


class Variable(Tensor):
    """A trainable (or not) array with a name and a path.

    Args:
        initializer: Initial value (array-like) or an initializer callable
            `initializer(shape, dtype)`.
        shape: Shape, required when `initializer` is a callable.
        dtype: Defaults to floatx for floats.
        trainable: Whether optimizers update it. Defaults to `True`.
        name: Name; the path is `<name scope>/<name>`.

    Example:

    >>> import kerasish
    >>> v = kerasish.Variable([1.0, 2.0], name="v")
    >>> v.assign_add([1.0, 1.0]).numpy()
    array([2., 3.], dtype=float32)
    """

    __slots__ = ("name", "path", "_trainable", "regularizer", "constraint",
                 "_initializer", "overwrite_with_gradient", "aggregation",
                 "synchronization", "_layer_ref", "_autocast", "_deferred")
    _is_variable = True

    def __init__(self, initializer, shape=None, dtype=None, trainable=True,
                 autocast=True, aggregation="none", synchronization="auto",
                 name=None):
        name = name or naming.auto_name("variable")
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain "
                f"character `/`. Received: name={name!r}")
        scope = naming.current_path()
        path = f"{scope}/{name}" if scope else name
        store = getattr(_store, "active", None)
        value = None if store is None else store.lookup(path, shape, dtype)
        if value is None:
            if callable(initializer):
                load_budget.charge(path, shape, dtype)
            value = self._initial_value(initializer, shape, dtype)
        super().__init__(value)
        self.name = name
        self.path = path
        self._trainable = bool(trainable)
        self.regularizer = None
        self.constraint = None
        self._initializer = initializer if callable(initializer) else None
        self.overwrite_with_gradient = False
        self.aggregation = aggregation
        self.synchronization = synchronization
        self._layer_ref = None
        # False: never cast to a mixed-precision compute dtype on read.
        self._autocast = bool(autocast)
        # Rows an optimizer has yet to bring up to date (see
        # optimizers/deferred_rows.py); None for a plain variable.
        self._deferred = None
        if store is not None:
            store.add(self)

    @staticmethod
    def _initial_value(initializer, shape, dtype):
        if callable(initializer):
            if shape is None:
                raise ValueError(
                    "When creating a Variable from an initializer, the "
                    "`shape` argument should be specified. Received: "
                    f"initializer={initializer} and shape={shape}")
            dtype = dtypes.standardize_dtype(dtype)
            value = initializer(tuple(shape), dtype=dtype)
        else:
            value = initializer
        value = np.asarray(getattr(value, "_value", value))
        if dtype is not None:
            value = value.astype(dtypes.standardize_dtype(dtype))
        elif value.dtype == np.float64:
            value = value.astype(dtypes.standardize_dtype(None))
        elif value.dtype == np.int64:
            value = value.astype("int32")
        if shape is not None and tuple(value.shape) != tuple(shape):
            raise ValueError(
                "Initial value has shape "
                f"{value.shape}, but the variable has shape {tuple(shape)}")
        return np.array(value, copy=True, order="C")

    # The tape watches trainable variables automatically.
    @property
    def _auto_watch(self):
        return self._trainable

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    @property
    def value(self):
        """The current value as a tensor (recorded on active tapes)."""
        return S.identity(self)

    def _rows_source(self, ids):
        """The array a row gather (`take(variable, ids, axis=0)`) reads:
        rows `ids` are up to date in it (see `DeferredVariable`)."""
        return self._value

    def numpy(self):
        return np.array(self._value, copy=True)

    def __array__(self, dtype=None, copy=None):
        out = np.array(self._value, copy=True)
        return out if dtype is None else out.astype(dtype)

    def assign(self, value):
        """Write `value` into the variable in place; returns the variable."""
        if _write_guard.scope is not None:   # StatelessScope only
            _write_guard.scope.protect(self)
        value = np.asarray(getattr(value, "_value", value))
        if value.shape != self._value.shape:
            raise ValueError(
                f"The shape of the target variable ({self.path}) and "
                "the shape of the target value in `variable.assign(value)` "
                f"must match. variable.shape={self._value.shape}, "
                f"Received: value.shape={value.shape}.")
        np.copyto(self._value, value, casting="unsafe")
        return self

    def assign_add(self, value):
        if _write_guard.scope is not None:   # StatelessScope only
            _write_guard.scope.protect(self)
        self._value += np.asarray(getattr(value, "_value", value),
                                  dtype=self._value.dtype)
        return self

    def assign_sub(self, value):
        if _write_guard.scope is not None:   # StatelessScope only
            _write_guard.scope.protect(self)
        self._value -= np.asarray(getattr(value, "_value", value),
                                  dtype=self._value.dtype)
        return self

    def __repr__(self):
        return (f"<Variable path={self.path}, shape={self.shape}, "
                f"dtype={self.dtype}, value={np.asarray(self._value)}>")

    @property
    def initializer(self):
        return self._initializer

    @property
    def device(self):
        """Where the variable lives, as TF names devices: this process
        (a parameter-server variable names its ps task)."""
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    @property
    def _reads_by_row(self):
        """Whether a row gather reads it through `_rows_source`."""
        return self._deferred is not None
