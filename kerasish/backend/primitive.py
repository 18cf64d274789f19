"""Differentiable primitives: a forward function and its VJP, side by side.

    @primitive
    def multiply(a, b):
        return a * b

    @multiply.defvjp
    def _multiply_vjp(g, out, a, b):
        return unbroadcast(g * b, a), unbroadcast(g * a, b)

Positional arguments are the array inputs; keyword arguments are static
parameters (axis, shapes, ...) passed unchanged to the forward and the VJP.
A VJP receives numpy arrays `(g, out, *inputs, **params)` and returns one
gradient per input (`None` where an input is not differentiable), already
reduced to that input's shape. Two optional keyword arguments, declared by
name in the VJP's signature, are passed when present:

* `needs`: a tuple of bools, which inputs need a gradient, so that a costly
  unused gradient (the input gradient of a first layer) can be skipped;
* `saved`: what the forward stashed, for primitives declared with
  `@primitive(saves=True)`, whose forward returns `(out, saved)`.

`defvjps(fn_a, fn_b, ...)` registers one rule per input instead (autograd's
style); each is called only when its input needs a gradient.
"""
import inspect

import numpy as np

from kerasish.backend import autocast as _autocast
from kerasish.backend.autocast import _state as _autocast_state
from kerasish.backend.tape import _local as _state
from kerasish.backend.tensor import Tensor
from kerasish.backend.capture import _state as _trace_state
from kerasish.backend.capture import traced_call
from kerasish.backend import config


def unbroadcast(g, like):
    """Sum `g` over the axes that broadcasting added to `like`'s shape.

    A VJP calls it to bring an output-shaped gradient back to the shape of
    an input that was broadcast in the forward pass.

    Args:
        g: The gradient, a numpy array of the broadcast (output) shape.
        like: The input (an array) or its shape (a tuple).

    Returns:
        `g` summed down to `like`'s shape.

    Example:

    >>> g = np.ones((4, 2, 3))
    >>> unbroadcast(g, np.zeros((1, 3)))
    array([[8., 8., 8.]])
    >>> unbroadcast(g, (2, 1)).shape
    (2, 1)
    """
    shape = np.shape(like) if not isinstance(like, tuple) else like
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def to_array(x):
    """Unwrap a primitive argument: Tensor -> ndarray; scalars stay weak."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (np.ndarray, np.generic, int, float, bool, complex)):
        return x
    if x is None:
        # ValueError as Keras on JAX and TensorFlow ("None is not a valid
        # value for jnp.array"): a user sees it for a missing `y` or input.
        raise ValueError("Expected a tensor, array or number. Received: None")
    if isinstance(x, (list, tuple)):
        return _sequence_to_array(x)
    if hasattr(x, "__array__"):
        return np.asarray(x)
    raise TypeError(
        "Expected a tensor, array or number. "
        f"Received: {type(x).__name__} {x!r:.80}")


def stacked_sequence(seq):
    """A (nested) list of tensors as one tensor, through the `stack`
    primitive so gradients reach each tensor (`ops.sum(model.losses)`);
    None if `seq` holds no tensor or mixes dtypes (then it is plain data).
    """
    items = [_stacked_or_same(v) for v in seq]
    tensors = [v for v in items if isinstance(v, Tensor)]
    if not tensors or not items:
        return None
    dtype = _sequence_to_array(seq).dtype
    if any(t.dtype != dtype for t in tensors):
        return None
    # lazy: a top-level import would close an import circle
    from kerasish.backend.shape import stack
    return stack(*[v if isinstance(v, Tensor) else
                   Tensor(np.asarray(to_array(v), dtype)) for v in items])


def _stacked_or_same(value):
    if isinstance(value, (list, tuple)):
        stacked = stacked_sequence(value)
        if stacked is not None:
            return stacked
    return value


def _sequence_to_array(seq):
    arr = np.asarray([to_array(v) if isinstance(v, Tensor) else v
                      for v in seq])
    if arr.dtype == np.float64:
        arr = arr.astype(config.floatx())
    elif arr.dtype == np.int64:
        info = np.iinfo(np.int32)
        if arr.size and (arr.max() > info.max or arr.min() < info.min):
            # As Keras: Python ints become int32, never silently wrapped.
            raise OverflowError(
                "Python int too large to convert to int32: values span "
                f"[{arr.min()}, {arr.max()}]. Pass an int64 numpy array "
                "or `dtype='int64'`.")
        arr = arr.astype("int32")
    return arr


class Primitive:
    """A named differentiable operation; call it like the forward function.

    Built by the `primitive` decorator. Calling it runs the numpy forward on
    the unwrapped arrays, returns a `Tensor` and records the call on every
    active `GradientTape`; the gradient rules come from `defvjp` (one rule
    for all inputs) or `defvjps` (one rule per input).

    Args:
        fwd: The numpy forward function. Positional arguments are array
            inputs, keyword arguments static parameters.
        name: The operation's name. Defaults to `fwd.__name__`.
        saves: If `True`, `fwd` returns `(output, saved)` and `saved` is
            handed to the VJP as its `saved` keyword. Defaults to `False`.

    Attributes:
        reads_rows: True for a row gather (`take` with `axis=0`): its first
            argument, a variable, then gives only the rows named by the
            second (`Variable._rows_source`), which lets an optimizer keep
            the other rows pending.

    Example:

    >>> def scale(x, factor=1.0):
    ...     return x * factor
    >>> op = Primitive(scale, name="scale")
    >>> rules = op.defvjps(lambda g, out, x, factor=1.0: g * factor)
    >>> x = kerasish.Variable([1.0, 2.0])
    >>> with kerasish.GradientTape() as tape:
    ...     y = kerasish.ops.sum(op(x, factor=3.0))
    >>> float(y), tape.gradient(y, x).numpy().tolist()
    (9.0, [3.0, 3.0])
    """

    reads_rows = False

    def __init__(self, fwd, name=None, saves=False):
        self.fwd = fwd
        self.name = name or fwd.__name__
        self.saves = saves
        self._vjp = None
        self._per_input = None
        self._vjp_kwargs = ()
        self.__doc__ = fwd.__doc__
        self.__wrapped__ = fwd

    def __repr__(self):
        return f"<primitive {self.name}>"

    def defvjp(self, fn):
        """Register one VJP returning a gradient for every input."""
        params = inspect.signature(fn).parameters
        self._vjp = fn
        self._vjp_kwargs = tuple(k for k in ("needs", "saved") if k in params)
        return fn

    def defvjps(self, *fns):
        """Register one VJP per input (`None` for non-differentiable ones)."""
        self._per_input = fns
        return fns

    def __call__(self, *args, **params):
        if any(isinstance(a, (list, tuple)) for a in args):
            args = tuple(_stacked_or_same(a) for a in args)
        if _trace_state.tracer is not None:
            return traced_call(self, args, params)
        if _autocast_state.dtype is not None:
            args = _autocast.autocast_args(args)
        if self.reads_rows and params.get("axis") == 0 and \
                getattr(args[0], "_reads_by_row", False):
            arrays = _row_read(args)
        else:
            arrays = [a._value if isinstance(a, Tensor) else to_array(a)
                      for a in args]
        if self.saves:
            out, saved = self.fwd(*arrays, **params)
        else:
            out, saved = self.fwd(*arrays, **params), None
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        result = Tensor(out)
        tapes = _state.tapes
        if tapes:
            for tape in tapes:
                tape.record(self, args, arrays, result, params, saved)
        return result

    def vjp(self, g, record):
        """Gradients of one recorded call, aligned with its inputs."""
        return self.vjp_arrays(g, record.out._value, record.arrays,
                               record.params, record.needs, record.saved)

    def vjp_arrays(self, g, out, arrays, params, needs, saved):
        """`vjp` on arrays: the output's gradient `g`, the output `out`,
        the input arrays, the call's parameters, which inputs need a
        gradient and what the forward saved."""
        if self._per_input is not None:
            return tuple(
                fn(g, out, *arrays, **params)
                if need and fn is not None else None
                for fn, need in zip(self._per_input, needs))
        if self._vjp is None:
            raise NotImplementedError(
                f"Primitive `{self.name}` has no gradient rule.")
        if self._vjp_kwargs:
            params = dict(params)
            if "needs" in self._vjp_kwargs:
                params["needs"] = needs
            if "saved" in self._vjp_kwargs:
                params["saved"] = saved
        return self._vjp(g, out, *arrays, **params)


def _row_read(args):
    """The arrays of `take(variable, ids, axis=0)`: the variable's with the
    rows `ids` up to date, and the ids."""
    ids = args[1]
    ids = ids._value if isinstance(ids, Tensor) else to_array(ids)
    return [args[0]._rows_source(ids), ids]


def primitive(fwd=None, *, name=None, saves=False):
    """Decorator turning a numpy function into a differentiable `Primitive`.

    Args:
        fwd: The numpy forward function (when used as `@primitive`).
        name: Optional name of the operation. Defaults to `fwd.__name__`.
        saves: Whether `fwd` returns `(output, saved)` (see `Primitive`).
            Defaults to `False`.

    Returns:
        A `Primitive`, or a decorator making one when called with keyword
        arguments only (`@primitive(saves=True)`).

    Example:

    >>> @primitive
    ... def cube(x):
    ...     return x ** 3
    >>> @cube.defvjp
    ... def cube_vjp(g, out, x):
    ...     return (g * 3 * x ** 2,)
    >>> x = kerasish.Variable(2.0)
    >>> with kerasish.GradientTape() as tape:
    ...     y = cube(x)
    >>> float(y), float(tape.gradient(y, x))
    (8.0, 12.0)
    """
    if fwd is None:
        return lambda f: Primitive(f, name=name, saves=saves)
    return Primitive(fwd, name=name, saves=saves)


def nondiff(fn):
    """Wrap a numpy function whose result has no gradient (argmax, ==, ...).

    The wrapper accepts tensors, returns a `Tensor` and records nothing on
    the tapes, so gradients never flow through it.

    Args:
        fn: A numpy function.

    Example:

    >>> argmax = nondiff(np.argmax)
    >>> int(argmax(kerasish.ops.convert_to_tensor([1.0, 5.0, 2.0])))
    1
    >>> x = kerasish.Variable([1.0, 2.0])
    >>> with kerasish.GradientTape() as tape:
    ...     y = argmax(x)
    >>> print(tape.gradient(y, x))
    None
    """
    def wrapper(*args, **params):
        if _trace_state.tracer is not None:
            return traced_call(wrapper, args, params)
        out = fn(*[to_array(a) for a in args], **params)
        return Tensor(out if type(out) is np.ndarray else np.asarray(out))
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn
    return wrapper
