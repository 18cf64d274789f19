"""`IndexedSlices` rows: deduplication against a dense scatter, the sort
shared by tables looked up with the same ids."""
import numpy as np
import pytest

import kerasish
from kerasish.backend import indexed_slices
from kerasish.backend.indexed_slices import (IndexedSlices, row_groups,
                                             shared_row_groups)


def _dense_reference(indices, values, rows):
    """Row sums by `np.add.at`, in float64."""
    dense = np.zeros((rows,) + values.shape[1:])
    np.add.at(dense, indices, values.astype(np.float64))
    return dense


@pytest.mark.parametrize("n, rows", [(0, 5), (1, 5), (7, 100), (300, 20)])
def test_deduplicate_sums_repeated_rows(n, rows):
    rng = np.random.default_rng(n)
    indices = rng.integers(0, rows, n)
    values = rng.standard_normal((n, 3)).astype("float32")
    unique, summed = IndexedSlices(indices, values, (rows, 3)).deduplicate()
    assert unique.tolist() == sorted(set(indices.tolist()))
    assert summed.dtype == np.float32 and summed.shape == (len(unique), 3)
    reference = _dense_reference(indices, values, rows)
    np.testing.assert_allclose(summed, reference[unique], rtol=1e-6,
                               atol=1e-6)


def test_row_groups_is_a_stable_sort():
    indices = np.array([4, 2, 4, 0, 2, 4])
    rows, order, starts = row_groups(indices)
    assert rows.tolist() == [0, 2, 4]
    # Equal ids keep their order of occurrence.
    assert order.tolist() == [3, 1, 4, 0, 2, 5]
    assert starts.tolist() == [0, 1, 3]


def test_unique_rows_keep_their_values_exactly():
    values = np.arange(6, dtype="float32").reshape(3, 2) + 0.1
    unique, summed = IndexedSlices(np.array([2, 0, 1]), values,
                                   (3, 2)).deduplicate()
    assert unique.tolist() == [0, 1, 2]
    np.testing.assert_array_equal(summed, values[[1, 2, 0]])


def test_shared_row_groups_sorts_views_of_one_array_once():
    ids = np.array([[3], [1], [3], [2]])
    cache = {}
    first = shared_row_groups(cache, ids.ravel())
    assert shared_row_groups(cache, ids.reshape(-1)) is first
    other = shared_row_groups(cache, ids[::2].ravel())
    assert other is not first and other[0].tolist() == [3]
    assert len(cache) == 2
    # An equal copy elsewhere in memory is a different key, same groups.
    copy = shared_row_groups(cache, ids.ravel().copy())
    assert copy is not first
    for a, b in zip(copy, first):
        np.testing.assert_array_equal(a, b)


def test_tables_on_one_input_step_like_separate_inputs(monkeypatch):
    """A deep and a wide embedding on one id input share the sort; the
    update equals the one where each table has its own copy of the ids."""
    sorts = []
    monkeypatch.setattr(indexed_slices, "row_groups",
                        lambda ids: sorts.append(1) or row_groups(ids))

    def train(shared):
        kerasish.utils.set_random_seed(0)
        ids = kerasish.Input(shape=(1,), dtype="int32")
        other = ids if shared else kerasish.Input(shape=(1,), dtype="int32")
        deep = kerasish.layers.Flatten()(
            kerasish.layers.Embedding(30, 4)(ids))
        wide = kerasish.layers.Flatten()(
            kerasish.layers.Embedding(30, 1)(other))
        out = kerasish.layers.Dense(1)(
            kerasish.layers.Concatenate()([deep, wide]))
        model = kerasish.Model([ids] if shared else [ids, other], out)
        model.compile(optimizer="adam", loss="mse")
        x = np.random.default_rng(1).integers(0, 30, (64, 1)).astype("int32")
        y = np.linspace(-1, 1, 64, dtype="float32")[:, None]
        model.fit([x] if shared else [x, x.copy()], y, batch_size=16,
                  epochs=2, verbose=0)
        return model.get_weights()

    shared = train(True)
    assert len(sorts) == 8          # 8 steps, one sort each
    separate = train(False)
    assert len(sorts) == 8 + 16
    for a, b in zip(shared, separate):
        np.testing.assert_array_equal(a, b)
