"""Adapters so users mix callbacks and hooks freely.

* `HookCallback(hook)`: a `SessionRunHook` inside `model.fit` (what
  `hook.as_keras_callback()` returns; `fit(callbacks=[...])` wraps hooks
  automatically). `begin` and `after_create_session` run at train begin,
  `before_run`/`after_run` around each training batch (fetches are
  resolved by the same step runner), `end` at train end;
  `run_context.request_stop()` sets `model.stop_training`.
* `CallbackHook(callbacks, steps_per_epoch=None)`: Keras callbacks inside
  a `MonitoredSession` (given in `hooks=`, they are wrapped automatically).
  Session creation is `on_train_begin` + `on_epoch_begin(0)`, each step is
  `on_train_batch_begin/end` (with that batch's logs), every
  `steps_per_epoch` steps an epoch ends (`on_epoch_end` with the mean of
  the epoch's batch logs); without `steps_per_epoch` the whole session is
  one epoch. `model.stop_training = True` stops the session.
"""
from kerasish.callbacks.callback import Callback
from kerasish.train.coordinator import Coordinator
from kerasish.train.session_run_hook import (SessionRunArgs,
                                             SessionRunContext,
                                             SessionRunHook,
                                             SessionRunValues)
from kerasish.train.session import TrainingSession
from kerasish.train.session import RunMetadata
from kerasish.callbacks.callback_list import CallbackList


class HookCallback(Callback):
    """Run a `SessionRunHook` inside `fit`.

    Args:
        hook: The hook.

    Example:

    >>> from kerasish.train import StopAtStepHook
    >>> cb = HookCallback(StopAtStepHook(num_steps=3))
    """

    def __init__(self, hook):
        super().__init__()
        self.hook = hook
        self._session = None
        self._request = None

    def on_train_begin(self, logs=None):
        fit_state = getattr(self.model, "_fit_state", None)
        runner = getattr(fit_state, "runner", None)
        self._session = TrainingSession(self.model, runner=runner)
        self._coord = Coordinator(clean_stop_exception_types=[])
        self.hook.begin()
        self.hook.after_create_session(self._session, self._coord)
        if self._coord.should_stop():
            self.model.stop_training = True

    def on_train_batch_begin(self, batch, logs=None):
        self._context = SessionRunContext(SessionRunArgs(None),
                                          self._session)
        args = self.hook.before_run(self._context)
        self._request = None
        if args is not None:
            options = args.options
            self._request = self._session.runner.request(
                fetches=args.fetches, feed_dict=args.feed_dict,
                timing=bool(options and options.trace_level >= 3),
                check_finite=bool(options and options.check_finite))

    def on_train_batch_end(self, batch, logs=None):
        request, runner = self._request, self._session.runner
        self._session.last_logs = dict(logs or {})
        metadata = RunMetadata(logs, runner.last)
        values = SessionRunValues(
            request.results if request is not None else None,
            None, metadata)
        self.hook.after_run(self._context, values)
        if self._context.stop_requested or self._coord.should_stop():
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        self.hook.end(self._session)
        self._coord.request_stop()
        self._coord.join(stop_grace_period_secs=5, ignore_live_threads=True)


class CallbackHook(SessionRunHook):
    """Run Keras callbacks inside a `MonitoredSession`.

    Args:
        callbacks: A callback or a list of callbacks.
        steps_per_epoch: Steps per epoch (`None`: the session is one
            epoch).
        epochs: `params["epochs"]` given to the callbacks (default 1).

    Example:

    >>> from kerasish.callbacks import History
    >>> hook = CallbackHook([History()], steps_per_epoch=10)
    """

    def __init__(self, callbacks, steps_per_epoch=None, epochs=None):
        if isinstance(callbacks, Callback) and \
                not isinstance(callbacks, CallbackList):
            callbacks = [callbacks]
        self.callbacks = callbacks if isinstance(callbacks, CallbackList) \
            else CallbackList(callbacks)
        self.steps_per_epoch = steps_per_epoch
        self.epochs = epochs
        self._started = False

    def after_create_session(self, session, coord):
        if self._started:
            return
        self._started = True
        self.model = session.model
        self.model.stop_training = False
        self.callbacks.set_model(self.model)
        self.callbacks.set_params({"verbose": 0, "epochs": self.epochs or 1,
                                   "steps": self.steps_per_epoch})
        self.callbacks.on_train_begin()
        self._epoch, self._step, self._epoch_logs = 0, 0, []
        self._last_epoch_logs = None
        self.callbacks.on_epoch_begin(0)

    def before_run(self, run_context):
        self.callbacks.on_train_batch_begin(self._step)
        return None

    def after_run(self, run_context, run_values):
        logs = dict(run_values.run_metadata.logs)
        self.callbacks.on_train_batch_end(self._step, logs)
        self._epoch_logs.append(logs)
        self._step += 1
        if self.steps_per_epoch and self._step >= self.steps_per_epoch:
            self._end_epoch()
            if not self.model.stop_training:
                self.callbacks.on_epoch_begin(self._epoch)
        if self.model.stop_training:
            run_context.request_stop()

    def _end_epoch(self):
        logs = _mean_logs(self._epoch_logs)
        self.callbacks.on_epoch_end(self._epoch, logs)
        self._last_epoch_logs = logs
        self._epoch += 1
        self._step, self._epoch_logs = 0, []

    def end(self, session):
        if self._epoch_logs or self._last_epoch_logs is None:
            self._end_epoch()
        self.callbacks.on_train_end(self._last_epoch_logs)


def _mean_logs(batch_logs):
    keys = {k for logs in batch_logs for k in logs}
    out = {}
    for key in sorted(keys):
        values = [logs[key] for logs in batch_logs if key in logs]
        try:
            out[key] = sum(float(v) for v in values) / len(values)
        except (TypeError, ValueError):
            out[key] = values[-1]
    return out
