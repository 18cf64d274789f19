"""Batches from a `PyDataset` (or the older `Sequence`), by index.

Each pass asks for `dataset[i]` over `range(num_batches)` (shuffled per
pass when `shuffle` is true, from a seed fixed at construction), or over
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


class PyDatasetAdapter(DataAdapter):
    """Adapter of a `PyDataset`.

    Args:
        dataset: The `PyDataset`.
        class_weight: Optional `{class: weight}` turned into per-sample
            weights of `(x, y)` batches.
        shuffle: Permute the batch indices every pass.
        seed: Seed of the permutations (drawn from the global generator
            if None).
    """

    def __init__(self, dataset, class_weight=None, shuffle=False,
                 seed=None):
        self.dataset = dataset
        self.class_weight = class_weight
        self._num_batches = dataset.num_batches
        self._workers = dataset.workers
        self._use_multiprocessing = dataset.use_multiprocessing
        self._queue_size = dataset.max_queue_size
        self.shuffle = bool(shuffle) and self._num_batches is not None
        if seed is None:
            from kerasish.backend import random
            seed = int(random.global_generator().rng.integers(2**31 - 1))
        self.seed = int(seed)
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

    def _indices(self, epoch):
        if self._num_batches is None:
            return itertools.count()
        if self.shuffle:
            rng = np.random.default_rng([self.seed, int(epoch)])
            return rng.permutation(self._num_batches).tolist()
        return range(self._num_batches)

    def get_numpy_iterator(self, epoch=0):
        dataset, workers = self.dataset, self._workers
        indices = self._indices(epoch)
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
            self._peeked = self._standardize(self.dataset[0])
        return self._peeked

    def on_epoch_begin(self):
        self.dataset.on_epoch_begin()

    def on_epoch_end(self):
        self.dataset.on_epoch_end()
