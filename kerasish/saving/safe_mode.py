"""Safe mode: whether loading may run Python code stored in a file.

Only one thing in a config is code: a lambda (Keras's `__lambda__`
bytecode). Loading refuses it unless the caller opted out, with
`safe_mode=False` or `kerasish.config.enable_unsafe_deserialization()`.
As in Keras 3, an enclosing `SafeModeScope` (opened by every loader) takes
precedence over the `safe_mode` argument of nested calls, so an object
deep inside a model config cannot load more permissively than the model.
"""
import threading

_state = threading.local()


class SafeModeError(ValueError):
    """Loading would run code from the file; refused in safe mode.

    A `ValueError`, as the error Keras raises in the same case, so code
    catching that keeps working.

    Example:

    >>> layer = kerasish.layers.Lambda(lambda x: x * 2)
    >>> config = kerasish.saving.serialize_keras_object(layer)
    >>> try:
    ...     kerasish.saving.deserialize_keras_object(config)
    ... except kerasish.saving.SafeModeError as error:
    ...     print(isinstance(error, ValueError), "safe_mode=False" in
    ...           str(error))
    True True
    >>> restored = kerasish.saving.deserialize_keras_object(
    ...     config, safe_mode=False)
    >>> float(restored(np.ones((1,), "float32"))[0])
    2.0
    """


def _current():
    return getattr(_state, "value", None)


class SafeModeScope:
    """Run a block with safe mode set to `safe_mode` (None: unchanged).

    Args:
        safe_mode: `True` refuses lambdas, `False` allows them. Defaults to
            `True`.

    Example:

    >>> from kerasish.saving.safe_mode import SafeModeScope, in_safe_mode
    >>> with SafeModeScope(False):
    ...     in_safe_mode()
    False
    >>> in_safe_mode()
    True
    """

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        self._saved = _current()
        if self.safe_mode is not None:
            _state.value = bool(self.safe_mode)
        return self

    def __exit__(self, *exc):
        _state.value = self._saved


def in_safe_mode():
    """Whether loading currently refuses stored code (default `True`)."""
    value = _current()
    return True if value is None else value


def effective(safe_mode):
    """The safe mode a loader must apply given its `safe_mode` argument."""
    value = _current()
    if value is not None:
        return value
    return True if safe_mode is None else bool(safe_mode)


def enable_unsafe_deserialization():
    """Allow lambdas stored in files to load (like `safe_mode=False`).

    Only call this for files you trust: a lambda in a file is arbitrary
    Python code that runs when the model is used.

    Example:

    >>> import kerasish
    >>> from kerasish.saving.safe_mode import SafeModeScope, in_safe_mode
    >>> with SafeModeScope(True):
    ...     kerasish.config.enable_unsafe_deserialization()
    ...     in_safe_mode()
    False
    >>> in_safe_mode()
    True
    """
    _state.value = False


def refuse_code(what):
    """Raise the error every loader gives for code stored in a file."""
    raise SafeModeError(
        f"Requested the deserialization of {what}, which runs Python code "
        "stored in the file. This carries a risk of arbitrary code "
        "execution and is refused in safe mode. If you trust the source of "
        "the file, pass `safe_mode=False` to the loading function, or call "
        "`kerasish.config.enable_unsafe_deserialization()`.")
