"""Variable autocasting for mixed precision (Keras's `AutocastScope`).

While a layer whose compute dtype differs from its variable dtype runs
(`"mixed_float16"`: float16 compute, float32 variables), the scope holds
the compute dtype, and every primitive casts the float variables it reads
to it. The cast is itself recorded on the tape, so gradients flow back to
the float32 variables (in float32). Variables created with
`autocast=False` (normalization statistics, float8 scales) are never cast.
"""
import threading


class _State(threading.local):
    dtype = None        # None: no autocasting on this thread


_state = _State()


def current_dtype():
    """The dtype variables are cast to right now, or None."""
    return _state.dtype


def autocast_args(args):
    """`args` with float variables cast to the current scope's dtype."""
    dtype = _state.dtype
    if not any(_wants_cast(a, dtype) for a in args):
        return args
    # lazy: a top-level import would close an import circle
    from kerasish.backend.shape import cast
    _state.dtype = None       # the cast primitive must not autocast again
    try:
        return tuple(cast(a, dtype=dtype) if _wants_cast(a, dtype) else a
                     for a in args)
    finally:
        _state.dtype = dtype


def autocast_value(x):
    """`x`, cast to the scope's dtype if it is a float variable to cast."""
    dtype = _state.dtype
    if dtype is None or not _wants_cast(x, dtype):
        return x
    return autocast_args((x,))[0]


def _wants_cast(a, dtype):
    return getattr(a, "_is_variable", False) and a._autocast and \
        a._value.dtype != dtype and _is_float(a._value.dtype)


def _is_float(np_dtype):
    return np_dtype.kind == "f" or np_dtype.name == "bfloat16"


class _Scope:
    __slots__ = ("dtype", "saved")

    def __init__(self, dtype):
        self.dtype = dtype

    def __enter__(self):
        self.saved = _state.dtype
        _state.dtype = self.dtype

    def __exit__(self, *exc):
        _state.dtype = self.saved


class _Keep:
    """The scope of a layer that changes nothing (the common case)."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


_KEEP = _Keep()


def scope(dtype):
    """Context manager: autocast float variables to `dtype` (None: off)."""
    return _Scope(dtype)


def layer_scope(layer):
    """The autocast scope a layer call runs in, following Keras's rules.

    Inside an autocasting caller, a layer that does not autocast (or
    computes in a non-float dtype) turns casting off, and one with another
    compute dtype switches to it; at the top level, a layer with mixed
    dtypes turns casting on.
    """
    current = _state.dtype
    compute = layer.compute_dtype
    if current is None:
        if compute == layer.variable_dtype:
            return _KEEP
        return _Scope(compute)
    if not layer.autocast or not _float_name(compute):
        return _Scope(None)
    if compute != current:
        return _Scope(compute)
    return _KEEP


def _float_name(name):
    return name in ("float16", "float32", "float64", "bfloat16")
