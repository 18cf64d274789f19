"""keras.tree parity. Expected values were printed by the same calls under
Keras 3.15.1 (JAX backend, optree); see the note on map_structure_up_to."""
import collections

import numpy as np
import pytest

from kerasish import tree

P = collections.namedtuple("P", ["y", "x"])


def _od():
    return collections.OrderedDict([("b", 1), ("a", 2)])


def test_is_nested_matches_keras_registry():
    class D(dict):
        pass
    nested = [[], (), {}, P(1, 2), _od(), collections.deque([1]),
              collections.defaultdict(list)]
    leaves = [None, 1, "s", np.ones(2), {1}, D(a=1)]
    assert all(tree.is_nested(x) for x in nested)
    assert not any(tree.is_nested(x) for x in leaves)


@pytest.mark.parametrize("structure, expected", [
    (collections.OrderedDict([("b", 1), ("a", 2)]), [1, 2]),
    (collections.defaultdict(list, {"b": 1, "a": 2}), [2, 1]),
    (P(1, 2), [1, 2]),
    (collections.deque([1, [2, 3]]), [1, 2, 3]),
    ({10: "a", 2: "c"}, ["c", "a"]),
    ({"b": "c", 1: "a", 0.5: "h", ("x",): "t"}, ["h", "a", "c", "t"]),
    ([None, {"a": None}], [None, None]),
    ([[], {}, ()], []),
    ("abc", ["abc"]),
])
def test_flatten_orders_as_keras(structure, expected):
    assert tree.flatten(structure) == expected


def test_flatten_with_path():
    structure = {"b": [1, (2, 3)], "a": P(4, 5), "c": _od()}
    assert tree.flatten_with_path(structure) == [
        (("a", 0), 4), (("a", 1), 5), (("b", 0), 1), (("b", 1, 0), 2),
        (("b", 1, 1), 3), (("c", "b"), 1), (("c", "a"), 2)]
    assert tree.flatten_with_path(3) == [((), 3)]


def test_pack_sequence_as_restores_types_and_key_order():
    assert tree.pack_sequence_as(_od(), [10, 20]) == \
        collections.OrderedDict([("b", 10), ("a", 20)])
    packed = tree.pack_sequence_as(
        collections.defaultdict(list, {"b": 1, "a": 2}), [10, 20])
    assert type(packed) is collections.defaultdict
    assert packed.default_factory is list
    assert list(packed.items()) == [("b", 20), ("a", 10)]
    assert list(tree.pack_sequence_as({"b": 0, "a": 0}, [10, 20]).items()) \
        == [("b", 20), ("a", 10)]
    assert tree.pack_sequence_as(P(0, 0), [1, 2]) == P(y=1, x=2)
    assert tree.pack_sequence_as(collections.deque([0, 0]), [1, 2]) == \
        collections.deque([1, 2])
    assert tree.pack_sequence_as(0, [5]) == 5
    assert tree.pack_sequence_as([[], {}], []) == [[], {}]


@pytest.mark.parametrize("structure, flat, word", [
    ([0, 0, 0], [1, 2], "few"), ([0, 0], [1, 2, 3], "many"),
    (0, [5, 6], "many")])
def test_pack_sequence_as_counts_leaves(structure, flat, word):
    with pytest.raises(ValueError, match=f"Too {word} leaves"):
        tree.pack_sequence_as(structure, flat)


def test_map_structure_none_and_multiple_structures():
    assert tree.map_structure(lambda x: "L", [None, 1]) == ["L", "L"]
    assert tree.map_structure(lambda x: "L", [None, 1],
                              none_is_leaf=False) == [None, "L"]
    assert tree.map_structure(lambda a, b: a + b, {"a": 1, "b": [2]},
                              {"b": [20], "a": 10}) == {"a": 11, "b": [22]}
    assert tree.map_structure(lambda a, b: a + b, _od(),
                              {"a": 1, "b": 2}) == \
        collections.OrderedDict([("b", 3), ("a", 3)])
    assert tree.map_structure(lambda v: v * 2, P(1, 2)) == P(y=2, x=4)


@pytest.mark.parametrize("a, b, message", [
    ([1, 2], [1, [2]], "Structures don't have the same nested structure."),
    ([1, 2], (1, 2), "Expected an instance of list, got (1, 2)."),
    ({"a": 1}, {"b": 1}, "dictionary key mismatch; expected key(s): ['a'], "
                         "got key(s): ['b'], missing key(s): ['a'], extra "
                         "key(s): ['b']; dict: {'b': 1}."),
    ([1, 2], [1, 2, 3], "list arity mismatch; expected: 2, got: 3; list: "
                        "[1, 2, 3]."),
    (1, [1], "Structures don't have the same nested structure."),
    (P(1, 2), collections.namedtuple("P", ["y", "x"])(1, 2),
     "namedtuple type mismatch"),
])
def test_structure_mismatches_raise_as_keras(a, b, message):
    with pytest.raises(ValueError) as info:
        tree.assert_same_structure(a, b)
    assert message in str(info.value)
    with pytest.raises(ValueError):
        tree.map_structure(lambda *x: x, a, b)


def test_matching_structures():
    tree.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    tree.assert_same_structure(_od(), {"a": 1, "b": 2})
    tree.assert_same_structure([None], [1])
    tree.assert_same_structure([np.ones(3)], [1])
    with pytest.raises(ValueError, match="at least one structure"):
        tree.map_structure(lambda: 1)


def test_check_types_is_deprecated():
    with pytest.warns(DeprecationWarning, match="please remove"):
        tree.assert_same_structure([1], [2], check_types=True)
    with pytest.warns(DeprecationWarning, match="assert_same_paths"):
        tree.assert_same_structure([1], [2], check_types=False)


def test_assert_same_paths():
    tree.assert_same_paths([0, 1], (2, 3))
    tree.assert_same_paths(P(0, 1), collections.namedtuple("Q", "a b")(2, 3))
    with pytest.raises(ValueError) as info:
        tree.assert_same_paths({"a": 1}, {"b": 1})
    assert str(info.value) == (
        "`a` and `b` don't have the same paths.\nPaths in `a` missing in "
        "`b`:\n{('a',)}\nPaths in `b` missing in `a`:\n{('b',)}")


def test_map_structure_up_to():
    # Keras's docstring examples. Its optree backend rejects None as a
    # shallow leaf (a bug: its own examples raise); with other leaves it
    # gives these results, which kerasish gives for both.
    for leaf in (None, 0):
        assert tree.map_structure_up_to([leaf, leaf], len,
                                        [[1, 1], [2, 2]]) == [2, 2]
        assert tree.map_structure_up_to([leaf, [leaf, leaf]], str,
                                        [[1, 1], [2, 2]]) == \
            ["[1, 1]", ["2", "2"]]
    assert tree.map_structure_up_to(
        {"a": 0, "b": 0}, lambda x, y: (x, y), {"a": [1], "b": 2},
        {"a": 3, "b": [4]}) == {"a": ([1], 3), "b": (2, [4])}
    with pytest.raises(ValueError, match="Expected an instance of list, "
                                         "got 2."):
        tree.map_structure_up_to([0, [0]], str, [1, 2])
    with pytest.raises(ValueError, match="Expected an instance of list"):
        tree.map_structure_up_to([0, 0], str, (1, 2))


def test_traverse_orders_and_replacements():
    visited = []
    structure = [(1, 2), [3], {"a": 4}]
    assert tree.traverse(visited.append, structure) == structure
    assert visited == [structure, (1, 2), 1, 2, [3], 3, {"a": 4}, 4]
    visited = []
    assert tree.traverse(visited.append, structure, top_down=False) == \
        structure
    assert visited == [1, 2, (1, 2), 3, [3], 4, {"a": 4}, structure]
    assert tree.traverse(lambda x: "X" if isinstance(x, tuple) else None,
                         [(1, 2), [3]]) == ["X", [3]]
    assert tree.traverse(
        lambda x: tree.MAP_TO_NONE if isinstance(x, tuple) else None,
        [(1, 2), [3]]) == [None, [3]]
    assert tree.traverse(
        lambda x: tree.MAP_TO_NONE if x == 2 else None,
        [(1, 2), {"a": 3}], top_down=False) == [(1, None), {"a": 3}]
    assert tree.traverse(lambda x: x + 1 if isinstance(x, int) else None,
                         P(1, 2)) == P(y=2, x=3)
    with pytest.raises(TypeError):
        tree.traverse(3, [1])


def test_lists_to_tuples_and_map_shape_structure():
    assert tree.lists_to_tuples([1, [2, {"a": [3]}], (4, [5])]) == \
        (1, (2, {"a": (3,)}), (4, (5,)))

    def mark(shape):
        return ("S", shape)
    assert tree.map_shape_structure(
        mark, [(None, 3), {"a": (2,), "b": [(1, 2), (None,)]}, ()]) == \
        [("S", (None, 3)), {"a": ("S", (2,)),
                            "b": [("S", (1, 2)), ("S", (None,))]}, ("S", ())]
    assert tree.map_shape_structure(mark, [[None, 3], [1, 2]]) == \
        [("S", [None, 3]), ("S", [1, 2])]
    assert tree.map_shape_structure(lambda s: "S", [
        (1,), (np.int64(2),), [3, None], ((1, 2), (3,)), "ab", (1, "a")]) == \
        ["S", ("S",), "S", ("S", "S"), "S", ("S", "S")]
