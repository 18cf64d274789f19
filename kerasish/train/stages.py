"""Stages: custom work run inside a monitored session (as in XDL).

A stage is a function `my_stage(session, ctx)` or a `Stage` subclass with
`run(self, session, ctx)`, registered to run every N global steps (or N
seconds, and/or once at the end). It runs after a step's hooks, with
`session` the *monitored* session, so steps it runs (`session.run(...)`)
go through every hook; stages do not trigger while a stage is running.
`ctx` has `global_step`, the last step's `logs`, and `request_stop()`.

    def evaluate(session, ctx):
        print(ctx.global_step, session.raw_session().model.evaluate(
            x_val, y_val, verbose=0))

    MonitoredTrainingSession(model=model, input=batches,
                             stages=[(evaluate, 100)])
"""
import abc

from kerasish.train.timer import SecondOrStepTimer


class StageContext:
    """What a stage gets besides the session.

    Attributes: `stage` (the running `Stage`), `global_step`, `logs` (the
    last step's logs) and `stop_requested`, set by `request_stop()`.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> seen = []
    >>> def check(session, ctx):
    ...     seen.append((type(ctx).__name__, ctx.global_step,
    ...                  sorted(ctx.logs)))
    ...     ctx.request_stop()
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> batches = [(np.ones((4, 2)), np.ones((4, 1)))] * 10
    >>> with train.MonitoredTrainingSession(
    ...         model=model, input=batches, stages=[(check, 2)]) as session:
    ...     while not session.should_stop():
    ...         logs = session.run()
    >>> seen
    [('StageContext', 2, ['loss'])]
    """

    def __init__(self, stage, global_step, logs):
        self.stage = stage
        self.global_step = global_step
        self.logs = dict(logs or {})
        self.stop_requested = False

    def request_stop(self):
        """Stop the session after this stage."""
        self.stop_requested = True


class Stage(abc.ABC):
    """Work run inside a `MonitoredSession` every N steps or seconds.

    Args:
        every_n_steps: Run when the global step is a multiple of this.
        every_n_secs: Run at most once every that many seconds.
        at_end: Also run once when the session closes cleanly.
        name: For messages (default: the class name).

    Example:

    >>> class Count(Stage):
    ...     def run(self, session, ctx):
    ...         self.last = ctx.global_step
    >>> stage = Count(every_n_steps=10)
    """

    def __init__(self, every_n_steps=None, every_n_secs=None, at_end=False,
                 name=None):
        if every_n_steps is None and every_n_secs is None and not at_end:
            raise ValueError(
                "A stage needs every_n_steps, every_n_secs or at_end=True. "
                f"Received: every_n_steps={every_n_steps}, "
                f"every_n_secs={every_n_secs}, at_end={at_end}")
        if every_n_steps is not None and (not isinstance(every_n_steps, int)
                                          or every_n_steps < 1):
            raise ValueError("every_n_steps must be a positive int. "
                             f"Received: every_n_steps={every_n_steps!r}")
        self.every_n_steps = every_n_steps
        self._timer = SecondOrStepTimer(every_secs=every_n_secs) \
            if every_n_secs is not None else None
        self.at_end = at_end
        self.name = name or type(self).__name__
        self.runs = 0

    @abc.abstractmethod
    def run(self, session, ctx):
        """Do the stage's work; `session` is the monitored session."""

    def due(self, monitored):
        step = monitored.raw_session().fetch("global_step")
        if self.every_n_steps is not None:
            return step > 0 and step % self.every_n_steps == 0
        if self._timer is not None:
            if self._timer.last_triggered_step() is None:
                self._timer.update_last_triggered_step(step)
                return False
            return self._timer.should_trigger_for_step(step)
        return False

    def fire(self, monitored, logs):
        step = monitored.raw_session().fetch("global_step")
        if self._timer is not None:
            self._timer.update_last_triggered_step(step)
        ctx = StageContext(self, step, logs)
        self.run(monitored, ctx)
        self.runs += 1
        if ctx.stop_requested:
            monitored._should_stop = True


class FunctionStage(Stage):
    """A stage made of a function `fn(session, ctx)`.

    Example:

    >>> stage = FunctionStage(lambda session, ctx: None, every_n_steps=5)
    >>> stage.name
    '<lambda>'
    """

    def __init__(self, fn, every_n_steps=None, every_n_secs=None,
                 at_end=False, name=None):
        super().__init__(every_n_steps, every_n_secs, at_end,
                         name or getattr(fn, "__name__", "stage"))
        self.fn = fn

    def run(self, session, ctx):
        return self.fn(session, ctx)


def as_stage(stage, every_n_steps=None, every_n_secs=None, at_end=False):
    """A `Stage` from a Stage or a function (with its schedule)."""
    if isinstance(stage, Stage):
        return stage
    if callable(stage):
        return FunctionStage(stage, every_n_steps, every_n_secs, at_end)
    raise TypeError("A stage must be a `Stage` or a function "
                    f"`fn(session, ctx)`. Received: {stage!r}")


def as_stages(stages):
    """Stages from a list of `Stage`s and `(function, every_n_steps)`."""
    out = []
    for item in stages or []:
        if isinstance(item, tuple):
            out.append(as_stage(item[0], *item[1:]))
        else:
            out.append(as_stage(item))
    return out
