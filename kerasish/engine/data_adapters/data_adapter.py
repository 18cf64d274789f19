"""`DataAdapter`: the interface every input form is turned into."""


class DataAdapter:
    """One source of batches for fit/evaluate/predict.

    Subclasses yield batches (tuples `(x,)`, `(x, y)` or
    `(x, y, sample_weight)` of numpy structures) from
    `get_numpy_iterator(epoch)` and report `num_batches` (None if unknown).
    """

    @property
    def num_batches(self):
        return None

    @property
    def batch_size(self):
        return None

    @property
    def has_partial_batch(self):
        return None

    @property
    def partial_batch_size(self):
        return None

    @property
    def restartable(self):
        """Whether a new pass can start after one ends (False for a
        single-pass generator)."""
        return True

    def get_numpy_iterator(self, epoch=0):
        raise NotImplementedError(
            f"{type(self).__name__} must implement get_numpy_iterator().")

    def peek_batch(self):
        """The first batch (used to build the model before training)."""
        return next(iter(self.get_numpy_iterator(0)))

    def on_epoch_begin(self):
        pass

    def on_epoch_end(self):
        pass
