"""TF1's `SessionRunHook` protocol, around kerasish training steps.

    hook.begin()                                  # before the session exists
    hook.after_create_session(session, coord)     # session ready, restored
    while not stopped:
        args = hook.before_run(run_context)       # SessionRunArgs or None
        <one training step>                       # fetches evaluated after it
        hook.after_run(run_context, run_values)   # run_values.results
    hook.end(session)                             # on a clean close

Fetches name log keys (`"loss"`), `"global_step"`, variables by path
(`"dense/kernel"`) or layers by name (their output for the step's batch).
A `feed_dict` may replace the batch's `"x"`, `"y"` or `"sample_weight"`.
"""
import collections


class SessionRunHook:
    """Base class of hooks extending `MonitoredSession.run()` calls.

    Every method is a no-op. A hook also works in `model.fit(callbacks=
    [...])`, where `begin`/`after_create_session` run at train begin,
    `before_run`/`after_run` around each training batch and `end` at train
    end (`run_context.request_stop()` sets `model.stop_training`).

    Example:

    >>> class CountSteps(SessionRunHook):
    ...     def begin(self):
    ...         self.steps = 0
    ...     def before_run(self, run_context):
    ...         return SessionRunArgs("loss")
    ...     def after_run(self, run_context, run_values):
    ...         self.steps += 1
    ...         self.last_loss = run_values.results
    """

    def begin(self):
        """Called once before the session is created."""

    def after_create_session(self, session, coord):
        """The session exists (and was restored); `coord` is its
        `Coordinator`. Called again when a session is re-created after a
        recoverable error."""

    def before_run(self, run_context):
        """Before each step: return `SessionRunArgs` or `None`."""
        return None

    def after_run(self, run_context, run_values):
        """After each step; `run_values.results` holds the fetches."""

    def end(self, session):
        """At the end of the session (not called after an exception)."""

    def as_keras_callback(self):
        """This hook as a Keras callback, for `model.fit(callbacks=...)`."""
        # lazy: a top-level import would close an import circle
        from kerasish.train.callback_hooks import HookCallback
        return HookCallback(self)


class SessionRunArgs(collections.namedtuple(
        "SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a step: `fetches`, `feed_dict` (and `options`,
    kept for TF compatibility and passed through).

    Example:

    >>> SessionRunArgs(["loss", "global_step"]).fetches
    ['loss', 'global_step']
    """

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """Information about the step being run, given to hooks.

    Args:
        original_args: The caller's `SessionRunArgs`.
        session: The raw session (a `TrainingSession`).

    Example:

    >>> ctx = SessionRunContext(SessionRunArgs(None), session=None)
    >>> ctx.request_stop()
    >>> ctx.stop_requested
    True
    """

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        """End the loop: `should_stop()` becomes True after this step."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple(
        "SessionRunValues", ["results", "options", "run_metadata"])):
    """What a step returned to a hook: `results` of its fetches (None if it
    asked for none), `options`, and `run_metadata` (the step's logs).

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> class StepWatcher(train.SessionRunHook):
    ...     def before_run(self, run_context):
    ...         return train.SessionRunArgs(["global_step"])
    ...     def after_run(self, run_context, run_values):
    ...         self.values = run_values
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> watcher = StepWatcher()
    >>> with train.SingularMonitoredSession(model=model,
    ...                                     hooks=[watcher]) as session:
    ...     logs = session.run((np.ones((4, 2)), np.ones((4, 1))))
    >>> type(watcher.values).__name__, watcher.values.results
    ('SessionRunValues', [1])
    """
