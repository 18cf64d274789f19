"""Attribute tracking: layers, variables and seed generators assigned to a
layer (directly or inside lists and dicts) become its children.

Keras does the same, so that `self.blocks = [Dense(4), Dense(4)]` in a
subclassed layer contributes the blocks' weights to the layer's weights.
"""


class TrackedList(list):
    """A list that reports appended items to its owner layer."""

    def __init__(self, items, owner):
        super().__init__(items)
        self._owner = owner
        for item in items:
            owner._track(item)

    def append(self, item):
        super().append(item)
        self._owner._track(item)

    def extend(self, items):
        items = list(items)
        super().extend(items)
        for item in items:
            self._owner._track(item)

    def insert(self, index, item):
        super().insert(index, item)
        self._owner._track(item)

    def __setitem__(self, index, item):
        super().__setitem__(index, item)
        if not isinstance(index, slice):
            self._owner._track(item)


class TrackedDict(dict):
    """A dict that reports stored values to its owner layer."""

    def __init__(self, items, owner):
        super().__init__(items)
        self._owner = owner
        for value in self.values():
            owner._track(value)

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self._owner._track(value)

    def update(self, *args, **kwargs):
        super().update(*args, **kwargs)
        for value in self.values():
            self._owner._track(value)


def wrap(value, owner):
    """Wrap lists/dicts holding trackables so later additions are seen."""
    if type(value) is list:
        return TrackedList(value, owner)
    if type(value) is dict:
        return TrackedDict(value, owner)
    if type(value) is tuple:
        for item in value:
            owner._track(item)
    return value

