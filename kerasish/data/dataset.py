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
from kerasish.data.eager_array import wrap
from kerasish.data.padding import pad_stack

INFINITE = -1
UNKNOWN = -2
# tf.data.AUTOTUNE: accepted wherever a parallelism or buffer size is.
AUTOTUNE = -1


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
    def zip(*args, datasets=None, name=None):
        """Elements with the structure of the given datasets, holding one
        element of each; ends with the shortest.

        Args:
            *args: Datasets, or one (nested) tuple or dict of datasets.
            datasets: The same as one positional structure (TF's keyword).
            name: Unused (tf.data's op name).

        Example:

        >>> a, b = Dataset.range(3), Dataset.range(10, 12)
        >>> [(int(x), int(y)) for x, y in Dataset.zip(a, b)]
        [(0, 10), (1, 11)]
        >>> [int(e["b"]) for e in Dataset.zip({"a": a, "b": b})]
        [10, 11]
        """
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set. "
                            f"Received: args={args}, datasets={datasets}")
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        parts = tree.flatten(datasets)
        if not parts or not all(isinstance(d, Dataset) for d in parts):
            raise TypeError("Dataset.zip expected datasets (or a nested "
                            "structure of datasets). Received: "
                            f"datasets={datasets!r}")
        cards = [d._cardinality for d in parts]
        finite = [c for c in cards if c >= 0]

        def iterate():
            for items in zip(*(d._raw() for d in parts)):
                yield tree.pack_sequence_as(datasets, list(items))
        # tf.data's rule: any unknown part makes the zip unknown.
        card = UNKNOWN if UNKNOWN in cards else (
            min(finite) if finite else INFINITE)
        return Dataset(iterate, card)

    # -- iteration ------------------------------------------------------------
    def __iter__(self):
        """Elements whose arrays also offer `.numpy()`, as tf.data's eager
        tensors do (`EagerArray`; numpy arrays to numpy code)."""
        for element in self._make_iterator():
            yield tree.map_structure(wrap, element) if tree.is_nested(
                element) else wrap(element)

    def _raw(self):
        """The elements as plain numpy arrays (what stages pass along)."""
        return iter(self._make_iterator())

    def as_numpy_iterator(self):
        """An iterator over the elements as plain numpy arrays.

        Example:

        >>> ds = Dataset.from_tensor_slices(np.array([[1, 2], [3, 4]]))
        >>> [type(a).__name__ for a in ds.as_numpy_iterator()]
        ['ndarray', 'ndarray']
        """
        return self._raw()

    def cardinality(self):
        """Number of elements; `INFINITE` (-1) or `UNKNOWN` (-2)."""
        return self._cardinality

    def __len__(self):
        if self._cardinality < 0:
            raise TypeError("The dataset length is infinite or unknown.")
        return self._cardinality

    # -- transformations ------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None,
            name=None):
        """Apply `map_func` to each element (tuples unpacked as args)."""
        def iterate():
            for element in self._raw():
                out = map_func(*element) if isinstance(element, tuple) \
                    else map_func(element)
                yield _normalize(out)
        return Dataset(iterate, self._cardinality)

    def filter(self, predicate):
        """Keep the elements for which `predicate` is true."""
        def iterate():
            for element in self._raw():
                keep = predicate(*element) if isinstance(element, tuple) \
                    else predicate(element)
                if bool(_to_numpy(keep)):
                    yield element
        return Dataset(iterate, UNKNOWN if self._cardinality >= 0
                       else self._cardinality)

    def batch(self, batch_size, drop_remainder=False,
              num_parallel_calls=None, deterministic=None, name=None):
        """Stack consecutive elements into batches of `batch_size`."""
        return self._batched(batch_size, drop_remainder, _stack)

    def _batched(self, batch_size, drop_remainder, stack):
        """Batches of `batch_size` consecutive elements, each made by
        `stack(list_of_elements)`."""
        if int(batch_size) < 1:
            raise ValueError("`batch_size` must be a positive integer. "
                             f"Received: batch_size={batch_size}")
        batch_size = int(batch_size)

        def iterate():
            it = self._raw()
            while True:
                chunk = list(itertools.islice(it, batch_size))
                if not chunk or (drop_remainder and
                                 len(chunk) < batch_size):
                    return
                yield stack(chunk)
        out = Dataset(iterate, _batched_cardinality(
            self._cardinality, batch_size, drop_remainder))
        out._batch_size = batch_size    # as tf.data: split_dataset reads it
        return out

    def padded_batch(self, batch_size, padded_shapes=None,
                     padding_values=None, drop_remainder=False, name=None):
        """Batch elements of different shapes, padding each component at
        the end of its axes (as `tf.data.Dataset.padded_batch`).

        Args:
            batch_size: Positive int, elements per batch.
            padded_shapes: Optional shape per component (the element's
                structure); `None` or `-1` in a shape pads that axis to the
                longest in the batch. Defaults to `None`: every axis is
                padded to the longest.
            padding_values: Optional scalar per component (or one scalar
                for all). Defaults to `None`: 0, or `""` for strings.
            drop_remainder: Whether to drop a last, smaller batch.
                Defaults to `False`.
            name: Unused (tf.data's op name).

        Example:

        >>> ds = Dataset.from_generator(
        ...     lambda: (np.ones(n, "int64") for n in (1, 3, 2)))
        >>> [b.tolist() for b in ds.padded_batch(2)]
        [[[1, 0, 0], [1, 1, 1]], [[1, 1]]]
        >>> next(iter(ds.padded_batch(3, padded_shapes=[4],
        ...                           padding_values=-1))).shape
        (3, 4)
        """
        return self._batched(
            batch_size, drop_remainder,
            lambda chunk: pad_stack(chunk, padded_shapes, padding_values))

    def unbatch(self, name=None):
        """Split each element along its first axis."""
        def iterate():
            for element in self._raw():
                n = len(tree.flatten(element)[0])
                for i in range(n):
                    yield tree.map_structure(lambda a: a[i], element)
        return Dataset(iterate, UNKNOWN)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True,
                name=None):
        """Draw elements at random from a buffer of `buffer_size`."""
        if int(buffer_size) < 1:
            raise ValueError("`buffer_size` must be >= 1. Received: "
                             f"buffer_size={buffer_size}")
        base = int(random.global_generator().rng.integers(2**31 - 1)) \
            if seed is None else int(seed)
        counter = itertools.count()

        def iterate():
            epoch = next(counter) if reshuffle_each_iteration else 0
            return _buffer_shuffle(self._raw(), int(buffer_size),
                                   np.random.default_rng([base, epoch]))
        return Dataset(iterate, self._cardinality)

    def repeat(self, count=None):
        """Repeat the dataset `count` times (forever if None or -1)."""
        forever = count is None or count < 0

        def iterate():
            rounds = itertools.count() if forever else range(count)
            for _ in rounds:
                empty = True
                for element in self._raw():
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

    def take(self, count, name=None):
        """The first `count` elements (all if count == -1)."""
        if count < 0:
            return self
        card = count if self._cardinality in (INFINITE,) else (
            min(count, self._cardinality) if self._cardinality >= 0
            else UNKNOWN)
        return Dataset(lambda: itertools.islice(self._raw(), count), card)

    def skip(self, count):
        """All but the first `count` elements."""
        card = max(self._cardinality - count, 0) \
            if self._cardinality >= 0 else self._cardinality
        return Dataset(lambda: itertools.islice(self._raw(), count, None),
                       card)

    def prefetch(self, buffer_size=1, name=None):
        """Prepare up to `buffer_size` elements ahead on a background thread.
        """
        size = 2 if buffer_size is None or buffer_size < 1 else buffer_size
        return Dataset(lambda: _prefetch(self, size), self._cardinality)

    def cache(self, filename="", name=None):
        """Keep the elements in memory after the first full iteration."""
        store = []
        complete = [False]

        def iterate():
            if complete[0]:
                yield from store
                return
            store.clear()
            for element in self._raw():
                store.append(element)
                yield element
            complete[0] = True
        return Dataset(iterate, self._cardinality)

    def enumerate(self, start=0):
        """Pair each element with its index: `(index, element)`."""
        def iterate():
            for i, element in enumerate(self._raw(), start):
                yield np.int64(i), element
        return Dataset(iterate, self._cardinality)

    def concatenate(self, dataset):
        """This dataset's elements followed by `dataset`'s."""
        a, b = self._cardinality, dataset._cardinality
        card = a + b if a >= 0 and b >= 0 else (
            INFINITE if INFINITE in (a, b) else UNKNOWN)
        return Dataset(lambda: itertools.chain(self._raw(), dataset._raw()),
                       card)

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
        return _Slices(self._data, out._raw, out._cardinality)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True,
                name=None):
        return self._with_indices(lambda d: Dataset.shuffle(
            d, buffer_size, seed, reshuffle_each_iteration))

    def repeat(self, count=None):
        return self._with_indices(lambda d: Dataset.repeat(d, count))

    def take(self, count, name=None):
        return self._with_indices(lambda d: Dataset.take(d, count))

    def skip(self, count):
        return self._with_indices(lambda d: Dataset.skip(d, count))

    def batch(self, batch_size, drop_remainder=False,
              num_parallel_calls=None, deterministic=None, name=None):
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
            for element in dataset._raw():
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
