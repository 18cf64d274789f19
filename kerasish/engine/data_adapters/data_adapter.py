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
        """The first batch (used to build the model before training),
        read without touching any random generator."""
        return next(iter(self.get_numpy_iterator(0)))

    def peek_pass(self):
        """A batch read the way Keras reads one to build a model before
        `fit`: a pass is started (making its shuffle draws) and dropped."""
        return self.peek_batch()

    def shuffle_state(self):
        """What replays the current pass's shuffle (None if unshuffled)."""
        return None

    def replay_shuffle(self, state):
        """Make the next pass repeat the shuffle `shuffle_state` saw."""

    def on_epoch_begin(self):
        pass

    def on_epoch_end(self):
        pass
