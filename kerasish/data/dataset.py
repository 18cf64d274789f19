"""`Dataset`: a small tf.data-style input pipeline over numpy structures.

A dataset is a recipe: iterating it (`for element in ds`) runs the pipeline
from the start, so the same object serves every epoch. Elements are numpy
arrays (or tuples/dicts of them); transformations compose lazily:

    ds = (Dataset.from_tensor_slices((x, y))
          .shuffle(1000, seed=1)
          .map(lambda x, y: (x / 255.0, y))
          .batch(32)
          .prefetch(2))
    model.fit(ds, epochs=3)

As in tf.data, `map`/`filter` functions receive a tuple element unpacked as
positional arguments, `shuffle` keeps a buffer of `buffer_size` elements and
draws from it (with a new order on each iteration unless
`reshuffle_each_iteration=False`), and `prefetch` fills a buffer from a
background thread.
"""
import itertools
import queue
import threading

import numpy as np

from kerasish import tree
from kerasish.backend import random

INFINITE = -1
UNKNOWN = -2


def _to_numpy(value):
    if hasattr(value, "_value"):
        return np.asarray(value._value)
    if isinstance(value, (np.ndarray, np.generic)):
        return value
    return np.asarray(value)


def _as_components(structure):
    """Arrays of a slices/tensors structure: as in tf.data, tuples and dicts
    are structure while a list is one tensor."""
    if isinstance(structure, dict):
        return {k: _as_components(v) for k, v in structure.items()}
    if isinstance(structure, tuple):
        return tuple(_as_components(v) for v in structure)
    return _to_numpy(structure)


def _normalize(element):
    return tree.map_structure(_to_numpy, element) if tree.is_nested(
        element) else _to_numpy(element)


class Dataset:
    """A re-iterable pipeline of elements (see the module docstring).

    Build one with `from_tensor_slices`, `from_tensors`, `from_generator`,
    `range` or `zip`, then chain transformations.

    Example:

    >>> x = np.arange(6, dtype="float32").reshape(6, 1)
    >>> ds = kerasish.data.Dataset.from_tensor_slices((x, x * 2)).batch(4)
    >>> [tuple(batch[0].shape) for batch in ds]
    [(4, 1), (2, 1)]
    """

    def __init__(self, make_iterator, cardinality=UNKNOWN):
        self._make_iterator = make_iterator
        self._cardinality = cardinality

    # -- sources --------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors):
        """One element per slice along the first axis of `tensors`.

        Example:

        >>> ds = Dataset.from_tensor_slices((np.array([1, 2, 3]),
        ...                                  np.array([4, 5, 6])))
        >>> [(int(a), int(b)) for a, b in ds]
        [(1, 4), (2, 5), (3, 6)]
        """
        data = _as_components(tensors)
        lengths = {len(a) for a in tree.flatten(data)}
        if len(lengths) != 1:
            raise ValueError(
                "Dataset.from_tensor_slices: all components must have the "
                "same length along the first axis. Received lengths "
                f"{sorted(lengths)}")
        n = lengths.pop()
        return _Slices(data, lambda: iter(range(n)), n)

    @staticmethod
    def from_tensors(tensors):
        """A dataset with `tensors` as its single element."""
        element = _as_components(tensors)
        return Dataset(lambda: iter([element]), 1)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None,
                       args=None, output_signature=None):
        """Elements from `generator(*args)`, called anew per iteration."""
        if not callable(generator):
            raise TypeError(
                "`generator` must be a callable that returns an iterator "
                "(a generator function), so the dataset can be iterated "
                f"more than once. Received: {generator!r}")

        def iterate():
            for element in generator(*(args or ())):
                yield _normalize(element)
        return Dataset(iterate, UNKNOWN)

    @staticmethod
    def range(*args):
        """Like Python's `range`, as a dataset of int64 scalars."""
        values = range(*args)
        return Dataset(lambda: (np.int64(v) for v in values), len(values))

    @staticmethod
    def zip(datasets):
        """Elements are tuples (or dicts) of the given datasets' elements."""
        if isinstance(datasets, dict):
            keys, parts = list(datasets), list(datasets.values())
        else:
            keys, parts = None, list(datasets)
        cards = [d._cardinality for d in parts]
        finite = [c for c in cards if c >= 0]

        def iterate():
            for items in zip(*parts):
                yield dict(zip(keys, items)) if keys else tuple(items)
        card = min(finite) if finite else (
            INFINITE if all(c == INFINITE for c in cards) else UNKNOWN)
        return Dataset(iterate, card)

    # -- iteration ------------------------------------------------------------
    def __iter__(self):
        return iter(self._make_iterator())

    def as_numpy_iterator(self):
        return iter(self)

    def cardinality(self):
        """Number of elements; `INFINITE` (-1) or `UNKNOWN` (-2)."""
        return self._cardinality

    def __len__(self):
        if self._cardinality < 0:
            raise TypeError("The dataset length is infinite or unknown.")
        return self._cardinality

    # -- transformations ------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None):
        """Apply `map_func` to each element (tuples unpacked as args)."""
        def iterate():
            for element in self:
                out = map_func(*element) if isinstance(element, tuple) \
                    else map_func(element)
                yield _normalize(out)
        return Dataset(iterate, self._cardinality)

    def filter(self, predicate):
        """Keep the elements for which `predicate` is true."""
        def iterate():
            for element in self:
                keep = predicate(*element) if isinstance(element, tuple) \
                    else predicate(element)
                if bool(_to_numpy(keep)):
                    yield element
        return Dataset(iterate, UNKNOWN if self._cardinality >= 0
                       else self._cardinality)

    def batch(self, batch_size, drop_remainder=False):
        """Stack consecutive elements into batches of `batch_size`."""
        if int(batch_size) < 1:
            raise ValueError("`batch_size` must be a positive integer. "
                             f"Received: batch_size={batch_size}")
        batch_size = int(batch_size)

        def iterate():
            it = iter(self)
            while True:
                chunk = list(itertools.islice(it, batch_size))
                if not chunk or (drop_remainder and
                                 len(chunk) < batch_size):
                    return
                yield _stack(chunk)
        out = Dataset(iterate, _batched_cardinality(
            self._cardinality, batch_size, drop_remainder))
        out._batch_size = batch_size    # as tf.data: split_dataset reads it
        return out

    def unbatch(self):
        """Split each element along its first axis."""
        def iterate():
            for element in self:
                n = len(tree.flatten(element)[0])
                for i in range(n):
                    yield tree.map_structure(lambda a: a[i], element)
        return Dataset(iterate, UNKNOWN)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        """Draw elements at random from a buffer of `buffer_size`."""
        if int(buffer_size) < 1:
            raise ValueError("`buffer_size` must be >= 1. Received: "
                             f"buffer_size={buffer_size}")
        base = int(random.global_generator().rng.integers(2**31 - 1)) \
            if seed is None else int(seed)
        counter = itertools.count()

        def iterate():
            epoch = next(counter) if reshuffle_each_iteration else 0
            return _buffer_shuffle(iter(self), int(buffer_size),
                                   np.random.default_rng([base, epoch]))
        return Dataset(iterate, self._cardinality)

    def repeat(self, count=None):
        """Repeat the dataset `count` times (forever if None or -1)."""
        forever = count is None or count < 0

        def iterate():
            rounds = itertools.count() if forever else range(count)
            for _ in rounds:
                empty = True
                for element in self:
                    empty = False
                    yield element
                if empty:
                    return
        if forever:
            card = INFINITE if self._cardinality != 0 else 0
        else:
            card = self._cardinality * count if self._cardinality >= 0 \
                else self._cardinality
        return Dataset(iterate, card)

    def take(self, count):
        """The first `count` elements (all if count == -1)."""
        if count < 0:
            return self
        card = count if self._cardinality in (INFINITE,) else (
            min(count, self._cardinality) if self._cardinality >= 0
            else UNKNOWN)
        return Dataset(lambda: itertools.islice(iter(self), count), card)

    def skip(self, count):
        """All but the first `count` elements."""
        card = max(self._cardinality - count, 0) \
            if self._cardinality >= 0 else self._cardinality
        return Dataset(lambda: itertools.islice(iter(self), count, None),
                       card)

    def prefetch(self, buffer_size=1):
        """Prepare up to `buffer_size` elements ahead on a background thread.
        """
        size = 2 if buffer_size is None or buffer_size < 1 else buffer_size
        return Dataset(lambda: _prefetch(self, size), self._cardinality)

    def cache(self, filename=""):
        """Keep the elements in memory after the first full iteration."""
        store = []
        complete = [False]

        def iterate():
            if complete[0]:
                yield from store
                return
            store.clear()
            for element in self:
                store.append(element)
                yield element
            complete[0] = True
        return Dataset(iterate, self._cardinality)

    def enumerate(self, start=0):
        """Pair each element with its index: `(index, element)`."""
        def iterate():
            for i, element in enumerate(self, start):
                yield np.int64(i), element
        return Dataset(iterate, self._cardinality)

    def concatenate(self, dataset):
        """This dataset's elements followed by `dataset`'s."""
        a, b = self._cardinality, dataset._cardinality
        card = a + b if a >= 0 and b >= 0 else (
            INFINITE if INFINITE in (a, b) else UNKNOWN)
        return Dataset(lambda: itertools.chain(self, dataset), card)

    def __repr__(self):
        return f"<Dataset cardinality={self._cardinality}>"


class _Slices(Dataset):
    """Slices of in-memory arrays, tracked as row indices.

    Order-only transformations (shuffle, repeat, take, skip) act on the
    indices, and `batch` gathers each batch with one `np.take` per array
    instead of slicing and re-stacking every element. The elements and
    their order are exactly those of the generic pipeline.
    """

    def __init__(self, data, make_indices, cardinality):
        self._data = data
        self._make_indices = make_indices
        self._leaves = tree.flatten(data)
        super().__init__(self._elements, cardinality)

    def _elements(self):
        for i in self._make_indices():
            yield tree.map_structure(lambda a: a[i], self._data)

    def _with_indices(self, generic):
        """Apply an order-only transformation `generic` to the indices."""
        indices = Dataset(self._make_indices, self._cardinality)
        out = generic(indices)
        return _Slices(self._data, lambda: iter(out), out._cardinality)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        return self._with_indices(lambda d: Dataset.shuffle(
            d, buffer_size, seed, reshuffle_each_iteration))

    def repeat(self, count=None):
        return self._with_indices(lambda d: Dataset.repeat(d, count))

    def take(self, count):
        return self._with_indices(lambda d: Dataset.take(d, count))

    def skip(self, count):
        return self._with_indices(lambda d: Dataset.skip(d, count))

    def batch(self, batch_size, drop_remainder=False):
        if int(batch_size) < 1:
            raise ValueError("`batch_size` must be a positive integer. "
                             f"Received: batch_size={batch_size}")
        batch_size = int(batch_size)

        def iterate():
            it = self._make_indices()
            while True:
                rows = np.fromiter(itertools.islice(it, batch_size),
                                   dtype=np.int64)
                if not rows.size or (drop_remainder and
                                     rows.size < batch_size):
                    return
                leaves = [np.take(a, rows, axis=0) for a in self._leaves]
                yield tree.pack_sequence_as(self._data, leaves) \
                    if tree.is_nested(self._data) else leaves[0]
        out = Dataset(iterate, _batched_cardinality(
            self._cardinality, batch_size, drop_remainder))
        out._batch_size = batch_size    # as tf.data: split_dataset reads it
        return out


def _stack(elements):
    first = elements[0]
    flat = [tree.flatten(e) for e in elements]
    stacked = [np.stack([f[i] for f in flat]) for i in range(len(flat[0]))]
    return tree.pack_sequence_as(first, stacked) if tree.is_nested(first) \
        else stacked[0]


def _batched_cardinality(card, batch_size, drop_remainder):
    if card < 0:
        return card
    return card // batch_size if drop_remainder else -(-card // batch_size)


def _buffer_shuffle(iterator, buffer_size, rng):
    buffer = list(itertools.islice(iterator, buffer_size))
    for element in iterator:
        index = int(rng.integers(len(buffer)))
        yield buffer[index]
        buffer[index] = element
    order = rng.permutation(len(buffer))
    for index in order:
        yield buffer[index]


_DONE = object()


def _prefetch(dataset, size):
    q = queue.Queue(maxsize=size)
    stop = threading.Event()

    def produce():
        try:
            for element in dataset:
                while not stop.is_set():
                    try:
                        q.put(element, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(_DONE)
        except BaseException as e:  # noqa: BLE001 - re-raised in consumer
            q.put(_Failure(e))

    thread = threading.Thread(target=produce, daemon=True)
    thread.start()
    try:
        while True:
            item = q.get()
            if item is _DONE:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item
    finally:
        stop.set()


class _Failure:
    def __init__(self, error):
        self.error = error
