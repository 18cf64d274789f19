"""Automatic object names (`dense`, `dense_1`, ...) and name scopes.

Names follow Keras 3: the snake_case class name, made unique by a global
per-prefix counter that `kerasish.backend.clear_session()` resets. The name
scope stack gives variables their stable `path` (`"sequential/dense/kernel"`).
"""
import collections
import re
import threading

_uids = collections.defaultdict(int)
_scope = threading.local()


def to_snake_case(name):
    """`"BatchNormalization"` -> `"batch_normalization"`,
    `"Conv2D"` -> `"conv2d"`.
    """
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def uniquify(name):
    """Return `name` the first time, then `name_1`, `name_2`, ..."""
    unique = f"{name}_{_uids[name]}" if name in _uids else name
    _uids[name] += 1
    return unique


def auto_name(prefix):
    return uniquify(to_snake_case(prefix))


def get_uid(prefix=""):
    """Increment and return the counter for `prefix` (1 on first call)."""
    _uids[prefix] += 1
    return _uids[prefix]


def reset_uids():
    _uids.clear()


def _stack():
    stack = getattr(_scope, "stack", None)
    if stack is None:
        stack = _scope.stack = []
    return stack


class name_scope:
    """Push `name` on the scope stack used to build variable paths."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        stack = _stack()
        # Re-entering the scope of the innermost layer adds nothing.
        self._pushed = not stack or stack[-1] != self.name
        if self._pushed:
            stack.append(self.name)
        return self

    def __exit__(self, *exc):
        if self._pushed:
            _stack().pop()


def reset_name_scopes():
    _stack().clear()


def current_path():
    # Entries are names, or public `keras.name_scope` objects whose
    # `override_parent` replaces the path opened so far.
    parts = []
    for entry in _stack():
        override = getattr(entry, "override_parent", None)
        if override is not None:
            parts = [p for p in override.split("/") if p]
        parts.append(getattr(entry, "name", entry))
    return "/".join(parts)
