"""Nested structures (`keras.tree`): flatten, pack and map.

Dicts flatten in sorted-key order, as in Keras; `None` is a leaf.
"""


def is_nested(structure):
    """Whether `structure` is a list, tuple or dict (not a leaf).

    Example:

    >>> kerasish.tree.is_nested([1, 2]), kerasish.tree.is_nested(3)
    (True, False)
    """
    return isinstance(structure, (list, tuple, dict))


def flatten(structure):
    """All leaves of `structure` in a flat list.

    Example:

    >>> kerasish.tree.flatten({"b": [1, 2], "a": (3, None)})
    [3, None, 1, 2]
    """
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure, key=str)
                for leaf in flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack_sequence_as(structure, flat_sequence):
    """Rebuild `structure`'s shape from a flat list of leaves.

    Example:

    >>> structure = {"a": None, "b": [None, None]}
    >>> kerasish.tree.pack_sequence_as(structure, [1, 2, 3])
    {'a': 1, 'b': [2, 3]}
    """
    leaves = iter(flat_sequence)

    def pack(s):
        if isinstance(s, dict):
            packed = {k: pack(s[k]) for k in sorted(s, key=str)}
            return {k: packed[k] for k in s}
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*[pack(v) for v in s])
        if isinstance(s, tuple):
            return tuple(pack(v) for v in s)
        if isinstance(s, list):
            return [pack(v) for v in s]
        return next(leaves)
    return pack(structure)


def map_structure(func, *structures):
    """Apply `func` leafwise across structures of the same shape.

    Example:

    >>> kerasish.tree.map_structure(lambda x: x * 10, {"a": 1, "b": [2, 3]})
    {'a': 10, 'b': [20, 30]}
    """
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])


def assert_same_structure(a, b):
    """Raise a `ValueError` unless `a` and `b` have as many leaves.

    Example:

    >>> kerasish.tree.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    """
    if len(flatten(a)) != len(flatten(b)):
        raise ValueError(
            "The two structures don't have the same nested structure. "
            f"First structure: {a}, second structure: {b}")
