"""numpy-style ops (`keras.ops.numpy`), differentiable where Keras's are.

Each function converts its inputs, applies Keras's type promotion (an int
operand meeting a float one becomes that float type) and calls a backend
primitive. Composite ops (var, std, ...) are built from primitives and get
their gradients from them.
"""
import builtins

import numpy as np

from kerasish.backend import config
from kerasish.backend import dtypes as dtypes_module
from kerasish.backend import linalg as L
from kerasish.backend import math as M
from kerasish.backend import reduction as R
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops.symbolic import keras_op

_PY_SCALARS = (int, float, bool)


def _kind(x):
    if isinstance(x, Tensor) or isinstance(x, np.ndarray):
        return x.dtype.kind
    return None


def _promote(a, b):
    """Keras's promotion for a binary op: ints meeting floats become floats."""
    ka, kb = _kind(a), _kind(b)
    if ka is None and kb is None:
        a = convert_to_tensor(a)
        ka = a.dtype.kind
    if ka == kb or ka is None and kb == "f" or kb is None and ka == "f":
        return a, b
    if ka and ka in "iub" and (kb == "f" or kb is None and
                               isinstance(b, float)):
        return cast(a, b.dtype if kb == "f" else config.floatx()), b
    if kb and kb in "iub" and (ka == "f" or ka is None and
                               isinstance(a, float)):
        return a, cast(b, a.dtype if ka == "f" else config.floatx())
    if ka is None and isinstance(a, (list, tuple)):
        return _promote(convert_to_tensor(a), b)
    if kb is None and isinstance(b, (list, tuple)):
        return _promote(a, convert_to_tensor(b))
    return a, b


def _binary(prim):
    def op(x1, x2):
        x1, x2 = _promote(x1, x2)
        return prim(x1, x2)
    op.__name__ = getattr(prim, "name", None) or prim.__name__
    op.__doc__ = f"Elementwise `{op.__name__}` with broadcasting."
    return keras_op(op)


add = _binary(M.add)
subtract = _binary(M.subtract)
multiply = _binary(M.multiply)
maximum = _binary(M.maximum)
minimum = _binary(M.minimum)
floor_divide = _binary(M.floor_divide)
mod = _binary(M.mod)
equal = _binary(M.equal)
not_equal = _binary(M.not_equal)
less = _binary(M.less)
less_equal = _binary(M.less_equal)
greater = _binary(M.greater)
greater_equal = _binary(M.greater_equal)
logical_and = keras_op(M.logical_and)
logical_or = keras_op(M.logical_or)
logical_xor = keras_op(M.logical_xor)


@keras_op
def divide(x1, x2):
    """Elementwise true division; integer inputs give floats."""
    x1, x2 = _promote(x1, x2)
    if _kind(x1) in ("i", "u", "b") and _kind(x2) in ("i", "u", "b", None):
        x1 = cast(x1, config.floatx())
        if _kind(x2) is not None:
            x2 = cast(x2, config.floatx())
    return M.divide(x1, x2)


true_divide = divide


@keras_op
def divide_no_nan(x1, x2):
    """`x1 / x2`, with 0 where `x2 == 0`."""
    x2 = convert_to_tensor(x2)
    safe = where(equal(x2, 0), 1, x2)
    return where(equal(x2, 0), 0, divide(x1, safe))


@keras_op
def power(x1, x2):
    x1, x2 = _promote(x1, x2)
    return M.power(x1, x2)


def _unary(prim, float_only=True):
    def op(x):
        if float_only and _kind(x) in (None, "i", "u", "b"):
            x = convert_to_tensor(x)
            if x.dtype.kind != "f":
                x = cast(x, config.floatx())
        return prim(x)
    op.__name__ = prim.name if hasattr(prim, "name") else prim.__name__
    op.__doc__ = f"Elementwise `{op.__name__}`."
    return keras_op(op)


negative = _unary(M.negative, float_only=False)
square = _unary(M.square, float_only=False)
absolute = _unary(M.absolute, float_only=False)
abs = absolute
exp = _unary(M.exp)
expm1 = _unary(M.expm1)
log = _unary(M.log)
log1p = _unary(M.log1p)
sqrt = _unary(M.sqrt)
tanh = _unary(M.tanh)
sin = _unary(M.sin)
cos = _unary(M.cos)
sign = keras_op(M.sign)
floor = keras_op(M.floor)
ceil = keras_op(M.ceil)
logical_not = keras_op(M.logical_not)
isnan = keras_op(M.isnan)
isinf = keras_op(M.isinf)
isfinite = keras_op(M.isfinite)


@keras_op
def round(x, decimals=0):
    return M.round(x, decimals=decimals)


@keras_op
def reciprocal(x):
    return divide(1.0, x)


@keras_op
def log2(x):
    return divide(log(x), np.log(2.0))


@keras_op
def log10(x):
    return divide(log(x), np.log(10.0))


@keras_op
def exp2(x):
    return exp(multiply(x, np.log(2.0)))


@keras_op
def logaddexp(x1, x2):
    return R.logsumexp(stack([x1, x2]), axis=0)


@keras_op
def tan(x):
    return divide(sin(x), cos(x))


@keras_op
def sinh(x):
    return multiply(subtract(exp(x), exp(negative(x))), 0.5)


@keras_op
def cosh(x):
    return multiply(add(exp(x), exp(negative(x))), 0.5)


@keras_op
def arctan(x):
    return Tensor(np.arctan(to_array(x)))


@keras_op
def arctan2(x1, x2):
    return Tensor(np.arctan2(to_array(x1), to_array(x2)))


@keras_op
def clip(x, x_min, x_max):
    """Clip values to `[x_min, x_max]`."""
    return M.clip(x, x_min=to_array(x_min), x_max=to_array(x_max))


@keras_op
def where(condition, x1=None, x2=None):
    """Choose `x1` where `condition` holds, else `x2`."""
    if x1 is None and x2 is None:
        return nonzero(condition)
    x1, x2 = _promote(x1, x2)
    return M.where(condition, x1, x2)


@keras_op
def nonzero(x):
    return tuple(Tensor(i.astype("int32")) for i in np.nonzero(to_array(x)))


# -- reductions -----------------------------------------------------------------
def _reduction(prim, promote_int=False):
    def op(x, axis=None, keepdims=False):
        if promote_int and _kind(x) in (None, "i", "u", "b"):
            x = convert_to_tensor(x)
            if x.dtype.kind != "f":
                x = cast(x, config.floatx())
        return prim(x, axis=_axis(axis), keepdims=keepdims)
    op.__name__ = prim.name
    op.__doc__ = f"`{prim.name}` over `axis` (all axes when None)."
    return keras_op(op)


def _axis(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


sum = _reduction(R.sum)
mean = _reduction(R.mean, promote_int=True)
max = _reduction(R.max)
min = _reduction(R.min)
amax = max
amin = min
prod = _reduction(R.prod)


@keras_op
def argmax(x, axis=None, keepdims=False):
    return cast(R.argmax(x, axis=axis, keepdims=keepdims), "int32")


@keras_op
def argmin(x, axis=None, keepdims=False):
    return cast(R.argmin(x, axis=axis, keepdims=keepdims), "int32")


@keras_op
def any(x, axis=None, keepdims=False):
    return R.any(x, axis=_axis(axis), keepdims=keepdims)


@keras_op
def all(x, axis=None, keepdims=False):
    return R.all(x, axis=_axis(axis), keepdims=keepdims)


@keras_op
def var(x, axis=None, keepdims=False):
    """Variance (population) over `axis`."""
    x = convert_to_tensor(x)
    if x.dtype.kind != "f":
        x = cast(x, config.floatx())
    centered = subtract(x, mean(x, axis=axis, keepdims=True))
    return mean(square(centered), axis=axis, keepdims=keepdims)


@keras_op
def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis=axis, keepdims=keepdims))


@keras_op
def average(x, axis=None, weights=None):
    if weights is None:
        return mean(x, axis=axis)
    weights = convert_to_tensor(weights)
    x = convert_to_tensor(x)
    if axis is not None and weights.ndim == 1 and x.ndim > 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        weights = reshape(weights, shape)
    return divide(sum(multiply(x, weights), axis=axis),
                  sum(multiply(ones_like(x), weights), axis=axis))


@keras_op
def cumsum(x, axis=None, dtype=None):
    x = convert_to_tensor(x) if dtype is None else cast(x, dtype)
    if axis is None:
        return R.cumsum(reshape(x, (-1,)), axis=0)
    return R.cumsum(x, axis=axis)


@keras_op
def count_nonzero(x, axis=None):
    return Tensor(np.asarray(np.count_nonzero(to_array(x), axis=axis),
                             dtype="int32"))


# -- shapes and indexing --------------------------------------------------------
@keras_op
def reshape(x, newshape):
    """Reshape `x`; one dimension may be -1."""
    if isinstance(newshape, int):
        newshape = (newshape,)
    return S.reshape(x, shape=tuple(-1 if d is None else int(d)
                                    for d in newshape))


@keras_op
def transpose(x, axes=None):
    return S.transpose(x, axes=None if axes is None else tuple(axes))


@keras_op
def swapaxes(x, axis1, axis2):
    n = len(x.shape)
    axes = list(range(n))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return transpose(x, axes)


@keras_op
def moveaxis(x, source, destination):
    return S.moveaxis(x, source=source, destination=destination)


@keras_op
def expand_dims(x, axis):
    x = convert_to_tensor(x)
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    ndim = x.ndim + len(axes)
    axes = sorted(a % ndim for a in axes)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return S.reshape(x, shape=tuple(shape))


@keras_op
def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        shape = tuple(n for n in x.shape if n != 1)
    else:
        axes = axis if isinstance(axis, (list, tuple)) else (axis,)
        axes = {a % x.ndim for a in axes}
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(
                    "Cannot squeeze an axis whose size is not 1. "
                    f"Received: axis={axis}, shape={x.shape}")
        shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return S.reshape(x, shape=shape)


@keras_op
def ravel(x):
    return reshape(x, (-1,))


@keras_op
def broadcast_to(x, shape):
    return S.broadcast_to(x, shape=tuple(shape))


@keras_op
def concatenate(xs, axis=0):
    """Join tensors along an existing axis."""
    xs = list(xs)
    kinds = {_kind(x) for x in xs}
    if "f" in kinds and len(kinds) > 1:
        target = np.result_type(*[x.dtype for x in xs if _kind(x) == "f"])
        xs = [x if _kind(x) == "f" else cast(x, target) for x in xs]
    return S.concatenate(*xs, axis=axis)


@keras_op
def stack(x, axis=0):
    """Join tensors along a new axis."""
    return S.stack(*list(x), axis=axis)


def hstack(xs):
    return concatenate(xs, axis=1 if len(xs[0].shape) > 1 else 0)


def vstack(xs):
    return concatenate([expand_dims(x, 0) if len(x.shape) == 1 else x
                        for x in xs], axis=0)


@keras_op
def split(x, indices_or_sections, axis=0):
    """Split `x` into pieces along `axis` (equal sections or at indices)."""
    x = convert_to_tensor(x)
    n = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError(
                f"Cannot split an axis of size {n} into "
                f"{indices_or_sections} equal sections.")
        step = n // indices_or_sections
        bounds = list(range(0, n + 1, step))
    else:
        bounds = [0] + list(indices_or_sections) + [n]
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key = [builtins.slice(None)] * x.ndim
        key[axis] = builtins.slice(lo, hi)
        pieces.append(S.getitem(x, key=tuple(key)))
    return pieces


def _normalize_key(key):
    if isinstance(key, tuple):
        return tuple(_normalize_key(k) for k in key)
    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, list):
        return np.asarray([to_array(k) for k in key])
    return key


@keras_op
def getitem(x, key):
    return S.getitem(x, key=_normalize_key(key))


def _scatter_like(x, key, updates):
    """`x` with `x[key]` replaced by `updates`, differentiable in both."""
    x = convert_to_tensor(x)
    keep = np.ones(x.shape, dtype=bool)
    keep[key] = False
    return where(keep, x, _place(updates, x.shape, key))


def _place(updates, shape, key):
    """`updates` written into zeros of `shape` at `key` (differentiable)."""
    updates = convert_to_tensor(updates)
    count = int(np.prod(shape))
    positions = np.arange(count).reshape(shape)[key]
    flat = reshape(broadcast_to(updates, positions.shape), (-1,))
    index = np.full(count, positions.size, dtype=np.int64)
    index[positions.ravel()] = np.arange(positions.size)
    padded = concatenate([flat, zeros((1,), flat.dtype)])
    return reshape(S.take(padded, index, axis=0), shape)


@keras_op
def take(x, indices, axis=None):
    """Gather entries of `x` at `indices` along `axis` (flattened if None)."""
    indices = np.asarray(to_array(indices))
    if indices.dtype.kind not in "iu":
        indices = indices.astype("int64")
    return S.take(x, indices, axis=axis)


@keras_op
def take_along_axis(x, indices, axis=None):
    indices = np.asarray(to_array(indices)).astype("int64", copy=False)
    if axis is None:
        return S.take_along_axis(reshape(x, (-1,)), indices.ravel(), axis=0)
    return S.take_along_axis(x, indices, axis=axis)


@keras_op
def pad(x, pad_width, mode="constant", constant_values=None):
    x = convert_to_tensor(x)
    width = np.broadcast_to(np.asarray(pad_width), (x.ndim, 2))
    width = tuple((int(a), int(b)) for a, b in width)
    kwargs = {}
    if mode == "constant":
        kwargs["constant_values"] = 0 if constant_values is None \
            else constant_values
    elif constant_values is not None:
        raise ValueError(
            "Argument `constant_values` can only be provided when "
            f"`mode == 'constant'`. Received: mode={mode}")
    return S.pad(x, pad_width=width, mode=mode, **kwargs)


@keras_op
def tile(x, repeats):
    reps = (repeats,) if isinstance(repeats, int) else tuple(repeats)
    return S.tile(x, repeats=reps)


@keras_op
def repeat(x, repeats, axis=None):
    return S.repeat(x, repeats=to_array(repeats), axis=axis)


@keras_op
def flip(x, axis=None):
    return S.flip(x, axis=axis)


@keras_op
def roll(x, shift, axis=None):
    return S.roll(x, shift=shift, axis=axis)


@keras_op
def tril(x, k=0):
    x = convert_to_tensor(x)
    mask = np.tri(*x.shape[-2:], k=k, dtype=bool)
    return where(mask, x, zeros((), x.dtype))


@keras_op
def triu(x, k=0):
    x = convert_to_tensor(x)
    mask = ~np.tri(*x.shape[-2:], k=k - 1, dtype=bool)
    return where(mask, x, zeros((), x.dtype))


# -- products -------------------------------------------------------------------
@keras_op
def matmul(x1, x2):
    """Matrix product with numpy's broadcasting rules."""
    x1, x2 = _promote(x1, x2)
    return L.matmul(x1, x2)


@keras_op
def dot(x1, x2):
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return multiply(x1, x2)
    if x2.ndim <= 2:
        return matmul(x1, x2)
    return tensordot(x1, x2, axes=([x1.ndim - 1], [x2.ndim - 2]))


@keras_op
def tensordot(x1, x2, axes=2):
    """Sum products over the given axes (numpy's `tensordot`)."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if isinstance(axes, int):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = axes
        a1 = [a1] if isinstance(a1, int) else [a % x1.ndim for a in a1]
        a2 = [a2] if isinstance(a2, int) else [a % x2.ndim for a in a2]
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = int(np.prod([x1.shape[i] for i in a1]))
    left = reshape(transpose(x1, free1 + a1), (-1, k))
    right = reshape(transpose(x2, a2 + free2), (k, -1))
    out_shape = [x1.shape[i] for i in free1] + [x2.shape[i] for i in free2]
    return reshape(matmul(left, right), out_shape)


@keras_op
def outer(x1, x2):
    return multiply(reshape(x1, (-1, 1)), reshape(x2, (1, -1)))


@keras_op
def vdot(x1, x2):
    return sum(multiply(ravel(x1), ravel(x2)))


@keras_op
def inner(x1, x2):
    return tensordot(x1, x2, axes=([-1], [-1]))


# -- creation (constants) -----------------------------------------------------
def _dtype(dtype):
    return dtypes_module.standardize_dtype(dtype)


def zeros(shape, dtype=None):
    return Tensor(np.zeros(shape, _dtype(dtype)))


def ones(shape, dtype=None):
    return Tensor(np.ones(shape, _dtype(dtype)))


def full(shape, fill_value, dtype=None):
    return Tensor(np.full(shape, to_array(fill_value), _dtype(dtype)))


def zeros_like(x, dtype=None):
    return Tensor(np.zeros(np.shape(to_array(x)), dtype or x.dtype))


def ones_like(x, dtype=None):
    return Tensor(np.ones(np.shape(to_array(x)), dtype or x.dtype))


def full_like(x, fill_value, dtype=None):
    return Tensor(np.full(np.shape(to_array(x)), to_array(fill_value),
                          dtype or x.dtype))


def eye(N, M=None, k=0, dtype=None):
    return Tensor(np.eye(N, M, k, dtype=_dtype(dtype)))


identity = eye


def arange(start, stop=None, step=1, dtype=None):
    if dtype is None:
        is_int = builtins.all(isinstance(v, (int, np.integer))
                              for v in (start, stop, step) if v is not None)
        dtype = "int32" if is_int else config.floatx()
    if stop is None:
        start, stop = 0, start
    return Tensor(np.arange(start, stop, step, dtype=_dtype(dtype)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0):
    out = np.linspace(start, stop, num, endpoint=endpoint, retstep=retstep,
                      axis=axis)
    if retstep:
        return Tensor(out[0].astype(_dtype(dtype))), out[1]
    return Tensor(out.astype(_dtype(dtype)))


def tri(N, M=None, k=0, dtype=None):
    return Tensor(np.tri(N, M, k, dtype=_dtype(dtype)))


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def copy(x):
    return S.identity(x)


# -- misc non-differentiable -------------------------------------------------------
@keras_op
def argsort(x, axis=-1):
    return Tensor(np.argsort(to_array(x), axis=axis, kind="stable")
                  .astype("int32"))


@keras_op
def sort(x, axis=-1):
    x = convert_to_tensor(x)
    order = np.argsort(x._value, axis=axis, kind="stable")
    return S.take_along_axis(x, order, axis=axis)


@keras_op
def bincount(x, weights=None, minlength=0, sparse=False):
    w = None if weights is None else to_array(weights)
    out = np.bincount(np.asarray(to_array(x)).ravel(), w, minlength)
    return Tensor(out.astype("int32" if w is None else np.asarray(w).dtype))


@keras_op
def digitize(x, bins):
    return Tensor(np.digitize(to_array(x), to_array(bins)).astype("int32"))


@keras_op
def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return Tensor(np.isclose(to_array(x1), to_array(x2), rtol, atol,
                             equal_nan))


@keras_op
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = convert_to_tensor(x)
    clean = np.nan_to_num(x._value, nan=nan, posinf=posinf, neginf=neginf)
    return where(np.isfinite(x._value), x, Tensor(clean.astype(x.dtype)))


@keras_op
def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    n = builtins.min(x.shape[axis1], x.shape[axis2])
    return sum(diagonal(x, offset, axis1, axis2), axis=-1) if n else \
        zeros(())


@keras_op
def diagonal(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    positions = np.arange(x.size).reshape(x.shape)
    positions = np.diagonal(positions, offset, axis1, axis2)
    return reshape(take(reshape(x, (-1,)), positions.ravel()),
                   positions.shape)


@keras_op
def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim == 2:
        return diagonal(x, k)
    n = x.shape[0] + builtins.abs(k)
    return _place(x, (n, n), np.where(np.eye(n, k=k, dtype=bool)))
