"""`FitState`: the position and state of a running `fit`, for exact resume.

kerasish extension. While `fit` runs, `model._fit_state` is a `FitState`.
It knows where the loop is (epoch, next batch), can *capture* everything a
bit-exact resume needs, and can *restore* such a capture at the matching
points of a new `fit` call:

* weights and optimizer state (saved beside it by `BackupAndRestore`),
* the metrics' running state (a mid-epoch resume continues the means),
* every random generator: kerasish's global one, each layer's
  `SeedGenerator`, numpy's legacy global RNG and Python's `random`,
* the data order (the epoch iterator's pass, cursor and shuffle draws),
* the state of every callback that has `get_state()` (History,
  EarlyStopping, ModelCheckpoint, ReduceLROnPlateau, CSVLogger, ...).

Callbacks that save (BackupAndRestore) `defer` their work: the loop runs
deferred work after *every* callback has seen the event, so a capture taken
at epoch end already includes History's entry for that epoch.
"""
import contextlib
import json
import signal
import threading

import numpy as np

from kerasish.backend import random as krandom
from kerasish.backend.tape import stop_recording
from kerasish.engine.data_adapters import unpack_x_y_sample_weight

_ARRAY = "__ndarray__"


class FitState:
    """Where a `fit` call is and what it would take to resume it exactly.

    Args:
        model: The model being trained.
        iterator: The training `EpochIterator`.
        callbacks: The `CallbackList` of this `fit`.
    """

    def __init__(self, model, iterator=None, callbacks=None):
        self.model = model
        self.iterator = iterator
        self.callbacks = callbacks
        self.epoch = 0
        self.next_step = 0
        self.interrupt_requested = False
        self.interrupted = False
        self.last_batch = (0, -1)
        self.last_batch_logs = {}
        self.validation_steps = None
        self.runner = None
        self._deferred = []
        self._restore = None
        self._resumed_epoch = None

    # -- events from the loop ---------------------------------------------
    def defer(self, fn):
        """Run `fn()` once the current event has reached every callback."""
        self._deferred.append(fn)

    def flush(self):
        deferred, self._deferred = self._deferred, []
        for fn in deferred:
            fn()

    def end_batch(self, step):
        self.next_step = step + 1
        self.last_batch = (self.epoch, step)
        self.flush()

    def end_epoch(self, epoch):
        self.epoch, self.next_step = epoch + 1, 0
        self.flush()

    def epoch_batches(self, epoch):
        """`(step, batch)` pairs of `epoch`, starting where a restore says."""
        restore = self._restore
        start = 0
        if restore is not None and restore["position"]["epoch"] == epoch:
            self._restore = None
            start = restore["position"]["step"]
            if self.iterator is not None and restore.get("iterator"):
                self.iterator.set_state(restore["iterator"])
            if start:
                self._restore_inner(restore)
                self._resumed_epoch = epoch
        self.epoch, self.next_step = epoch, start
        batches = self.iterator.enumerate_epoch(epoch)
        if not start:
            yield from batches
        elif self.iterator.steps_per_epoch:
            # The cursor was restored: the next batch *is* batch `start`.
            yield from zip(range(start, self.iterator.steps_to_run),
                           (batch for _, batch in batches))
        else:
            for step, batch in batches:
                if step >= start:
                    yield step, batch

    def resumed_logs(self, epoch):
        """Metric results of an epoch resumed after its last batch ran (so
        the loop saw no batch); `{}` otherwise."""
        if self._resumed_epoch != epoch:
            return {}
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish.callbacks.callback_list import pythonify_logs
        return pythonify_logs(self.model.get_metrics_result())

    # -- capture ------------------------------------------------------------
    def capture(self):
        """Everything but weights/optimizer needed to resume from here."""
        return {
            "format": 1,
            "position": {"epoch": self.epoch, "step": self.next_step},
            "iterator": (self.iterator.get_state()
                         if self.iterator is not None else None),
            "rng": capture_rng(self.model),
            "metrics": [np.array(v.numpy(), copy=True)
                        for v in self.model.metrics_variables],
            "callbacks": self._callback_states(),
        }

    def _callback_states(self):
        states = {}
        for key, cb in _keyed_callbacks(self.callbacks):
            states[key] = cb.get_state()
        return states

    # -- restore ------------------------------------------------------------
    def schedule_restore(self, state):
        """Resume from `state` (a `capture()`) in this `fit` call."""
        self._restore = state
        self.model._initial_epoch = state["position"]["epoch"]

    def restore_outer(self):
        """After `on_train_begin`: callbacks' state (and RNG at an epoch
        boundary, where the capture was taken before `on_epoch_begin`)."""
        restore = self._restore
        if restore is None:
            return
        by_key = dict(_keyed_callbacks(self.callbacks))
        for key, cb_state in restore.get("callbacks", {}).items():
            if key in by_key:
                by_key[key].set_state(cb_state)
        if not restore["position"]["step"]:
            restore_rng(self.model, restore["rng"])

    def _restore_inner(self, restore):
        restore_rng(self.model, restore["rng"])
        _ensure_metrics_built(self.model, self.iterator)
        variables = self.model.metrics_variables
        values = restore.get("metrics") or []
        if len(values) != len(variables):
            raise ValueError(
                "Cannot resume the metrics' state: the backup has "
                f"{len(values)} metric variables but the model has "
                f"{len(variables)}. Was the model compiled with other "
                "metrics?")
        for variable, value in zip(variables, values):
            variable.assign(np.asarray(value).astype(variable.dtype))


@contextlib.contextmanager
def interrupt_guard(state):
    """Make Ctrl-C stop `fit` after the current batch (kerasish).

    The first SIGINT sets `state.interrupt_requested` (and stops a running
    validation after its batch); the loop then ends cleanly. A second
    Ctrl-C raises `KeyboardInterrupt` as usual. Only the main thread can
    receive signals, and a handler the user installed is left alone.
    """
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def handler(signum, frame):
        if state.interrupt_requested:
            raise KeyboardInterrupt
        state.interrupt_requested = True
        state.model.stop_evaluating = True
        print("\nInterrupted: stopping after the current batch (press "
              "Ctrl-C again to abort at once).", flush=True)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _keyed_callbacks(callbacks):
    counts = {}
    for cb in getattr(callbacks, "callbacks", callbacks) or []:
        if not callable(getattr(cb, "get_state", None)):
            continue
        name = type(cb).__name__
        index = counts.get(name, 0)
        counts[name] = index + 1
        yield f"{name}:{index}", cb


def _ensure_metrics_built(model, iterator):
    """Compiled metrics build on their first batch; a mid-epoch resume
    needs their variables before that, so build them on a peeked batch."""
    unbuilt = [c for c in (model._compile_metrics, model._compile_loss)
               if c is not None and not getattr(c, "built", True)]
    if not unbuilt or iterator is None:
        return
    x, y, _ = unpack_x_y_sample_weight(iterator.adapter.peek_batch())
    with stop_recording():
        y_pred = model._call_for_training(x, False)
    for container in unbuilt:
        container.build(y, y_pred)


# -- random generators ---------------------------------------------------------
def _seed_generators(model):
    layers = model._flatten_layers(include_self=True)
    for i, layer in enumerate(layers):
        for attr, value in sorted(vars(layer).items()):
            if isinstance(value, krandom.SeedGenerator):
                # Structural key: layer names differ between processes.
                yield f"{i}:{type(layer).__name__}/{attr}", value


def capture_rng(model):
    return {
        "global": krandom.global_generator_state(),
        "layers": {k: g.get_state() for k, g in _seed_generators(model)},
        "numpy": krandom.numpy_global_state(),
        "python": krandom.python_global_state(),
    }


def restore_rng(model, state):
    krandom.set_global_generator_state(state["global"])
    layers = state.get("layers", {})
    for key, generator in _seed_generators(model):
        if key in layers:
            generator.set_state(layers[key])
    krandom.set_numpy_global_state(state["numpy"])
    krandom.set_python_global_state(state["python"])


# -- (de)serialization into an HDF5 group --------------------------------------
def write_state(group, state):
    """Store `state` (JSON-like with numpy arrays) in an h5py group."""
    arrays = []

    def encode(value):
        if isinstance(value, np.ndarray):
            arrays.append(value)
            return {_ARRAY: str(len(arrays) - 1)}
        if isinstance(value, np.generic):
            return value.item()
        if isinstance(value, dict):
            return {str(k): encode(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [encode(v) for v in value]
        return value

    text = json.dumps(encode(state))
    # A dataset, not an attribute: attributes are limited to 64 KiB.
    group.create_dataset("state.json",
                         data=np.frombuffer(text.encode(), np.uint8))
    for i, array in enumerate(arrays):
        group.create_dataset(str(i), data=array)


def read_state(group):
    """Inverse of `write_state`."""
    text = bytes(np.asarray(group["state.json"])).decode()

    def decode(value):
        if isinstance(value, dict):
            if set(value) == {_ARRAY}:
                return np.asarray(group[value[_ARRAY]])
            return {k: decode(v) for k, v in value.items()}
        if isinstance(value, list):
            return [decode(v) for v in value]
        return value

    return decode(json.loads(text))
