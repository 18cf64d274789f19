"""Batches from a Python generator, iterator or re-iterable object.

A generator (or any iterator) is single-pass: the first batch is read
ahead to build the model and handed out first, once; when the generator is
exhausted it stays exhausted. (Keras re-yields its peeked batches at the
start of every later pass, so epochs after the first silently train on two
stale batches; kerasish does not.) An object that is iterable but not an
iterator (its `__iter__` starts over) gives a fresh pass every epoch.

Each yielded batch must be a tuple `(x,)`, `(x, y)` or
`(x, y, sample_weight)`, as Keras requires (a bare array or list would be
ambiguous between one input and several).
"""
from kerasish.engine.data_adapters.array_data_adapter import convert_arrays
from kerasish.engine.data_adapters.data_adapter import DataAdapter

_TUPLE_MESSAGE = (
    "When passing a Python generator to a Keras model, the generator must "
    "return a tuple, either (input,) or (inputs, targets) or (inputs, "
    "targets, sample_weights). Received: {batch}")


def is_iterator(x):
    return hasattr(x, "__next__") and hasattr(x, "__iter__")


def standardize_batch(batch):
    """Check a yielded batch and convert its arrays to numpy."""
    if not isinstance(batch, tuple) or not 1 <= len(batch) <= 3:
        raise ValueError(_TUPLE_MESSAGE.format(batch=f"{batch!r:.300}"))
    return tuple(convert_arrays(part, name) for part, name in
                 zip(batch, ("x", "y", "sample_weight")))


class GeneratorDataAdapter(DataAdapter):
    """Adapter of generators, iterators and re-iterable objects.

    Args:
        source: A generator/iterator (single pass) or an iterable whose
            `__iter__` starts a new pass.
    """

    def __init__(self, source):
        self._single_pass = is_iterator(source)
        self._source = source
        first = self._read_first(iter(source))
        if self._single_pass:
            self._pending_first = [first]
        self._peeked = first
        self.exhausted = False

    @staticmethod
    def _read_first(iterator):
        try:
            first = next(iterator)
        except StopIteration:
            raise ValueError(
                "When passing a Python generator to a Keras model, the "
                "generator must yield at least one batch. Received an "
                "empty generator.") from None
        return standardize_batch(first)

    @property
    def restartable(self):
        return not self._single_pass

    def get_numpy_iterator(self, epoch=0):
        if not self._single_pass:
            return (standardize_batch(b) for b in iter(self._source))
        return self._single_pass_iterator()

    def _single_pass_iterator(self):
        first, self._pending_first = self._pending_first, []
        yield from first
        for batch in self._source:
            yield standardize_batch(batch)
        self.exhausted = True

    def peek_batch(self):
        return self._peeked


class CachingDataAdapter(DataAdapter):
    """Replays the batches a single-pass source gave on its first pass.

    Used for validation data: a generator passed as `validation_data` is
    read once, and every later validation sees the same batches (a fixed
    validation set) instead of an exhausted generator.
    """

    def __init__(self, adapter):
        self.adapter = adapter
        self._cache = None

    @property
    def num_batches(self):
        return None if self._cache is None else len(self._cache)

    @property
    def restartable(self):
        return True

    def get_numpy_iterator(self, epoch=0):
        if self._cache is not None:
            return iter(list(self._cache))
        self._cache = []
        return self._recording(self.adapter.get_numpy_iterator(epoch))

    def _recording(self, iterator):
        for batch in iterator:
            self._cache.append(batch)
            yield batch

    def peek_batch(self):
        return self.adapter.peek_batch()
