"""`EpochIterator`: the batches of one epoch, with `steps_per_epoch`.

Without `steps_per_epoch` every epoch is one full pass. With it, batches are
taken from a pass that continues across epochs, as in Keras (so the first
pass gives Keras's batches); where Keras then runs out of data and cuts
epochs short, kerasish starts the next pass (reshuffled) instead. Data that
is truly exhausted (a finite generator) ends the epoch with Keras's warning.
"""
import warnings

_RAN_OUT = (
    "Your input ran out of data; interrupting training. Make sure that your "
    "dataset or generator can generate at least `steps_per_epoch * epochs` "
    "batches. You may need to use the `.repeat()` function when building "
    "your dataset.")


class EpochIterator:
    """Iterate `(step, batch)` pairs epoch by epoch.

    Args:
        adapter: A `DataAdapter`.
        steps_per_epoch: Batches per epoch, or None for one full pass.
    """

    def __init__(self, adapter, steps_per_epoch=None):
        self.adapter = adapter
        self.steps_per_epoch = steps_per_epoch
        self._pass = 0
        self._iterator = None
        self._consumed = 0
        self.exhausted = False

    @property
    def num_batches(self):
        if self.steps_per_epoch:
            return self.steps_per_epoch
        return self.adapter.num_batches

    def _restartable(self):
        return self.adapter.num_batches is not None

    def _next_batch(self):
        if self._iterator is None:
            self._iterator = iter(self.adapter.get_numpy_iterator(self._pass))
            self._consumed = 0
        try:
            batch = next(self._iterator)
        except StopIteration:
            self._iterator = None
            self._pass += 1
            raise
        self._consumed += 1
        return batch

    def enumerate_epoch(self, epoch=None):
        """Yield `(step, batch)` for one epoch."""
        self.exhausted = False
        if not self.steps_per_epoch:
            self.adapter.on_epoch_begin()
            self._iterator = None
            for step, batch in enumerate(
                    self.adapter.get_numpy_iterator(self._pass)):
                yield step, batch
            self._pass += 1
            self.adapter.on_epoch_end()
            return
        for step in range(self.steps_per_epoch):
            batch = self._take()
            if batch is None:
                self._warn_exhausted()
                return
            yield step, batch

    def _take(self):
        """The next batch, starting a new pass if the data allows it."""
        try:
            return self._next_batch()
        except StopIteration:
            if not self._restartable():
                return None
        try:
            return self._next_batch()
        except StopIteration:
            return None

    def _warn_exhausted(self):
        self.exhausted = True
        warnings.warn(_RAN_OUT, stacklevel=2)

    # -- state for bit-exact resume ---------------------------------------------
    def get_state(self):
        return {"pass": self._pass, "consumed": self._consumed
                if self._iterator is not None else 0,
                "seed": getattr(self.adapter, "seed", None)}

    def set_state(self, state):
        if getattr(self.adapter, "seed", None) is not None and \
                state.get("seed") is not None:
            self.adapter.seed = state["seed"]
        self._pass = state["pass"]
        self._iterator = None
        for _ in range(state.get("consumed", 0)):
            self._next_batch()
