"""Attribute tracking: layers, variables and seed generators assigned to a
layer (directly or inside lists, dicts and tuples, at any depth) become its
children.

Keras does the same, so that `self.blocks = [Dense(4), Dense(4)]` in a
subclassed layer contributes the blocks' weights to the layer's weights.
Lists and dicts are replaced by tracked versions: what is added later is
tracked, what is removed (`pop`, `remove`, `clear`, `del`) is untracked.
"""
from kerasish import tree


class TrackedList(list):
    """A list that reports added and removed items to its owner layer."""

    def __init__(self, items, owner):
        self._owner = owner
        super().__init__(wrap(item, owner) for item in items)

    def append(self, item):
        super().append(wrap(item, self._owner))

    def extend(self, items):
        super().extend(wrap(item, self._owner) for item in list(items))

    def __iadd__(self, items):
        self.extend(items)
        return self

    def insert(self, index, item):
        super().insert(index, wrap(item, self._owner))

    def __setitem__(self, index, item):
        old = self[index]
        if isinstance(index, slice):
            item = [wrap(x, self._owner) for x in item]
        else:
            item = wrap(item, self._owner)
        super().__setitem__(index, item)
        self._forget(old if isinstance(index, slice) else [old])

    def __delitem__(self, index):
        old = self[index]
        super().__delitem__(index)
        self._forget(old if isinstance(index, slice) else [old])

    def pop(self, index=-1):
        item = super().pop(index)
        self._forget([item])
        return item

    def remove(self, item):
        super().remove(item)
        self._forget([item])

    def clear(self):
        old = list(self)
        super().clear()
        self._forget(old)

    def _forget(self, items):
        for item in items:
            untrack(item, self._owner)


class TrackedDict(dict):
    """A dict that reports stored and removed values to its owner layer."""

    def __init__(self, items, owner):
        self._owner = owner
        super().__init__((k, wrap(v, owner)) for k, v in dict(items).items())

    def __setitem__(self, key, value):
        old = self.get(key)
        super().__setitem__(key, wrap(value, self._owner))
        if old is not None and old is not value:
            untrack(old, self._owner)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __delitem__(self, key):
        old = self[key]
        super().__delitem__(key)
        untrack(old, self._owner)

    def pop(self, key, *default):
        missing = key not in self
        value = super().pop(key, *default)
        if not missing:
            untrack(value, self._owner)
        return value

    def popitem(self):
        key, value = super().popitem()
        untrack(value, self._owner)
        return key, value

    def clear(self):
        old = list(self.values())
        super().clear()
        for value in old:
            untrack(value, self._owner)


def wrap(value, owner):
    """Track `value` (or, in a container, everything inside it) on `owner`;
    plain lists and dicts come back tracked so later changes are seen."""
    kind = type(value)
    if kind in (TrackedList, TrackedDict) and value._owner is owner:
        return value
    if kind in (list, TrackedList):
        return TrackedList(value, owner)
    if kind in (dict, TrackedDict):
        return TrackedDict(value, owner)
    if kind is tuple:
        for item in value:
            wrap(item, owner)
        return value
    owner._track(value)
    return value


def untrack(value, owner):
    """Undo `wrap`: `value` (or everything inside it) leaves `owner`."""
    if isinstance(value, (list, tuple)):
        for item in value:
            untrack(item, owner)
    elif isinstance(value, dict):
        for item in value.values():
            untrack(item, owner)
    else:
        owner._untrack(value)


tree._register_tracked(TrackedList, TrackedDict)
