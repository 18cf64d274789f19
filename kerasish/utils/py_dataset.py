"""`PyDataset` (and its old name `Sequence`): batches by index.

Subclass it, implement `__len__` (or the `num_batches` property; None means
an infinite dataset) and `__getitem__(index)` returning one batch
`(x,)`, `(x, y)` or `(x, y, sample_weight)` (or a dict of inputs), then
pass it to `fit`, `evaluate` or `predict`. Batches may be prepared ahead
by `workers` threads (or processes with `use_multiprocessing=True`),
keeping at most `max_queue_size` of them in flight; they arrive in order.
"""
import itertools
import warnings

_NUM_BATCHES_MESSAGE = (
    "You need to implement the `num_batches` property:\n\n"
    "@property\ndef num_batches(self):\n  return ...")


class PyDataset:
    """Base class of datasets that produce batches by index.

    Args:
        workers: Number of workers preparing batches ahead of training.
            Defaults to 1 (batches are made on demand, in the caller's
            thread). With more workers, `__getitem__` must be thread-safe.
        use_multiprocessing: Use worker processes instead of threads
            (forked, so the dataset needs no pickling; batches are sent
            back pickled). Falls back to threads, with a warning, where
            `fork` is unavailable. Defaults to False.
        max_queue_size: Maximum number of batches prepared ahead.
            Defaults to 10.

    Example:

    >>> import numpy as np
    >>> class Squares(PyDataset):
    ...     def __init__(self, n, batch_size, **kwargs):
    ...         super().__init__(**kwargs)
    ...         self.x = np.arange(n, dtype="float32")[:, None]
    ...         self.batch_size = batch_size
    ...     def __len__(self):
    ...         return -(-len(self.x) // self.batch_size)
    ...     def __getitem__(self, index):
    ...         x = self.x[index * self.batch_size:
    ...                    (index + 1) * self.batch_size]
    ...         return x, x ** 2
    >>> data = Squares(10, batch_size=4)
    >>> data.num_batches, data[2][1].ravel().tolist()
    (3, [64.0, 81.0])
    """

    def __init__(self, workers=1, use_multiprocessing=False,
                 max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _warn_if_super_not_called(self):
        missing = [name for name in ("_workers", "_use_multiprocessing",
                                     "_max_queue_size")
                   if name not in self.__dict__]
        if not missing:
            return
        self._workers = self.__dict__.get("_workers", 1)
        self._use_multiprocessing = self.__dict__.get(
            "_use_multiprocessing", False)
        self._max_queue_size = self.__dict__.get("_max_queue_size", 10)
        warnings.warn(
            "Your `PyDataset` class should call `super().__init__(**kwargs)` "
            "in its constructor. `**kwargs` can include `workers`, "
            "`use_multiprocessing`, `max_queue_size`. Do not pass these "
            "arguments to `fit()`, as they will be ignored.", stacklevel=3)

    @property
    def workers(self):
        """Number of workers preparing batches ahead."""
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        """Whether the workers are processes."""
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        """Maximum number of batches prepared ahead."""
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        """Return batch number `index` (implemented by subclasses)."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement `__getitem__(index)`, "
            "returning one batch.")

    def __iter__(self):
        count = self.num_batches
        indices = range(count) if count is not None else itertools.count()
        for index in indices:
            yield self[index]

    @property
    def num_batches(self):
        """Number of batches per epoch (`len(self)`); None if infinite."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError(_NUM_BATCHES_MESSAGE)

    def on_epoch_begin(self):
        """Called at the start of every epoch (or evaluation pass)."""

    def on_epoch_end(self):
        """Called at the end of every epoch (shuffle here if you like)."""


Sequence = PyDataset
