"""Errors raised inside a layer's `call` or `build` name the layer and its
arguments (Keras 3's `inject_argument_info_in_traceback`).

A shape mistake often surfaces deep inside numpy ("matmul: Input operand 1
has a mismatch ..."). Keras re-raises such an error, with its type kept, as

    Exception encountered when calling Dense.call().

    <the original message>

    Arguments received by Dense.call():
      • inputs=np.ndarray(shape=(2, 4), dtype=float32)

Only the innermost failing call adds this, so a model's error names the
layer that failed, not each enclosing one. kerasish adds the same for
`build` (the shapes a layer was built for). Errors of other types than
Python's and numpy's own are left alone: their classes may carry state a
re-created instance would lose. `kerasish.config.disable_traceback_filtering()`
turns the rewriting off, as in Keras.
"""
import inspect

import numpy as np

from kerasish import tree
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.backend.common.global_state import (
    is_traceback_filtering_enabled)

_MARK = "_keras_call_info_injected"


def with_call_info(error, owner, method, fn, args, kwargs):
    """`error` re-created with `owner.method()`'s arguments in its message,
    or None when it is to be re-raised as it is."""
    if getattr(error, _MARK, False) or not _rewritable(error) or \
            not is_traceback_filtering_enabled():
        return None
    try:
        signature = inspect.signature(fn)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    lines = []
    for name, param in signature.parameters.items():
        if name in bound.arguments:
            value = _argument_text(bound.arguments[name])
        elif param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        else:
            value = repr(param.default)
        lines.append(f"  \u2022 {name}={value}")
    where = f"{type(owner).__name__}.{method}()"
    message = (f"Exception encountered when calling {where}.\n\n"
               f"\x1b[1m{error}\x1b[0m\n\n"
               f"Arguments received by {where}:\n" + "\n".join(lines))
    try:
        new = type(error)(message)
    except Exception:   # noqa: BLE001 - a class that takes other arguments
        return None
    setattr(new, _MARK, True)
    return new.with_traceback(error.__traceback__)


def describe(value):
    """A short text for one array: its shape and dtype."""
    if isinstance(value, Tensor):
        return f"Tensor(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, np.ndarray):
        return f"np.ndarray(shape={value.shape}, dtype={value.dtype})"
    return repr(value)


class _Shown(str):
    """A text that prints bare inside a container's repr."""

    def __repr__(self):
        return str(self)


def _argument_text(value):
    """Arrays as `describe` puts them, alone or inside lists and dicts;
    everything else as its repr."""
    if not any(_is_array(x) for x in tree.flatten(value)):
        return repr(value)
    shown = tree.map_structure(
        lambda x: _Shown(describe(x)) if _is_array(x) else x, value)
    return repr(shown)


def _is_array(x):
    return isinstance(x, (Tensor, np.ndarray, KerasTensor))


def _rewritable(error):
    module = type(error).__module__
    return module == "builtins" or module.split(".")[0] == "numpy"
