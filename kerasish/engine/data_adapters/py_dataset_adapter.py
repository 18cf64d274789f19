"""Batches from a `PyDataset` (or the older `Sequence`), by index.

Each pass asks for `dataset[i]` over `range(num_batches)` (shuffled per
pass when `shuffle` is true, with Python's `random.shuffle` as Keras), or over
`0, 1, 2, ...` for an infinite dataset. With `workers > 1` (or
`use_multiprocessing`), batches are prepared ahead by a pool and still
arrive in order.
"""
import itertools

import numpy as np

from kerasish.engine.data_adapters import utils
from kerasish.engine.data_adapters.array_data_adapter import convert_arrays
from kerasish.engine.data_adapters.data_adapter import DataAdapter
from kerasish.engine.data_adapters.prefetch import prefetch
from kerasish.engine.data_adapters.shuffle_draws import ShuffleDraws


class PyDatasetAdapter(DataAdapter):
    """Adapter of a `PyDataset`.

    Args:
        dataset: The `PyDataset`.
        class_weight: Optional `{class: weight}` turned into per-sample
            weights of `(x, y)` batches.
        shuffle: Permute the batch indices every pass.
    """

    def __init__(self, dataset, class_weight=None, shuffle=False):
        self.dataset = dataset
        self.class_weight = class_weight
        self._num_batches = dataset.num_batches
        self._workers = dataset.workers
        self._use_multiprocessing = dataset.use_multiprocessing
        self._queue_size = dataset.max_queue_size
        self.shuffle = bool(shuffle) and self._num_batches is not None
        self._draws = ShuffleDraws("python")
        self._peeked = None

    @property
    def num_batches(self):
        return self._num_batches

    @property
    def restartable(self):
        return True

    def _standardize(self, batch):
        if isinstance(batch, dict):
            return (convert_arrays(batch, "x"),)
        if isinstance(batch, np.ndarray):
            batch = (batch,)
        if isinstance(batch, list):
            batch = tuple(batch)
        if not isinstance(batch, tuple) or len(batch) not in (1, 2, 3):
            raise ValueError(
                "PyDataset.__getitem__() must return a tuple or a dict. If "
                "a tuple, it must be ordered either (input,) or (inputs, "
                "targets) or (inputs, targets, sample_weights). Received: "
                f"{str(batch)[:100]}... of type {type(batch)}")
        batch = tuple(convert_arrays(part, name) for part, name in
                      zip(batch, ("x", "y", "sample_weight")))
        if self.class_weight is not None:
            if len(batch) == 3:
                raise ValueError("You cannot specify `class_weight` and "
                                 "`sample_weight` at the same time.")
            if len(batch) == 2:
                batch = batch + (utils.class_weight_to_sample_weights(
                    batch[1], self.class_weight),)
        return batch

    def _indices(self):
        if self._num_batches is None:
            return itertools.count()
        if self.shuffle:
            indices = list(range(self._num_batches))
            self._draws.rng().shuffle(indices)
            return indices
        return range(self._num_batches)

    def get_numpy_iterator(self, epoch=0):
        self._draws.new_pass()
        return self._batches()

    def _batches(self):
        dataset, workers = self.dataset, self._workers
        indices = self._indices()
        if workers > 1 or (workers > 0 and self._use_multiprocessing):
            batches = prefetch(dataset, indices, workers,
                               self._use_multiprocessing, self._queue_size)
        else:
            batches = (dataset[i] for i in indices)
        for batch in batches:
            yield self._standardize(batch)

    def peek_batch(self):
        if self._peeked is None:
            if self._num_batches == 0:
                raise ValueError("The PyDataset has length 0: it has no "
                                 "batch to train or evaluate on.")
            self._peeked = self._read_between_epochs(0)
        return self._peeked

    def peek_pass(self):
        if not self.shuffle or not self._num_batches:
            return self.peek_batch()
        self._draws.new_pass()
        return self._read_between_epochs(self._indices()[0])

    def _read_between_epochs(self, index):
        """`dataset[index]` read before training, framed by the dataset's
        epoch hooks as Keras frames its build-time read: a dataset that
        sets itself up in `on_epoch_begin` is ready, and sees the same
        `on_epoch_begin`/`on_epoch_end` calls as under Keras."""
        self.dataset.on_epoch_begin()
        try:
            return self._standardize(self.dataset[index])
        finally:
            self.dataset.on_epoch_end()

    def shuffle_state(self):
        return self._draws.get_state() if self.shuffle else None

    def replay_shuffle(self, state):
        self._draws.replay(state)

    def on_epoch_begin(self):
        self.dataset.on_epoch_begin()

    def on_epoch_end(self):
        self.dataset.on_epoch_end()
