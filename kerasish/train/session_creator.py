"""Session creators: how a monitored session gets (and re-gets) its session.

`ChiefSessionCreator` builds the model, then restores the latest
checkpoint from `checkpoint_dir` if there is one; otherwise the model keeps
its initial weights (and `scaffold.init_fn` runs). Re-created after a
recoverable error, it restores the latest checkpoint again, or the weights
the first session started from, and (as TF's in-graph input) reads a
re-iterable `input` from its start again. `WorkerSessionCreator` does not
restore: it waits until the runtime says the chief has initialized the
variables (a parameter-server runtime implements `wait_for_chief`;
in-process training is always ready).
"""
import abc
from collections.abc import Iterator

import numpy as np

from kerasish.train.checkpoint import (Saver, get_checkpoint_state,
                                       latest_checkpoint)
from kerasish.train.session import TrainingSession, _Input


def _restartable(source):
    """Whether `iter(source)` starts `source` over (a list, a Dataset), as
    opposed to an iterator or generator, which continues."""
    return source is not None and not isinstance(source, Iterator)


class Scaffold:
    """What a session needs besides the model: a `Saver` and an `init_fn`.

    Args:
        init_fn: `init_fn(scaffold, session)`, called when a chief session
            starts without a checkpoint to restore.
        saver: The `Saver` used to restore and (by `CheckpointSaverHook`) to
            save; a `Saver()` (keeping 5 checkpoints) by default.

    Example:

    >>> scaffold = Scaffold(saver=Saver(max_to_keep=2))
    >>> scaffold.finalize().saver.max_to_keep
    2
    """

    def __init__(self, init_fn=None, saver=None):
        self.init_fn = init_fn
        self.saver = saver
        self.finalized = False

    def finalize(self):
        """Create the default saver if none was given; returns self."""
        if self.saver is None:
            self.saver = Saver()
        self.finalized = True
        return self


class SessionCreator(abc.ABC):
    """Creates a `TrainingSession` for a `MonitoredSession`.

    Subclasses implement `create_session()`; a monitored session calls it
    at the start and again to recover from an `AbortedError` or
    `UnavailableError`.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> class FreshSession(SessionCreator):
    ...     def __init__(self, model):
    ...         self.model, self.created = model, 0
    ...     def create_session(self):
    ...         self.created += 1
    ...         session = train.TrainingSession(self.model)
    ...         session.build()
    ...         return session
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> creator = FreshSession(model)
    >>> with train.MonitoredSession(creator) as session:
    ...     logs = session.run((np.ones((4, 2)), np.ones((4, 1))))
    >>> creator.created, sorted(logs)
    (1, ['loss'])
    """

    @abc.abstractmethod
    def create_session(self):
        """Return a new `TrainingSession`."""


class _ModelSessionCreator(SessionCreator):
    def __init__(self, model, scaffold, input):
        if model is None:
            raise ValueError(
                "A session creator needs the compiled model to train: pass "
                "`model=`. Received: model=None")
        self.model = model
        self.scaffold = scaffold or Scaffold()
        self._source = input
        self._input = _Input(input)
        self._sessions = 0

    def _new_session(self):
        self.scaffold.finalize()
        if self._sessions and _restartable(self._source):
            # TF's input pipeline lives in the session: a re-created session
            # reads its dataset from the start again. A one-shot iterator
            # cannot start over, so that session continues it.
            self._input = _Input(self._source)
        self._sessions += 1
        session = TrainingSession(self.model, input=self._input)
        session.build()
        return session


class ChiefSessionCreator(_ModelSessionCreator):
    """Create a session that restores from `checkpoint_dir`.

    Args:
        scaffold: A `Scaffold` (default: a new one).
        master, config: Accepted for TF1 compatibility (one process).
        checkpoint_dir: Folder whose latest checkpoint is restored.
        checkpoint_filename_with_path: A specific checkpoint to restore.
        model: The compiled model to train (kerasish: required).
        input: Optional iterable of batches for `run()` without a batch.

    Example:

    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> session = ChiefSessionCreator(model=model).create_session()
    >>> session.model is model
    True
    """

    def __init__(self, scaffold=None, master="", config=None,
                 checkpoint_dir=None, checkpoint_filename_with_path=None,
                 model=None, input=None):
        super().__init__(model, scaffold, input)
        self.checkpoint_dir = checkpoint_dir
        self.checkpoint_filename_with_path = checkpoint_filename_with_path
        self._initial_state = None

    def _checkpoint(self):
        if self.checkpoint_filename_with_path:
            return self.checkpoint_filename_with_path
        if self.checkpoint_dir:
            return latest_checkpoint(self.checkpoint_dir)
        return None

    def create_session(self):
        session = self._new_session()
        first, self._created = not getattr(self, "_created", False), True
        path = self._checkpoint()
        if path is not None:
            if not self.model.built:
                raise ValueError(
                    f"Cannot restore {path!r}: model '{self.model.name}' is "
                    "not built. Build it first (`model.build(input_shape)` "
                    "or call it on a batch), or give the session `input=`.")
            self.scaffold.saver.restore(session, path)
            if not self.checkpoint_filename_with_path:
                # As TF's session manager: the saver takes over the
                # folder's list, so it keeps pruning the old checkpoints.
                self.scaffold.saver.recover_last_checkpoints(
                    get_checkpoint_state(
                        self.checkpoint_dir).all_model_checkpoint_paths)
        elif first:
            if self.model.built:
                self._initial_state = _get_state(self.model)
            if self.scaffold.init_fn is not None:
                self.scaffold.init_fn(self.scaffold, session)
        elif self._initial_state is not None:
            _set_state(self.model, self._initial_state)
        return session


class WorkerSessionCreator(_ModelSessionCreator):
    """Create a session for a non-chief worker (no restore).

    Args:
        scaffold: A `Scaffold`.
        master, config: Accepted for TF1 compatibility.
        max_wait_secs: How long to wait for the chief (default 30 min).
        model: The compiled model (kerasish: required).
        input: Optional iterable of batches.

    Example:

    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> WorkerSessionCreator(model=model).create_session().model is model
    True
    """

    def __init__(self, scaffold=None, master="", config=None,
                 max_wait_secs=30 * 60, model=None, input=None):
        super().__init__(model, scaffold, input)
        self.max_wait_secs = max_wait_secs

    def create_session(self):
        session = self._new_session()
        runtime = self.model._runtime_or_default()
        wait = getattr(runtime, "wait_for_chief", None)
        if wait is not None:
            wait(self.model, timeout=self.max_wait_secs)
        return session


def _get_state(model):
    variables = list(model.variables)
    if model.optimizer is not None:
        variables += list(model.optimizer.variables)
    return [(v, np.array(v.numpy(), copy=True)) for v in variables]


def _set_state(model, state):
    for variable, value in state:
        variable.assign(value)
