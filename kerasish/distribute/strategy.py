"""`Strategy`: selects the runtime models created in its scope use.

    with strategy.scope():
        model = ...
        model.compile(...)      # the model keeps the strategy's runtime
    model.fit(...)

The default strategy runs locally. Other strategies (a parameter server on
Ray) provide their own runtime; the loops do not change.
"""
import contextlib
import threading

from kerasish.distribute.runtime import LocalRuntime

_local = threading.local()


class Strategy:
    """A way of running steps, exposed as `runtime`.

    Example:

    >>> strategy = kerasish.distribute.Strategy()
    >>> with strategy.scope():
    ...     inside = kerasish.distribute.get_strategy() is strategy
    >>> inside, type(strategy.runtime).__name__
    (True, 'LocalRuntime')
    """

    def __init__(self, runtime=None):
        self.runtime = runtime or LocalRuntime()

    @contextlib.contextmanager
    def scope(self):
        """Models compiled inside the block use this strategy's runtime."""
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(self)
        try:
            yield self
        finally:
            stack.pop()

    @property
    def num_replicas_in_sync(self):
        return 1


_DEFAULT = Strategy()


def get_strategy():
    """The strategy whose scope is active (the local one by default).

    Example:

    >>> type(kerasish.distribute.get_strategy()).__name__
    'Strategy'
    """
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else _DEFAULT


def has_strategy():
    """Whether a strategy's `scope()` is active in this thread.

    Example:

    >>> kerasish.distribute.has_strategy()
    False
    """
    return bool(getattr(_local, "stack", None))


def current_runtime():
    """The runtime that runs training steps: the active strategy's.

    Example:

    >>> type(kerasish.distribute.current_runtime()).__name__
    'LocalRuntime'
    """
    return get_strategy().runtime
