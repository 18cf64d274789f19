"""`EpochIterator`: the batches of one epoch, with `steps_per_epoch`.

Without `steps_per_epoch` every epoch is one full pass over the data. With
it, batches come from a pass that continues across epochs, as in Keras (so
the first pass gives Keras's batches); where Keras then runs out of data
and cuts epochs short, kerasish starts the next pass (reshuffled) when the
data allows one (arrays, PyDatasets, re-iterable objects). A single-pass
generator that runs dry ends the epoch early with Keras's "ran out of
data" warning, and training stops after that epoch (the warning's
"interrupting training"); Keras instead keeps running epochs on the two
batches it read ahead. `adapter.on_epoch_begin/on_epoch_end` (a
PyDataset's hooks) run once around every epoch.

With `steps_per_execution=N` the loops run N batches between batch hooks
(`executions`); as in Keras, an epoch of `steps_per_epoch` steps then runs
whole executions, `ceil(steps_per_epoch / N) * N` batches while the data
lasts.
"""
import warnings
from kerasish.backend.common.global_state import capped_steps

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
        restart_each_epoch: Start every epoch from the beginning of the
            data and never go past its end (evaluation and prediction
            passes) instead of continuing the pass.
        steps_per_execution: Batches run between batch hooks (the
            model's `steps_per_execution`).
    """

    def __init__(self, adapter, steps_per_epoch=None,
                 restart_each_epoch=False, steps_per_execution=1):
        self.adapter = adapter
        # keras.config.set_max_steps_per_epoch caps every loop (debug runs).
        self.steps_per_epoch = capped_steps(steps_per_epoch,
                                            adapter.num_batches)
        self.restart_each_epoch = restart_each_epoch
        self.steps_per_execution = steps_per_execution
        self._pass = 0
        self._iterator = None
        self._consumed = 0
        self.exhausted = False

    @property
    def num_batches(self):
        if self.steps_per_epoch:
            return self.steps_per_epoch
        return self.adapter.num_batches

    @property
    def steps_to_run(self):
        """Batches an epoch of `steps_per_epoch` steps runs: whole
        executions."""
        per = self.steps_per_execution
        return -(-self.steps_per_epoch // per) * per

    def _next_batch(self):
        if self._iterator is None:
            self._iterator = iter(self.adapter.get_numpy_iterator(self._pass))
            self._consumed = 0
        try:
            batch = next(self._iterator)
        except StopIteration:
            self._iterator = None
            self._pass += 1
            if not self.adapter.restartable:
                self.exhausted = True
            raise
        self._consumed += 1
        return batch

    def enumerate_epoch(self, epoch=None):
        """Yield `(step, batch)` for one epoch."""
        self.adapter.on_epoch_begin()
        try:
            if self.restart_each_epoch or not self.steps_per_epoch:
                self._iterator = None
            yield from (self._full_pass() if not self.steps_per_epoch
                        else self._steps())
        finally:
            self.adapter.on_epoch_end()

    def _full_pass(self):
        step = 0
        while True:
            try:
                batch = self._next_batch()
            except StopIteration:
                return
            yield step, batch
            step += 1

    def _steps(self):
        for step in range(self.steps_to_run):
            batch = self._take()
            if batch is None:
                warnings.warn(_RAN_OUT, stacklevel=3)
                return
            yield step, batch

    def enumerate_executions(self, pairs=None):
        """Group an epoch's `(step, batch)` pairs (`pairs`, or this
        iterator's `enumerate_epoch()`) into `(begin_step, end_step,
        batches)`. `end_step` is `begin_step + steps_per_execution - 1`
        even when the data ends sooner: the step Keras reports."""
        pairs = self.enumerate_epoch() if pairs is None else pairs
        per, group = self.steps_per_execution, []
        for step, batch in pairs:
            if not group:
                begin = step
            group.append(batch)
            if len(group) == per:
                yield begin, begin + per - 1, group
                group = []
        if group:
            yield begin, begin + per - 1, group

    def _take(self):
        """The next batch, starting a new pass if the data allows it (never
        within an evaluation pass: `steps` beyond the data end it)."""
        for _ in range(1 if self.restart_each_epoch else 2):
            try:
                return self._next_batch()
            except StopIteration:
                if self.exhausted:
                    return None
        return None

    def can_continue(self, more_epochs):
        """False (with Keras's warning when epochs remain) once single-pass
        data is used up: training stops instead of running empty epochs."""
        if not self.exhausted:
            return True
        if more_epochs and not self.steps_per_epoch:
            warnings.warn(_RAN_OUT, stacklevel=2)
        return False

    # -- state for bit-exact resume ------------------------------------------
    def get_state(self):
        # Only a pass continuing across epochs has a cursor worth saving;
        # a full-pass epoch restarts its pass anyway. A pass under way
        # saves its shuffle draws, which the restored pass replays.
        resumable = self._iterator is not None and self.steps_per_epoch
        return {"pass": self._pass, "consumed": self._consumed
                if resumable else 0,
                "shuffle": self.adapter.shuffle_state()
                if self._iterator is not None else None}

    def set_state(self, state):
        self._pass = state["pass"]
        self._iterator = None
        if state.get("shuffle"):
            self.adapter.replay_shuffle(state["shuffle"])
        for _ in range(state.get("consumed", 0)):
            self._next_batch()
