import threading

import numpy as np
import pytest

import kerasish
from kerasish.data import Dataset


def items(ds):
    return [np.asarray(e).tolist() if not isinstance(e, tuple)
            else tuple(np.asarray(v).tolist() for v in e) for e in ds]


def test_slices_batch_and_drop_remainder():
    ds = Dataset.from_tensor_slices(np.arange(10))
    assert items(ds.batch(4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert items(ds.batch(4, drop_remainder=True)) == [[0, 1, 2, 3],
                                                       [4, 5, 6, 7]]
    assert ds.batch(4).cardinality() == 3
    assert ds.batch(4, drop_remainder=True).cardinality() == 2


def test_structures_dicts_and_tuples():
    ds = Dataset.from_tensor_slices(({"a": np.ones((3, 2)),
                                      "b": np.zeros(3)}, np.arange(3)))
    x, y = next(iter(ds.batch(2)))
    assert x["a"].shape == (2, 2) and x["b"].shape == (2,)
    np.testing.assert_array_equal(y, [0, 1])
    with pytest.raises(ValueError, match="same length"):
        Dataset.from_tensor_slices((np.ones(3), np.ones(4)))


def test_map_filter_take_skip_repeat():
    ds = Dataset.range(10)
    assert items(ds.map(lambda v: v * 2).take(3)) == [0, 2, 4]
    assert items(ds.filter(lambda v: v % 3 == 0)) == [0, 3, 6, 9]
    assert items(ds.skip(7)) == [7, 8, 9]
    assert items(ds.take(2).repeat(3)) == [0, 1] * 3
    assert ds.repeat().cardinality() == kerasish.data.INFINITE
    assert items(ds.repeat().take(12))[-2:] == [0, 1]
    pairs = Dataset.from_tensor_slices((np.arange(3), np.arange(3) * 10))
    assert items(pairs.map(lambda a, b: (b, a))) == [(0, 0), (10, 1),
                                                    (20, 2)]


def test_shuffle_is_a_permutation_seeded_and_reshuffles():
    ds = Dataset.range(20).shuffle(5, seed=3)
    first, second = items(ds), items(ds)
    assert sorted(first) == list(range(20)) and first != list(range(20))
    assert first != second
    again = Dataset.range(20).shuffle(5, seed=3)
    assert items(again) == first
    fixed = Dataset.range(20).shuffle(5, seed=3,
                                      reshuffle_each_iteration=False)
    assert items(fixed) == items(fixed)
    # A buffer of 1 cannot reorder anything.
    assert items(Dataset.range(5).shuffle(1, seed=0)) == list(range(5))


def test_prefetch_runs_ahead_in_a_thread_and_propagates_errors():
    seen = []

    def gen():
        for i in range(5):
            seen.append(threading.get_ident())
            yield i
    ds = Dataset.from_generator(gen).prefetch(2)
    assert items(ds) == list(range(5))
    assert threading.get_ident() not in seen

    def broken():
        yield 1
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        items(Dataset.from_generator(broken).prefetch(1))


def test_generator_must_be_callable_and_is_reiterable():
    with pytest.raises(TypeError, match="callable"):
        Dataset.from_generator(iter([1, 2]))
    ds = Dataset.from_generator(lambda: iter(range(3)))
    assert items(ds) == items(ds) == [0, 1, 2]


def test_zip_concatenate_enumerate_cache_unbatch():
    a, b = Dataset.range(3), Dataset.range(3).map(lambda v: v * 10)
    assert items(Dataset.zip((a, b))) == [(0, 0), (1, 10), (2, 20)]
    assert items(a.concatenate(b)) == [0, 1, 2, 0, 10, 20]
    assert items(a.enumerate(5))[0] == (5, 0)
    calls = []
    cached = a.map(lambda v: calls.append(1) or v).cache()
    items(cached), items(cached)
    assert len(calls) == 3
    assert items(Dataset.range(4).batch(2).unbatch()) == [0, 1, 2, 3]


def test_fit_evaluate_predict_accept_datasets():
    rng = np.random.default_rng(0)
    x = rng.random((64, 3)).astype("float32")
    y = (x.sum(1) > 1.5).astype("float32")[:, None]
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(1,
                                                       activation="sigmoid")])
    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    ds = Dataset.from_tensor_slices((x, y)).shuffle(64, seed=1).batch(16)
    history = model.fit(ds, epochs=2, verbose=0,
                        validation_data=Dataset.from_tensor_slices(
                            (x, y)).batch(32))
    assert history.params["steps"] == 4
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy",
                                       "val_loss"]
    assert len(model.evaluate(ds, verbose=0)) == 2
    preds = model.predict(Dataset.from_tensor_slices(x).batch(10),
                          verbose=0)
    assert preds.shape == (64, 1)
    endless = Dataset.from_tensor_slices((x, y)).batch(16).repeat()
    h = model.fit(endless, epochs=2, steps_per_epoch=3, verbose=0)
    assert h.params["steps"] == 3
    with pytest.raises(ValueError, match="`y` should not be passed"):
        model.fit(ds, y, verbose=0)


def test_lists_are_tensors_tuples_and_dicts_are_structure():
    ds = Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6]))
    assert items(ds) == [(1, 4), (2, 5), (3, 6)]
    ds = Dataset.from_tensor_slices({"a": [[1, 2], [3, 4]], "b": [5, 6]})
    first = next(iter(ds))
    assert first["a"].tolist() == [1, 2] and int(first["b"]) == 5
