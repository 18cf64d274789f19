"""`MonitoredSession`: TF1's hook-driven training loop on kerasish steps.

Order of operations (as in TF1):

    MonitoredSession(...):  hook.begin() for each hook
                            scaffold.finalize(); create the session;
                            restore the latest checkpoint (chief);
                            hook.after_create_session(session, coord)
    sess.run(...):          hook.before_run(ctx) for each hook
                            one training step (StepRunner, model's runtime)
                            hook.after_run(ctx, values) for each hook
                            stages due at this step
    sess.close() / exit:    hook.end(session) for each hook (only if no
                            error; OutOfRangeError/StopIteration from the
                            input count as a clean end), stop and join the
                            coordinator's threads

A recoverable error (`AbortedError`, `UnavailableError`) during a step
closes the session, creates a new one (restoring the latest checkpoint;
`after_create_session` runs again) and retries the step. As in TF, whose
input pipeline lives in the session, a re-iterable `input` (a list, a
`Dataset`) starts over, so the retried step takes its first batch; a
one-shot iterator continues, and the step retries with the same batch.
Keras callbacks given in `hooks` are wrapped in a `CallbackHook`.

`run()` without a batch takes the next batch of the session's `input`
*before* calling the hooks, so an exhausted input (OutOfRangeError) ends the
loop without a `before_run` for a step that never runs (TF1 called
`before_run` first).
"""
import inspect
import logging
import threading

from kerasish.train.coordinator import Coordinator
from kerasish.train.errors import OutOfRangeError, RECOVERABLE_ERRORS
from kerasish.train.global_step import mirror_standalone_step
from kerasish.train.session import RunMetadata, RunOptions
from kerasish.train.session_run_hook import (SessionRunArgs,
                                             SessionRunContext,
                                             SessionRunValues)
from kerasish.callbacks.callback import Callback
from kerasish.train.callback_hooks import CallbackHook
from kerasish.train.stages import as_stages
from kerasish.train.stages import as_stage
from kerasish.train.session_creator import ChiefSessionCreator

logger = logging.getLogger("kerasish.train")
_local = threading.local()


def active_session_model():
    """The model of the innermost open monitored session, or None."""
    stack = getattr(_local, "stack", None)
    return stack[-1].model if stack else None


def _as_hooks(hooks):
    out, pending = [], []
    for hook in hooks or []:
        if isinstance(hook, Callback):
            pending.append(hook)
            continue
        if pending:
            out.append(CallbackHook(pending))
            pending = []
        out.append(hook)
    if pending:
        out.append(CallbackHook(pending))
    return out


class StepContext:
    """Given to `run_step_fn`'s function: `session` (raw), `run_with_hooks`,
    `request_stop()`.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> batch = (np.ones((4, 2)), np.ones((4, 1)))
    >>> def step_fn(step_context):
    ...     logs = step_context.run_with_hooks(batch)
    ...     if step_context.session.fetch("global_step") >= 3:
    ...         step_context.request_stop()
    ...     return logs
    >>> with train.SingularMonitoredSession(model=model) as session:
    ...     while not session.should_stop():
    ...         logs = session.run_step_fn(step_fn)
    >>> int(train.get_global_step(model).numpy())
    3
    """

    def __init__(self, monitored, session):
        self._monitored = monitored
        self.session = session

    def run_with_hooks(self, *args, **kwargs):
        return self._monitored.run(*args, **kwargs)

    def request_stop(self):
        """Stop: as TF, raises `StopIteration` out of `run_step_fn` (the
        session's `with` block ends quietly on it)."""
        self._monitored._should_stop = True
        raise StopIteration("step_fn has requested the iterations to stop.")


class MonitoredSession:
    """Session-like object running hooks around every training step.

    Args:
        session_creator: A `ChiefSessionCreator` (default needs `model=`
            through it) or `WorkerSessionCreator`.
        hooks: `SessionRunHook`s, and/or Keras callbacks.
        stop_grace_period_secs: How long `close()` waits for the
            coordinator's threads. Defaults to 120.
        stages: kerasish extension: `Stage`s (or `(function, every_n_steps)`
            pairs) run inside the session every N steps.

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> from kerasish import train
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> batches = [(np.ones((4, 2)), np.ones((4, 1)))] * 3
    >>> creator = train.ChiefSessionCreator(model=model, input=batches)
    >>> with train.MonitoredSession(creator) as sess:
    ...     while not sess.should_stop():
    ...         logs = sess.run()
    >>> int(train.get_global_step(model).numpy())
    3
    """

    _recoverable = True

    def __init__(self, session_creator=None, hooks=None,
                 stop_grace_period_secs=120, stages=None):
        if session_creator is None:
            raise ValueError(
                "MonitoredSession needs a session creator with the model to "
                "train, e.g. `MonitoredSession(ChiefSessionCreator(model="
                "model))`.")
        self._creator = session_creator
        self._hooks = _as_hooks(hooks)
        self._stages = as_stages(stages)
        self._grace = stop_grace_period_secs
        self._sess = None
        self._coord = None
        self._should_stop = False
        self._pending_batch = None
        self._sess_input = None
        self._in_stage = False
        self.model = session_creator.model
        # Active from the first hook call: get_global_step() in a hook's
        # begin/after_create_session is this session's (restored) step,
        # not a standalone one created before the model (TF1's idiom).
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(self)
        try:
            for hook in self._hooks:
                hook.begin()
            self._create()
        except BaseException:
            stack.remove(self)
            raise

    # -- session lifecycle -------------------------------------------------
    def _create(self):
        before = self._sess_input
        self._sess = self._creator.create_session()
        self._sess_input = getattr(self._sess, "_input", None)
        if self._sess_input is not before:
            # The new session started its input over (TF's dataset lives
            # in the session), so the retried step takes its first batch.
            self._pending_batch = None
        self._coord = Coordinator(clean_stop_exception_types=[])
        mirror_standalone_step(self.model)
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)

    def _close_session(self):
        sess, coord = self._sess, self._coord
        self._sess = None
        try:
            if coord is not None:
                coord.request_stop()
                coord.join(stop_grace_period_secs=self._grace,
                           ignore_live_threads=True)
        finally:
            if sess is not None:
                sess.close()

    def should_stop(self):
        """True once a hook requested a stop or the session is closed."""
        if self._sess is None:
            return True
        return self._should_stop or self._coord.should_stop()

    def raw_session(self):
        """The underlying `TrainingSession` (no hooks)."""
        return self._sess

    def add_stage(self, stage, every_n_steps=None, every_n_secs=None):
        """Register a `Stage` or `fn(session, ctx)` run every N steps."""
        self._stages.append(as_stage(stage, every_n_steps, every_n_secs))

    # -- running -------------------------------------------------------------
    def run(self, batch=None, fetches=None, feed_dict=None, options=None,
            run_metadata=None):
        """Run one training step with the hooks.

        Args:
            batch: `(x, y)` or `(x, y, sample_weight)`; `None` takes the
                next batch of the session's `input`.
            fetches: Names (log keys, `"global_step"`, variable paths,
                layer names) in any nested list/tuple/dict.
            feed_dict: May feed `"x"`, `"y"`, `"sample_weight"`.
            options: `RunOptions`.
            run_metadata: A `RunMetadata` filled with the step's logs.

        Returns:
            The step's logs dict, or `(logs, values)` when `fetches` is
            given (`values` mirrors `fetches`).
        """
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        while True:
            try:
                if self._sess is None:
                    self._create()
                return self._run_once(batch, fetches, feed_dict, options,
                                      run_metadata)
            except RECOVERABLE_ERRORS as error:
                if not self._recoverable:
                    raise
                logger.info(
                    "An error was raised. This may be due to a preemption "
                    "in a connected worker or parameter server. The current "
                    "session will be closed and a new session will be "
                    "created. This error may also occur due to a gRPC "
                    "failure caused by high memory or network bandwidth "
                    "usage in the parameter servers. If this error occurs "
                    "repeatedly, try increasing the number of parameter "
                    "servers assigned to the job. Error: %s", error)
                self._close_session()

    def _run_once(self, batch, fetches, feed_dict, options, run_metadata):
        sess = self._sess
        if batch is None and sess._input.given:
            # Taken before the hooks run: an exhausted input ends the loop
            # without a `before_run` for a step that never happens.
            batch = self._next_batch(sess)
        ctx = SessionRunContext(SessionRunArgs(fetches, feed_dict, options),
                                sess)
        requests, feeds, options = self._before_run(ctx, feed_dict, options)
        combined = dict(requests)
        combined["caller"] = fetches
        logs, values, result = sess.run_step(batch, combined, feeds, options)
        self._pending_batch = None
        metadata = run_metadata if run_metadata is not None else \
            RunMetadata()
        metadata.logs, metadata.step_stats = logs, result
        mirror_standalone_step(self.model)
        for i, hook in enumerate(self._hooks):
            hook.after_run(ctx, SessionRunValues(values.get(i), options,
                                                 metadata))
        self._should_stop = self._should_stop or ctx.stop_requested
        self._run_stages(logs)
        return logs if fetches is None else (logs, values["caller"])

    def _next_batch(self, sess):
        # Kept until the step succeeds: a retried step reuses its batch.
        if self._pending_batch is None:
            self._pending_batch = sess.next_batch()
        return self._pending_batch

    def _before_run(self, ctx, feed_dict, options):
        requests, feeds = {}, {}
        trace_level = options.trace_level if options is not None else 0
        check = bool(options is not None and options.check_finite)
        for i, hook in enumerate(self._hooks):
            args = hook.before_run(ctx)
            if args is None:
                continue
            if args.fetches is not None:
                requests[i] = args.fetches
            if args.feed_dict:
                _check_disjoint(feeds, args.feed_dict,
                                "Same tensor is fed by two hooks.")
                feeds.update(args.feed_dict)
            if args.options is not None:
                trace_level = max(trace_level, args.options.trace_level)
                check = check or args.options.check_finite
        if feed_dict:
            _check_disjoint(feeds, feed_dict,
                            "Same tensor is fed by a SessionRunHook and "
                            "user.")
            feeds.update(feed_dict)
        return requests, feeds, RunOptions(trace_level, check)

    def _run_stages(self, logs):
        if self._in_stage or not self._stages:
            return
        self._in_stage = True
        try:
            for stage in self._stages:
                if stage.due(self):
                    stage.fire(self, logs)
        finally:
            self._in_stage = False

    def run_step_fn(self, step_fn):
        """Run `step_fn(step_context)` once; it may call
        `step_context.run_with_hooks(...)` and `request_stop()` (which
        raises `StopIteration`, as TF)."""
        args = tuple(inspect.signature(step_fn).parameters)
        if args not in (("step_context",), ("self", "step_context")):
            raise ValueError(
                "`step_fn` may either have one `step_context` argument, or "
                "`self` and `step_context` arguments if it's an instance "
                f"method. Got {args} instead.")
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        return step_fn(StepContext(self, self._sess))

    # -- closing -------------------------------------------------------------
    def close(self):
        self._close_internal()

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type and self._sess is not None:
                for stage in self._stages:
                    if stage.at_end:
                        stage.fire(self, self._sess.last_logs)
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            try:
                if self._sess is None and self._coord is None:
                    raise RuntimeError("Session is already closed.")
                self._close_session()
            finally:
                self._coord = None
                stack = getattr(_local, "stack", [])
                if self in stack:
                    stack.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type is not None and issubclass(
                exception_type, (OutOfRangeError, StopIteration)):
            exception_type = None
        if self._coord is not None or self._sess is not None:
            self._close_internal(exception_type)
        return exception_type is None


def _check_disjoint(feeds, new, message):
    common = set(feeds) & set(new)
    if common:
        raise RuntimeError(f"{message} Conflict(s): {sorted(common)}")


class SingularMonitoredSession(MonitoredSession):
    """A `MonitoredSession` for one process: chief, no error recovery.

    Args:
        hooks: Hooks and/or Keras callbacks.
        scaffold, master, config: As for `ChiefSessionCreator`.
        checkpoint_dir: Folder to restore from.
        stop_grace_period_secs: See `MonitoredSession`.
        checkpoint_filename_with_path: A specific checkpoint to restore.
        model: The compiled model (kerasish: required).
        input: Optional iterable of batches.
        stages: See `MonitoredSession`.

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> from kerasish import train
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> with train.SingularMonitoredSession(model=model) as sess:
    ...     logs = sess.run((np.ones((2, 2)), np.ones((2, 1))))
    >>> sorted(logs)
    ['loss']
    """

    _recoverable = False

    def __init__(self, hooks=None, scaffold=None, master="", config=None,
                 checkpoint_dir=None, stop_grace_period_secs=120,
                 checkpoint_filename_with_path=None, model=None, input=None,
                 stages=None):
        creator = ChiefSessionCreator(
            scaffold=scaffold, master=master, config=config,
            checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            model=model, input=input)
        super().__init__(creator, hooks=hooks,
                         stop_grace_period_secs=stop_grace_period_secs,
                         stages=stages)
