"""Data adapters and the epoch iterator, below the fit loop."""
import random
import warnings

import numpy as np
import pytest

import kerasish
from kerasish.engine.data_adapters import (
    ArrayDataAdapter, CachingDataAdapter, GeneratorDataAdapter,
    PyDatasetAdapter, get_data_adapter)
from kerasish.engine.data_adapters.array_slicing import train_validation_split
from kerasish.engine.data_adapters.utils import (
    class_weight_to_sample_weights, unpack_x_y_sample_weight)
from kerasish.engine.epoch_iterator import EpochIterator

X = np.arange(20, dtype="float32").reshape(10, 2)
Y = np.arange(10, dtype="float32")


class Batches(kerasish.utils.PyDataset):
    """Batch i is `(i, i)`; records calls."""

    def __init__(self, n=4, **kwargs):
        super().__init__(**kwargs)
        self.n, self.calls = n, []
        self.begins = self.ends = 0

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        self.calls.append(index)
        value = np.full((2, 1), index, "float32")
        return value, value

    def on_epoch_begin(self):
        self.begins += 1

    def on_epoch_end(self):
        self.ends += 1


def _first_values(iterator, epoch=None):
    return [float(np.ravel(batch[0])[0])
            for _, batch in iterator.enumerate_epoch(epoch)]


def test_array_batches_and_partial_last_batch():
    adapter = ArrayDataAdapter(X, Y, batch_size=4)
    sizes = [b[0].shape[0] for b in adapter.get_numpy_iterator()]
    assert adapter.num_batches == 3 and sizes == [4, 4, 2]
    assert adapter.partial_batch_size == 2


def test_batch_size_from_steps_and_default():
    assert ArrayDataAdapter(X, Y, steps=3).batch_size == 4
    assert ArrayDataAdapter(X, Y).batch_size == 32


def test_shuffle_draws_from_numpy_global_rng_as_keras():
    # Keras: np.random.permutation(num_samples) when a pass yields its
    # first batch; with "batch", np.random.permutation(len(batch)) + start
    # as each batch is sliced.
    np.random.seed(1)
    full = ArrayDataAdapter(X, Y, batch_size=4, shuffle=True)
    passes = [np.concatenate([b[1] for b in full.get_numpy_iterator()])
              for _ in range(2)]
    reference = np.random.RandomState(1)
    for order in passes:
        np.testing.assert_array_equal(order, reference.permutation(10))
    assert passes[0].tolist() != passes[1].tolist()
    np.random.seed(2)
    batch = ArrayDataAdapter(X, Y, batch_size=4, shuffle="batch")
    chunks = [b[1].tolist() for b in batch.get_numpy_iterator()]
    reference = np.random.RandomState(2)
    assert chunks == [(reference.permutation(n) + start).tolist()
                      for start, n in ((0, 4), (4, 4), (8, 2))]


def test_shuffle_draw_happens_at_the_first_batch_and_peek_draws_nothing():
    np.random.seed(3)
    adapter = ArrayDataAdapter(X, Y, batch_size=4, shuffle=True)
    first = adapter.peek_batch()
    np.testing.assert_array_equal(first[1], Y[:4])
    iterator = adapter.get_numpy_iterator()
    np.random.seed(4)            # the draw is lazy, as Keras's generator
    order = np.concatenate([b[1] for b in iterator])
    np.testing.assert_array_equal(order,
                                  np.random.RandomState(4).permutation(10))


@pytest.mark.parametrize("shuffle", [True, "batch"])
def test_restored_pass_replays_its_draws(shuffle):
    np.random.seed(5)
    adapter = ArrayDataAdapter(X, Y, batch_size=4, shuffle=shuffle)
    iterator = EpochIterator(adapter, steps_per_epoch=2)
    original = [b[1].tolist() for _, b in iterator.enumerate_epoch()]
    state, after_two = iterator.get_state(), np.random.get_state()
    rest = [b[1].tolist() for _, b in iterator.enumerate_epoch()]
    np.random.seed(99)          # a new process: the global RNG elsewhere
    again = EpochIterator(
        ArrayDataAdapter(X, Y, batch_size=4, shuffle=shuffle),
        steps_per_epoch=2)
    np.random.set_state(after_two)      # restore_rng's job
    again.set_state(state)              # draws nothing from the global RNG
    assert original and [b[1].tolist() for _, b in
                         again.enumerate_epoch()] == rest


def test_number_lists_are_arrays():
    adapter = get_data_adapter([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0])
    x, y = next(iter(adapter.get_numpy_iterator()))
    assert x.shape == (2, 2) and y.shape == (2,)
    assert x.dtype == np.float32


def test_cardinality_mismatch_raises():
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        get_data_adapter(X, Y[:7])


@pytest.mark.parametrize("x", ["abc", 3.5, object()])
def test_unrecognized_types_raise(x):
    with pytest.raises(ValueError, match="Unrecognized data type"):
        get_data_adapter(x)


def test_unpack_rules():
    assert unpack_x_y_sample_weight((1,)) == (1, None, None)
    assert unpack_x_y_sample_weight([1, 2, 3]) == (1, 2, 3)
    assert unpack_x_y_sample_weight({"a": 1}) == ({"a": 1}, None, None)
    with pytest.raises(ValueError, match="Data is expected to be in"):
        unpack_x_y_sample_weight((1, 2, 3, 4))


def test_class_weight_rules():
    one_hot = np.eye(3)[[0, 2, 1]]
    np.testing.assert_array_equal(
        class_weight_to_sample_weights(one_hot, {2: 3.0}), [1.0, 3.0, 1.0])
    column = np.array([[1.0], [0.0]])
    np.testing.assert_array_equal(
        class_weight_to_sample_weights(column, {"1": 2}), [2.0, 1.0])
    np.testing.assert_array_equal(
        class_weight_to_sample_weights(np.array([0, 1]), {}), [1.0, 1.0])
    with pytest.raises(ValueError, match="integer class indices"):
        class_weight_to_sample_weights(np.array([0]), {"cat": 1.0})
    with pytest.raises(ValueError, match="must be a dict|to be a dict"):
        class_weight_to_sample_weights(np.array([0]), [1.0, 2.0])
    with pytest.raises(ValueError, match="single output"):
        class_weight_to_sample_weights([np.array([0]), np.array([1])],
                                       {0: 1.0})


def test_class_weight_negative_keys_weigh_negative_labels():
    # Reference values from Keras 3.15
    # (data_adapter_utils.class_weight_to_sample_weights).
    np.testing.assert_array_equal(
        class_weight_to_sample_weights(np.array([-1, 0, 1, -2, 3]),
                                       {-1: 0.5, 1: 3.0, -3: 9.0}),
        [0.5, 1.0, 3.0, 1.0, 1.0])
    np.testing.assert_array_equal(
        class_weight_to_sample_weights(np.array([[-1.2], [0.4], [1.0]]),
                                       {-1: 0.5, 1: 3.0}),
        [0.5, 1.0, 3.0])


def test_train_validation_split_takes_the_last_fraction():
    (x, y, sw), (vx, vy, vsw) = train_validation_split((X, Y, None), 0.2)
    assert y.tolist() == list(range(8)) and vy.tolist() == [8.0, 9.0]
    assert sw is None and vsw is None
    with pytest.raises(ValueError, match="not sufficient to split"):
        train_validation_split((X, Y, None), 0.99)


def test_steps_per_epoch_continues_the_pass_then_restarts():
    adapter = ArrayDataAdapter(X, Y, batch_size=2)
    iterator = EpochIterator(adapter, steps_per_epoch=2)
    epochs = [_first_values(iterator) for _ in range(4)]
    # 5 batches: b0 b1 | b2 b3 | b4 + next pass b0 | b1 b2
    assert epochs == [[0.0, 4.0], [8.0, 12.0], [16.0, 0.0], [4.0, 8.0]]


def test_restart_each_epoch_starts_over():
    adapter = ArrayDataAdapter(X, Y, batch_size=2)
    iterator = EpochIterator(adapter, steps_per_epoch=2,
                             restart_each_epoch=True)
    assert _first_values(iterator) == _first_values(iterator) == [0.0, 4.0]


def _gen(n):
    for i in range(n):
        yield (np.full((2, 1), i, "float32"), np.zeros((2, 1), "float32"))


def test_generator_is_single_pass_and_peeked_batch_is_not_repeated():
    adapter = GeneratorDataAdapter(_gen(3))
    assert float(adapter.peek_batch()[0][0, 0]) == 0.0
    iterator = EpochIterator(adapter)
    assert _first_values(iterator) == [0.0, 1.0, 2.0]
    assert iterator.exhausted
    assert _first_values(iterator) == []
    with pytest.warns(UserWarning, match="ran out of data"):
        assert not iterator.can_continue(more_epochs=True)


def test_generator_running_dry_under_steps_warns():
    iterator = EpochIterator(GeneratorDataAdapter(_gen(3)),
                             steps_per_epoch=2)
    assert _first_values(iterator) == [0.0, 1.0]
    assert iterator.can_continue(True)
    with pytest.warns(UserWarning, match="ran out of data"):
        assert _first_values(iterator) == [2.0]
    assert not iterator.can_continue(True)


def test_reiterable_object_gives_a_pass_per_epoch():
    class Reiterable:
        def __iter__(self):
            return _gen(2)

    iterator = EpochIterator(get_data_adapter(Reiterable()))
    assert _first_values(iterator) == _first_values(iterator) == [0.0, 1.0]
    assert iterator.can_continue(True)


@pytest.mark.parametrize("source, message", [
    (_gen(0), "at least one batch"),
    (iter([np.zeros((2, 1))]), "must return a tuple"),
    (iter([[np.zeros((2, 1)), np.zeros((2, 1))]]), "must return a tuple"),
    (iter([(1, 2, 3, 4)]), "must return a tuple"),
])
def test_bad_generators_raise(source, message):
    with pytest.raises(ValueError, match=message):
        GeneratorDataAdapter(source)


def test_generator_rejects_y_sample_weight_and_class_weight():
    with pytest.raises(ValueError, match="`y` should not be passed"):
        get_data_adapter(_gen(2), Y)
    with pytest.raises(ValueError, match="`sample_weights` should not"):
        get_data_adapter(_gen(2), sample_weight=Y)
    with pytest.raises(ValueError, match="class_weight"):
        get_data_adapter(_gen(2), class_weight={0: 1.0})


def test_caching_adapter_replays_the_first_pass():
    adapter = CachingDataAdapter(GeneratorDataAdapter(_gen(3)))
    iterator = EpochIterator(adapter, restart_each_epoch=True)
    assert _first_values(iterator) == _first_values(iterator) == \
        [0.0, 1.0, 2.0]
    limited = EpochIterator(CachingDataAdapter(GeneratorDataAdapter(_gen(5))),
                            steps_per_epoch=2, restart_each_epoch=True)
    assert _first_values(limited) == _first_values(limited) == [0.0, 1.0]


def test_py_dataset_hooks_run_once_per_epoch():
    data = Batches()
    iterator = EpochIterator(PyDatasetAdapter(data))
    for epoch in range(3):
        assert _first_values(iterator, epoch) == [0.0, 1.0, 2.0, 3.0]
    assert (data.begins, data.ends) == (3, 3)


def test_py_dataset_shuffle_uses_python_random_shuffle_as_keras():
    random.seed(3)
    iterator = EpochIterator(PyDatasetAdapter(Batches(8), shuffle=True))
    first, second = _first_values(iterator, 0), _first_values(iterator, 1)
    reference = random.Random(3)
    for values in (first, second):
        expected = list(range(8))
        reference.shuffle(expected)
        assert values == list(map(float, expected))
    assert first != second


@pytest.mark.parametrize("kwargs", [{"workers": 3, "max_queue_size": 2},
                                    {"workers": 2,
                                     "use_multiprocessing": True}])
def test_py_dataset_workers_keep_the_order(kwargs):
    iterator = EpochIterator(PyDatasetAdapter(Batches(6, **kwargs)))
    assert _first_values(iterator) == list(map(float, range(6)))
    assert _first_values(iterator) == list(map(float, range(6)))


def test_infinite_py_dataset_with_steps():
    class Endless(Batches):
        @property
        def num_batches(self):
            return None

    adapter = get_data_adapter(Endless(), steps_per_epoch=3, shuffle=True)
    iterator = EpochIterator(adapter, steps_per_epoch=3)
    assert iterator.num_batches == 3 and adapter.num_batches is None
    assert _first_values(iterator) == [0.0, 1.0, 2.0]
    assert _first_values(iterator) == [3.0, 4.0, 5.0]


def test_py_dataset_batch_forms_and_class_weight():
    class Forms(kerasish.utils.PyDataset):
        def __init__(self):
            self.size = 3   # no super().__init__(): Keras warns

        def __len__(self):
            return 3

        def __getitem__(self, index):
            x = np.ones((2, 1), "float32")
            return [x, (x, np.array([0, 1])), {"in": x}][index]

    with pytest.warns(UserWarning, match="should call `super"):
        adapter = PyDatasetAdapter(Forms(), class_weight={1: 4.0})
    batches = list(adapter.get_numpy_iterator())
    assert len(batches[0]) == 1 and isinstance(batches[2][0], dict)
    assert batches[1][2].tolist() == [1.0, 4.0]


def test_py_dataset_rejects_bad_batches_and_arguments():
    class Bad(Batches):
        def __getitem__(self, index):
            return "not a batch"

    with pytest.raises(ValueError, match="must return a tuple or a dict"):
        PyDatasetAdapter(Bad()).peek_batch()
    with pytest.raises(ValueError, match="`y` should not be passed"):
        get_data_adapter(Batches(), Y)
    with pytest.raises(ValueError, match="has length 0"):
        PyDatasetAdapter(Batches(0)).peek_batch()


def test_sequence_is_py_dataset():
    assert kerasish.utils.Sequence is kerasish.utils.PyDataset


def test_missing_len_and_num_batches_explains_what_to_implement():
    class NoLength(kerasish.utils.PyDataset):
        def __getitem__(self, index):
            return (np.zeros((1, 1)),)

    with pytest.raises(NotImplementedError, match="num_batches"):
        NoLength().num_batches


class _SetUpInEpochBegin(kerasish.utils.PyDataset):
    """Builds its batch order in `on_epoch_begin`, as the PyDataset docs
    allow; reading a batch before that would fail."""

    def __init__(self, events):
        super().__init__()
        self.events = events

    def __len__(self):
        return 2

    def on_epoch_begin(self):
        self.order = [1, 0]
        self.events.append("begin")

    def on_epoch_end(self):
        del self.order
        self.events.append("end")

    def __getitem__(self, index):
        self.events.append(f"get{self.order[index]}")
        x = np.full((2, 3), float(self.order[index]), "float32")
        return x, x[:, :1]


def test_py_dataset_build_read_is_framed_by_epoch_hooks():
    # Keras 3.15 gives the same sequence: its build-time read of the first
    # batch runs inside on_epoch_begin/on_epoch_end.
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(1)])
    model.compile("sgd", "mse")
    events = []
    model.evaluate(_SetUpInEpochBegin(events), verbose=0)
    assert events == ["begin", "get1", "end", "begin", "get1", "get0", "end"]
    events = []
    model2 = kerasish.Sequential([kerasish.Input((3,)),
                                  kerasish.layers.Dense(1)])
    model2.compile("sgd", "mse")
    model2.fit(_SetUpInEpochBegin(events), epochs=1, shuffle=False,
               verbose=0)
    assert events == ["begin", "get1", "end", "begin", "get1", "get0", "end"]
