"""Nested structures (`keras.tree`): flatten, pack, map and traverse.

The rules are Keras 3's (its optree backend):
- Nested: `list`, `tuple`, namedtuples, `dict`, `OrderedDict`,
  `defaultdict`, `deque` (and kerasish's tracked lists and dicts). Other
  subclasses, sets, arrays, strings and `None` are leaves.
- A `dict`'s leaves come in sorted-key order (keys of mixed types sort by
  type name, then value); an `OrderedDict`'s in insertion order. Packing
  restores each dict's own key order and type.
- Structures compared by `map_structure`/`assert_same_structure` must
  match exactly: same sequence types (a namedtuple only matches its own
  class), same lengths and same dict keys (any two dict kinds match).
"""
import collections
import warnings

_SEQUENCES = (list, tuple, collections.deque)
_DICTS = (dict, collections.OrderedDict, collections.defaultdict)
_LISTS = (list,)


def _register_tracked(tracked_list, tracked_dict):
    """Nest a layer's tracked list and dict like `list` and `dict`.

    `backend/common/tracking.py` calls this when it defines them, so no
    tracked container exists before `tree` knows it (and `tree`, below the
    backend, imports nothing of it).
    """
    global _SEQUENCES, _DICTS, _LISTS
    _SEQUENCES += (tracked_list,)
    _DICTS += (tracked_dict,)
    _LISTS += (tracked_list,)


class MAP_TO_NONE:
    """Return this from a `traverse` function to replace a sub-tree by None.

    (A `None` result means "keep going"; this sentinel means "this
    sub-tree becomes `None`".)

    Example:

    >>> def drop_ints(x):
    ...     return MAP_TO_NONE if isinstance(x, int) else None
    >>> kerasish.tree.traverse(drop_ints, {"a": 1, "b": [2.0, 3]})
    {'a': None, 'b': [2.0, None]}
    """


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def is_nested(structure):
    """Whether `structure` is a sequence, a mapping or a namedtuple.

    Example:

    >>> kerasish.tree.is_nested([1, 2]), kerasish.tree.is_nested(3)
    (True, False)
    """
    t = type(structure)
    return t in _SEQUENCES or t in _DICTS or _is_namedtuple(structure)


def _sorted_keys(mapping):
    if type(mapping) is collections.OrderedDict:
        return list(mapping)
    try:
        return sorted(mapping)
    except TypeError:
        # Mixed key types: group by type name first (optree's total order).
        try:
            return sorted(mapping, key=lambda k: (
                f"{type(k).__module__}.{type(k).__qualname__}", k))
        except TypeError:
            return list(mapping)


def _children(structure):
    """`(keys, values)` of a nested structure; keys are indices for lists."""
    if type(structure) in _DICTS:
        keys = _sorted_keys(structure)
        return keys, [structure[k] for k in keys]
    return range(len(structure)), list(structure)


def _rebuild(structure, values):
    """A structure of `structure`'s type holding `values` (in key order)."""
    t = type(structure)
    if t in _DICTS:
        packed = dict(zip(_sorted_keys(structure), values))
        items = [(k, packed[k]) for k in structure]
        if t is collections.defaultdict:
            return collections.defaultdict(structure.default_factory, items)
        return collections.OrderedDict(items) if \
            t is collections.OrderedDict else dict(items)
    if t is tuple:
        return tuple(values)
    if t is collections.deque:
        return collections.deque(values, maxlen=structure.maxlen)
    if _is_namedtuple(structure):
        return t(*values)
    return list(values)


def flatten(structure):
    """All leaves of `structure` in a flat list.

    Example:

    >>> kerasish.tree.flatten({"b": [1, 2], "a": (3, None)})
    [3, None, 1, 2]
    """
    leaves = []
    _flatten_into(structure, leaves)
    return leaves


def _flatten_into(structure, leaves):
    t = type(structure)
    if t is list or t is tuple:
        for item in structure:
            _flatten_into(item, leaves)
    elif t is dict:
        for key in _sorted_keys(structure):
            _flatten_into(structure[key], leaves)
    elif is_nested(structure):
        for item in _children(structure)[1]:
            _flatten_into(item, leaves)
    else:
        leaves.append(structure)


def flatten_with_path(structure):
    """`(path, leaf)` pairs; a path is the tuple of indices and keys.

    Example:

    >>> kerasish.tree.flatten_with_path({"b": [1, 2], "a": 3})
    [(('a',), 3), (('b', 0), 1), (('b', 1), 2)]
    """
    pairs = []

    def visit(node, path):
        if not is_nested(node):
            pairs.append((path, node))
            return
        for key, value in zip(*_children(node)):
            visit(value, path + (key,))
    visit(structure, ())
    return pairs


def pack_sequence_as(structure, flat_sequence):
    """Rebuild `structure`'s shape from a flat sequence of leaves.

    Example:

    >>> structure = {"a": None, "b": [None, None]}
    >>> kerasish.tree.pack_sequence_as(structure, [1, 2, 3])
    {'a': 1, 'b': [2, 3]}
    """
    leaves = list(flat_sequence)
    expected = [0]

    def pack(node):
        if not is_nested(node):
            expected[0] += 1
            return leaves[expected[0] - 1] if expected[0] <= len(leaves) \
                else None
        return _rebuild(node, [pack(v) for v in _children(node)[1]])
    packed = pack(structure)
    if expected[0] != len(leaves):
        word = "few" if len(leaves) < expected[0] else "many"
        raise ValueError(
            f"Too {word} leaves to pack into the structure; expected: "
            f"{expected[0]}, got: {len(leaves)}. Structure: {structure}")
    return packed


def unflattener(structure):
    """`pack_sequence_as(structure, leaves)` as a function of `leaves`,
    with the walk over `structure` done once (for packing many flat lists
    into one structure, such as every batch or step).

    Example:

    >>> pack = kerasish.tree.unflattener(((None, []), None))
    >>> pack([1, 2])
    ((1, []), 2)
    """
    count = [0]

    def build(node):
        if not is_nested(node):
            index = count[0]
            count[0] += 1
            return lambda leaves: leaves[index]
        parts = [build(child) for child in _children(node)[1]]
        if type(node) is tuple:
            return lambda leaves: tuple([part(leaves) for part in parts])
        if type(node) is list:
            return lambda leaves: [part(leaves) for part in parts]
        return lambda leaves: _rebuild(node, [part(leaves) for part in parts])
    pack = build(structure)
    size = count[0]

    def unflatten(leaves):
        if len(leaves) != size:
            word = "few" if len(leaves) < size else "many"
            raise ValueError(
                f"Too {word} leaves to pack into the structure; expected: "
                f"{size}, got: {len(leaves)}. Structure: {structure}")
        return pack(leaves)
    return unflatten


# -- matching structures -------------------------------------------------------
def _kind(structure):
    t = type(structure)
    if t in _DICTS:
        return dict
    return list if t in _LISTS else t


def _check_node(expected, actual):
    """Raise a `ValueError` unless `actual` is nested like `expected`."""
    if _kind(expected) is not _kind(actual):
        if is_nested(actual) and _is_namedtuple(expected) and \
                _is_namedtuple(actual):
            raise ValueError(
                f"namedtuple type mismatch; expected type: {type(expected)}, "
                f"got type: {type(actual)}; tuple: {actual}.")
        raise ValueError(f"Expected an instance of "
                         f"{type(expected).__name__}, got {actual!r}.")
    if _kind(expected) is dict:
        want, got = set(expected), set(actual)
        if want != got:
            raise ValueError(
                f"dictionary key mismatch; expected key(s): "
                f"{sorted(want, key=repr)}, got key(s): "
                f"{sorted(got, key=repr)}, missing key(s): "
                f"{sorted(want - got, key=repr)}, extra key(s): "
                f"{sorted(got - want, key=repr)}; dict: {actual}.")
    elif len(expected) != len(actual):
        raise ValueError(
            f"{type(expected).__name__} arity mismatch; expected: "
            f"{len(expected)}, got: {len(actual)}; "
            f"{type(actual).__name__}: {actual}.")


def _children_like(expected, actual):
    """`actual`'s children in the order of `expected`'s keys."""
    keys = _children(expected)[0]
    return [actual[k] for k in keys]


def map_structure(func, *structures, none_is_leaf=True):
    """Apply `func` leafwise across structures of the same layout.

    Args:
        func: Callable taking one argument per structure.
        *structures: Structures nested identically (see module notes).
        none_is_leaf: Whether `func` is called on `None` leaves (default
            `True`); if `False`, `None` stays `None` in the result.

    Example:

    >>> kerasish.tree.map_structure(lambda x: x * 10, {"a": 1, "b": [2, 3]})
    {'a': 10, 'b': [20, 30]}
    """
    if not structures:
        raise ValueError("Must provide at least one structure")
    if not callable(func):
        raise TypeError(f"`func` must be callable. Received: func={func}")

    def apply(nodes):
        first = nodes[0]
        if not is_nested(first):
            if any(is_nested(n) for n in nodes[1:]):
                raise ValueError(
                    "Structures don't have the same nested structure.")
            if first is None and not none_is_leaf:
                return None
            return func(*nodes)
        for other in nodes[1:]:
            _check_node(first, other)
        columns = [_children(first)[1]] + [_children_like(first, n)
                                           for n in nodes[1:]]
        return _rebuild(first, [apply(c) for c in zip(*columns)])
    return apply(structures)


def map_structure_up_to(shallow_structure, func, *structures):
    """Map `func` over `structures` down to `shallow_structure`'s leaves.

    Where `shallow_structure` has a leaf, `func` receives the matching
    sub-structures whole.

    Example:

    >>> kerasish.tree.map_structure_up_to([None, None], len,
    ...                                   [[1, 1], [2, 2, 2]])
    [2, 3]
    >>> kerasish.tree.map_structure_up_to([None, [None, None]], str,
    ...                                   [[1, 1], [2, 2]])
    ['[1, 1]', ['2', '2']]
    """
    if not structures:
        raise ValueError("Must provide at least one structure")
    if not callable(func):
        raise TypeError(f"`func` must be callable. Received: func={func}")

    def apply(shallow, nodes):
        if not is_nested(shallow):
            return func(*nodes)
        for node in nodes:
            _check_node(shallow, node)
        columns = [_children_like(shallow, n) for n in nodes]
        values = [apply(s, c) for s, c in zip(_children(shallow)[1],
                                              zip(*columns))]
        return _rebuild(shallow, values)
    return apply(shallow_structure, structures)


def assert_same_structure(a, b, check_types=None):
    """Raise a `ValueError` unless `a` and `b` are nested the same way.

    Sequence types must match exactly (a list is not a tuple; two
    namedtuple classes differ); dicts of any kind match on their keys.
    `check_types` is deprecated in Keras and has no effect.

    Example:

    >>> kerasish.tree.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    >>> kerasish.tree.assert_same_structure([1, 2], (1, 2))
    Traceback (most recent call last):
      ...
    ValueError: Expected an instance of list, got (1, 2).
    """
    if check_types is not None:
        warnings.warn(
            "The `check_types` argument is deprecated and no longer has any "
            "effect" + (", please remove." if check_types else
                        ". For a looser check, use "
                        "`keras.tree.assert_same_paths()`, which considers "
                        "`list`, `tuple`, `namedtuple` and `deque` as "
                        "matching"), DeprecationWarning, stacklevel=2)
    map_structure(lambda *_: None, a, b)


def assert_same_paths(a, b):
    """Raise a `ValueError` unless `a` and `b` have the same leaf paths.

    Looser than `assert_same_structure`: sequence types are not compared
    (a namedtuple's paths are indices).

    Example:

    >>> kerasish.tree.assert_same_paths([0, 1], (2, 3))
    """
    a_paths = {path for path, _ in flatten_with_path(a)}
    b_paths = {path for path, _ in flatten_with_path(b)}
    if a_paths != b_paths:
        message = "`a` and `b` don't have the same paths."
        if a_paths - b_paths:
            message += f"\nPaths in `a` missing in `b`:\n{a_paths - b_paths}"
        if b_paths - a_paths:
            message += f"\nPaths in `b` missing in `a`:\n{b_paths - a_paths}"
        raise ValueError(message)


# -- rewriting ----------------------------------------------------------------
def traverse(func, structure, top_down=True):
    """Depth-first walk applying `func` to every sub-tree; returns the result.

    Top-down (default), a non-None `func(subtree)` replaces the sub-tree
    and stops the descent into it; bottom-up, `func` sees sub-trees whose
    children are already traversed, and a non-None result replaces them.
    Return `MAP_TO_NONE` to replace a sub-tree by `None`.

    Example:

    >>> visited = []
    >>> kerasish.tree.traverse(visited.append, [(1, 2), {"a": 3}])
    [(1, 2), {'a': 3}]
    >>> visited
    [[(1, 2), {'a': 3}], (1, 2), 1, 2, {'a': 3}, 3]
    >>> kerasish.tree.traverse(
    ...     lambda x: x * 10 if isinstance(x, int) else None,
    ...     [(1, 2), {"a": 3}], top_down=False)
    [(10, 20), {'a': 30}]
    """
    def children_traversed(node):
        if not is_nested(node):
            return node
        return _rebuild(node, [traverse(func, v, top_down)
                               for v in _children(node)[1]])
    if top_down:
        result = func(structure)
        if result is None:
            return children_traversed(structure)
    else:
        structure = children_traversed(structure)
        result = func(structure)
        if result is None:
            return structure
    return None if result is MAP_TO_NONE else result


def lists_to_tuples(structure):
    """The same structure with every list turned into a tuple.

    Example:

    >>> kerasish.tree.lists_to_tuples([1, [2, {"a": [3]}]])
    (1, (2, {'a': (3,)}))
    """
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None,
                    structure, top_down=False)


def _is_shape(x):
    return isinstance(x, (list, tuple)) and all(
        isinstance(d, (int, type(None))) for d in x)


def map_shape_structure(func, structure):
    """`map_structure` whose leaves are shapes: tuples/lists of ints/None.

    Example:

    >>> kerasish.tree.map_shape_structure(
    ...     lambda s: (None,) + tuple(s), {"a": (3,), "b": [(2, 4), [5]]})
    {'a': (None, 3), 'b': [(None, 2, 4), (None, 5)]}
    """
    if _is_shape(structure) or not is_nested(structure):
        return func(structure)
    return _rebuild(structure, [map_shape_structure(func, v)
                                for v in _children(structure)[1]])
