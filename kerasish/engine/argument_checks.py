"""Checks of the loop arguments (`fit`, `evaluate`, `predict`), made
before any data is read or any step runs, so that a bad call fails at
once with the argument's name and value (not a numpy or `range` error
from deep inside the first epoch)."""
import numbers

import numpy as np


def _is_int(value):
    return isinstance(value, (int, np.integer)) and \
        not isinstance(value, (bool, np.bool_))


def check_int(name, value, minimum, allow_none=True):
    """`value` as an int >= `minimum` (or `None` if allowed)."""
    if value is None and allow_none:
        return None
    if not _is_int(value) or value < minimum:
        what = "a positive integer" if minimum == 1 else \
            f"an integer >= {minimum}"
        if allow_none:
            what += " or `None`"
        raise ValueError(f"`{name}` must be {what}. "
                         f"Received: {name}={value!r}")
    return int(value)


def check_validation_split(value):
    # None works in Keras (`if validation_split and ...`); 1.0 passes here
    # to get Keras's own "not sufficient to split" error from the split.
    if value is None:
        return
    if isinstance(value, (bool, np.bool_)) or \
            not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(
            "`validation_split` must be a float in the range [0, 1) (the "
            "fraction of the data to hold out for validation). "
            f"Received: validation_split={value!r}")


def check_validation_freq(freq):
    if isinstance(freq, bool) or not (
            isinstance(freq, int) and freq >= 1 or
            isinstance(freq, (list, tuple))):
        raise ValueError(
            "`validation_freq` should be an int >= 1 or a list of epoch "
            f"numbers. Received: validation_freq={freq}")


def check_shuffle(value):
    # Keras's adapters test `shuffle == "batch"`, then its truth value:
    # any other string would silently shuffle.
    if isinstance(value, str) and value != "batch":
        raise ValueError(
            "`shuffle` must be a boolean or the string 'batch'. "
            f"Received: shuffle={value!r}")


def describe(value):
    """A short description of `value`: arrays by shape, never in full."""
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return (f"{type(value).__name__}(shape={tuple(value.shape)}, "
                f"dtype={value.dtype})")
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe(v) for v in value[:8])
        if len(value) > 8:
            inner += f", ... ({len(value)} items)"
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}"
                               for k, v in list(value.items())[:8]) + "}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_validation_data(value):
    if isinstance(value, (list, tuple)) and not 1 <= len(value) <= 3:
        raise ValueError(
            "`validation_data` should be a tuple `(x_val, y_val)` or "
            "`(x_val, y_val, val_sample_weight)`, or a dataset. Received: "
            f"validation_data={describe(value)} "
            f"(a {type(value).__name__} of {len(value)} elements)")


def check_callbacks(callbacks):
    """Every entry must be a `Callback` (or a TF1 `SessionRunHook`)."""
    # The callbacks package sits above the engine: a callback is known by
    # its hooks (`set_model` and the epoch hooks every Callback has).
    if _is_callback(callbacks):
        return
    for index, cb in enumerate(_flat_callbacks(callbacks)):
        if not (_is_callback(cb) or
                callable(getattr(cb, "as_keras_callback", None))):
            raise ValueError(
                "`callbacks` must be a list of `keras.callbacks.Callback` "
                "instances (or TF1 `SessionRunHook`s); entry "
                f"{index} is of type {type(cb).__name__}. "
                f"Received: callbacks[{index}]={describe(cb)}")


def check_batch_args(batch_size, steps, callbacks):
    """The arguments `evaluate` and `predict` share with `fit`."""
    check_int("batch_size", batch_size, 1)
    check_int("steps", steps, 1)
    check_callbacks(callbacks)


def check_fit_arguments(args):
    """Check the arguments of one `fit` call (a dict of them)."""
    check_int("epochs", args["epochs"], 0, allow_none=False)
    check_int("initial_epoch", args["initial_epoch"], 0, allow_none=False)
    check_int("batch_size", args["batch_size"], 1)
    check_int("validation_batch_size", args["validation_batch_size"], 1)
    check_int("steps_per_epoch", args["steps_per_epoch"], 1)
    check_int("validation_steps", args["validation_steps"], 1)
    check_validation_split(args["validation_split"])
    check_shuffle(args["shuffle"])
    check_validation_freq(args["validation_freq"])
    check_validation_data(args["validation_data"])
    check_callbacks(args["callbacks"])


def _is_callback(obj):
    return all(callable(getattr(obj, name, None)) for name in
               ("set_model", "set_params", "on_epoch_begin", "on_epoch_end"))


def _flat_callbacks(callbacks):
    if callbacks is not None and not isinstance(callbacks, (list, tuple)):
        return [callbacks]
    out = []
    for cb in callbacks or []:
        if isinstance(cb, (list, tuple)):
            out.extend(_flat_callbacks(cb))
        elif cb is not None:
            out.append(cb)
    return out
