"""Process-wide switches of `keras.config` that are not numeric settings.

Interactive logging, traceback filtering, flash attention, the debugging
caps on epochs and steps (`KERAS_MAX_EPOCHS`, `KERAS_MAX_STEPS_PER_EPOCH`),
`set_backend` and `is_nnx_enabled`. This module imports nothing from
kerasish so the training loops and progress output can consult it cheaply.
"""
import os
import sys
import warnings

_DEFAULTS = {"interactive_logging": True, "traceback_filtering": True,
             "flash_attention": None,
             "distribution": None}  # keras.distribution's global setting
_STATE = dict(_DEFAULTS)


def reset_switches():
    """Back to the defaults (`clear_session` does this, as in Keras)."""
    _STATE.update(_DEFAULTS)


def _env_int(name):
    value = os.environ.get(name)
    return int(value) if value else None


_CAPS = {"max_epochs": _env_int("KERAS_MAX_EPOCHS"),
         "max_steps_per_epoch": _env_int("KERAS_MAX_STEPS_PER_EPOCH")}


# -- interactive logging -------------------------------------------------------
def enable_interactive_logging():
    """Send progress bars, summaries and callback messages to stdout.

    This is the default: the best experience in a shell or a notebook.

    Example:

    >>> kerasish.config.enable_interactive_logging()
    >>> kerasish.config.is_interactive_logging_enabled()
    True
    """
    _STATE["interactive_logging"] = True


def disable_interactive_logging():
    """Send progress output to Python `logging` (logger `"kerasish"`).

    Keras sends it to `absl.logging`; kerasish uses the standard library's
    logger named `"kerasish"` at level INFO, so a server job can route or
    silence it with the usual `logging` configuration. Progress bars turn
    into one line per epoch.

    Example:

    >>> kerasish.config.disable_interactive_logging()
    >>> kerasish.config.is_interactive_logging_enabled()
    False
    >>> kerasish.config.enable_interactive_logging()
    """
    _STATE["interactive_logging"] = False


def is_interactive_logging_enabled():
    """Whether progress output goes to stdout (`True`) or to `logging`.

    Returns:
        Boolean, `True` unless `disable_interactive_logging()` was called.

    Example:

    >>> kerasish.config.is_interactive_logging_enabled()
    True
    """
    return _STATE["interactive_logging"]


def print_msg(message, line_break=True):
    """Write `message` to stdout, or log it when interactive logging is off.

    Args:
        message: The text (converted with `str`).
        line_break: Whether to end the message with a newline (stdout only;
            a log record is always one record). Defaults to `True`.

    Example:

    >>> print_msg("hello")
    hello
    """
    message = str(message)
    if not is_interactive_logging_enabled():
        # lazy: kept out of `import kerasish`
        import logging          # on first use: it costs `import kerasish`
        logging.getLogger("kerasish").info(message)
        return
    text = f"{message}\n" if line_break else message
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        sys.stdout.write(text.encode(encoding, errors="ignore")
                         .decode(encoding))
    sys.stdout.flush()


# -- traceback filtering -------------------------------------------------------
def enable_traceback_filtering():
    """Turn traceback filtering on (the default).

    While it is on, an error raised inside a layer's `call` or `build` is
    re-raised (same type, same traceback) with the layer's class and the
    arguments it received, as Keras does ("Exception encountered when
    calling Dense.call() ..."). Keras also hides its internal frames;
    kerasish's tracebacks are short either way and are left whole.

    Example:

    >>> kerasish.config.enable_traceback_filtering()
    >>> kerasish.config.is_traceback_filtering_enabled()
    True
    """
    _STATE["traceback_filtering"] = True


def disable_traceback_filtering():
    """Turn traceback filtering off: errors from inside layers are raised
    as they are (see `enable_traceback_filtering`).

    Example:

    >>> kerasish.config.disable_traceback_filtering()
    >>> kerasish.config.is_traceback_filtering_enabled()
    False
    >>> kerasish.config.enable_traceback_filtering()
    """
    _STATE["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    """Whether traceback filtering is on (default `True`).

    Example:

    >>> kerasish.config.is_traceback_filtering_enabled()
    True
    """
    return _STATE["traceback_filtering"]


# -- flash attention -----------------------------------------------------------
def enable_flash_attention():
    """Let attention layers use flash attention when they can.

    As in Keras, this resets the switch to its default, `None` ("use it if
    the backend supports it"). The numpy runtime has no flash kernel, so
    `None` means the plain computation; only an explicit
    `flash_attention=True` on a layer raises, as Keras's numpy backend does.

    Example:

    >>> kerasish.config.enable_flash_attention()
    >>> print(kerasish.config.is_flash_attention_enabled())
    None
    """
    _STATE["flash_attention"] = None


def disable_flash_attention():
    """Forbid flash attention in attention layers created afterwards.

    Example:

    >>> kerasish.config.disable_flash_attention()
    >>> kerasish.config.is_flash_attention_enabled()
    False
    >>> kerasish.config.enable_flash_attention()
    """
    _STATE["flash_attention"] = False


def is_flash_attention_enabled():
    """`False` once disabled; otherwise `None` (Keras's "if possible").

    Example:

    >>> print(kerasish.config.is_flash_attention_enabled())
    None
    """
    return _STATE["flash_attention"]


# -- debugging caps on fit/evaluate/predict ----------------------------------
def set_max_epochs(max_epochs):
    """Cap the number of epochs of every `fit` call (for quick debug runs).

    Also read from the `KERAS_MAX_EPOCHS` environment variable at import.
    `fit` warns `"Limiting epochs to N"` when the cap applies.

    Args:
        max_epochs: Integer limit, or `None` for no limit.

    Example:

    >>> kerasish.config.set_max_epochs(2)
    >>> kerasish.config.max_epochs()
    2
    >>> kerasish.config.set_max_epochs(None)
    """
    _CAPS["max_epochs"] = max_epochs


def max_epochs():
    """The epoch cap set by `set_max_epochs` (or `KERAS_MAX_EPOCHS`), or None.

    Example:

    >>> print(kerasish.config.max_epochs())
    None
    """
    return _CAPS["max_epochs"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Cap the steps of each epoch of `fit`, and of `evaluate`/`predict`.

    Also read from `KERAS_MAX_STEPS_PER_EPOCH` at import. The loops warn
    `"Limiting steps_per_epoch to N"` when the cap applies; a cap larger
    than a full pass over sized data changes nothing.

    Args:
        max_steps_per_epoch: Integer limit, or `None` for no limit.

    Example:

    >>> kerasish.config.set_max_steps_per_epoch(3)
    >>> kerasish.config.max_steps_per_epoch()
    3
    >>> kerasish.config.set_max_steps_per_epoch(None)
    """
    _CAPS["max_steps_per_epoch"] = max_steps_per_epoch


def max_steps_per_epoch():
    """The steps cap set by `set_max_steps_per_epoch`, or None.

    Example:

    >>> print(kerasish.config.max_steps_per_epoch())
    None
    """
    return _CAPS["max_steps_per_epoch"]


def capped_epochs(epochs):
    """`epochs`, lowered to the cap (with Keras's warning) if one is set."""
    cap = max_epochs()
    if cap and cap < epochs:
        warnings.warn(f"Limiting epochs to {cap}", stacklevel=3)
        return cap
    return epochs


def capped_steps(steps, num_batches=None):
    """`steps` (None: a full pass), lowered to the steps cap if one is set.

    A cap at or above the `num_batches` of a full pass leaves the pass
    alone: Keras would set `steps_per_epoch` to the cap there, warn, and
    still stop each epoch when the data runs out, whereas kerasish's
    `steps_per_epoch` goes on into the next pass, so the cap would lengthen
    the epochs it is meant to shorten.
    """
    cap = max_steps_per_epoch()
    if not steps and num_batches and cap and cap >= num_batches:
        return steps
    if cap and (not steps or cap < steps):
        warnings.warn(f"Limiting steps_per_epoch to {cap}", stacklevel=3)
        return cap
    return steps


# -- backend ------------------------------------------------------------------
_KERAS_BACKENDS = ("tensorflow", "jax", "torch", "numpy", "openvino")


def set_backend(backend):
    """Select the backend; kerasish runs on `"numpy"` only.

    Keras sets `KERAS_BACKEND` and re-imports itself. kerasish has one
    runtime, so `"numpy"` is accepted (and recorded in `KERAS_BACKEND`,
    with nothing to reload); the other Keras backends and unknown names
    raise a `ValueError`.

    Args:
        backend: Backend name.

    Example:

    >>> kerasish.config.set_backend("numpy")
    >>> kerasish.config.backend()
    'numpy'
    """
    if backend == "numpy":
        os.environ["KERAS_BACKEND"] = backend
        return
    if backend in _KERAS_BACKENDS:
        raise ValueError(
            f"kerasish runs on its numpy backend only; the Keras backend "
            f"'{backend}' is not available. Use set_backend('numpy'), or "
            f"run the script with Keras itself. Received: backend={backend}")
    raise ValueError(f"Unable to import backend : {backend}")


def is_nnx_enabled():
    """Whether Flax NNX integration is on: always `False` in kerasish.

    Example:

    >>> kerasish.config.is_nnx_enabled()
    False
    """
    return False
