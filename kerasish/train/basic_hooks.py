"""TF1's basic session-run hooks: stopping, step counting, logging, feeding.

Hooks log through the `logging` logger `"kerasish.train"` at INFO (as TF1
logged through `tf.logging`): call `logging.basicConfig(level="INFO")` to
see them.
"""
import logging
import time

import numpy as np

from kerasish.train.session_run_hook import SessionRunArgs, SessionRunHook
from kerasish.train.timer import SecondOrStepTimer
from kerasish.callbacks.summary_writer import SummaryWriter

logger = logging.getLogger("kerasish.train")


def _global_step(session):
    return session.fetch("global_step")


class StopAtStepHook(SessionRunHook):
    """Request a stop when the global step reaches `last_step`.

    Args:
        num_steps: Steps to run from the global step at session creation
            (any int, as in TF: 0 or less runs one step).
        last_step: Global step at which to stop (exactly one of the two).

    As in TF1, the stop is decided after a step: a session whose global
    step is already at or past `last_step` (after a restore, say) runs one
    step, then stops.

    Example:

    >>> hook = StopAtStepHook(num_steps=10)
    """

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be "
                             "specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be "
                             "specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    @property
    def last_step(self):
        return self._last_step

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = _global_step(session) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs("global_step")

    def after_run(self, run_context, run_values):
        if run_values.results >= self._last_step:
            run_context.request_stop()


class StepCounterHook(SessionRunHook):
    """Log (and write as the summary `global_step/sec`) the step rate.

    Args:
        every_n_steps: Steps between measurements (default 100).
        every_n_secs: Seconds between measurements instead.
        output_dir: Folder for the summary (needs tensorboardX).
        summary_writer: A `SummaryWriter` to use instead of `output_dir`.

    Example:

    >>> hook = StepCounterHook(every_n_steps=10)
    """

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs "
                             "should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps,
                                        every_secs=every_n_secs)
        self._output_dir = output_dir
        self._summary_writer = summary_writer
        self._owns_writer = summary_writer is None
        self.steps_per_sec = None

    def begin(self):
        self._timer.reset()
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = SummaryWriter(self._output_dir,
                                                 "StepCounterHook")

    def before_run(self, run_context):
        return SessionRunArgs("global_step")

    def after_run(self, run_context, run_values):
        step = run_values.results
        if not self._timer.should_trigger_for_step(step):
            return
        elapsed_time, elapsed_steps = \
            self._timer.update_last_triggered_step(step)
        if elapsed_time is None or elapsed_time <= 0:
            return
        self.steps_per_sec = elapsed_steps / elapsed_time
        logger.info("global_step/sec: %g", self.steps_per_sec)
        if self._summary_writer is not None:
            self._summary_writer.scalar("global_step/sec",
                                        self.steps_per_sec, step)

    def end(self, session):
        if self._summary_writer is None:
            return
        if self._owns_writer:
            self._summary_writer.close()
        else:
            self._summary_writer.flush()


class LoggingTensorHook(SessionRunHook):
    """Log named values every N steps or seconds, and/or at the end.

    Args:
        tensors: Dict `{tag: name}` or a list of names (log keys such as
            `"loss"`, `"global_step"`, variable paths, layer names).
        every_n_iter: Log every that many `run` calls.
        every_n_secs: Log every that many seconds.
        at_end: Also log the final values when the session ends.
        formatter: `formatter(dict tag -> value) -> str`.

    Example:

    >>> hook = LoggingTensorHook({"step": "global_step", "loss": "loss"},
    ...                          every_n_iter=100)
    """

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None,
                 at_end=False, formatter=None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == \
                (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of "
                             "every_n_iter and every_n_secs must be "
                             "provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if isinstance(tensors, dict):
            self._tag_order = sorted(tensors)
        else:
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        self._tensors = tensors
        self._formatter = formatter
        self._log_at_end = at_end
        self._timer = None if only_at_end else SecondOrStepTimer(
            every_secs=every_n_secs, every_steps=every_n_iter)
        self._iter_count = 0
        self._should_trigger = False

    def begin(self):
        if self._timer is not None:
            self._timer.reset()
        self._iter_count = 0

    def before_run(self, run_context):
        self._should_trigger = self._timer is not None and \
            self._timer.should_trigger_for_step(self._iter_count)
        if self._should_trigger:
            return SessionRunArgs(dict(self._tensors))
        return None

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def _log_tensors(self, values):
        values = {tag: _as_tf_value(value) for tag, value in values.items()}
        elapsed = None
        if self._timer is not None:
            elapsed, _ = self._timer.update_last_triggered_step(
                self._iter_count)
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        try:
            if self._formatter is not None:
                logger.info(self._formatter(values))
                return
            stats = ", ".join(f"{tag} = {values[tag]!s}"
                              for tag in self._tag_order)
            if elapsed is not None:
                logger.info("%s (%.3f sec)", stats, elapsed)
            else:
                logger.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.fetch(dict(self._tensors)))


def _as_tf_value(value):
    """A logged number as TF fetches it: a float32 loss prints as float32
    (`7.6441193`, not `7.6441192626953125`) and an int as int64."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return np.int64(value)
    if isinstance(value, float) and float(np.float32(value)) == value:
        return np.float32(value)
    return value


class FeedFnHook(SessionRunHook):
    """Feed each step from `feed_fn()`: a dict with `"x"`, `"y"` and/or
    `"sample_weight"` replacing those parts of the batch.

    Example:

    >>> import numpy as np
    >>> hook = FeedFnHook(lambda: {"x": np.ones((2, 3)),
    ...                            "y": np.zeros((2, 1))})
    >>> sorted(hook.before_run(None).feed_dict)
    ['x', 'y']
    """

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class FinalOpsHook(SessionRunHook):
    """Fetch `final_ops` when the session ends (see `final_ops_values`).

    Args:
        final_ops: Names (or a nested structure of names) to fetch.
        final_ops_feed_dict: Optional `{"x": ...}` for layer outputs.

    Example:

    >>> hook = FinalOpsHook(["global_step"])
    >>> hook.final_ops_values is None
    True
    """

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        self._final_ops_values = session.fetch(self._final_ops,
                                               self._final_ops_feed_dict)


class GlobalStepWaiterHook(SessionRunHook):
    """Delay the first step until the global step reaches a value.

    For workers that should wait for the chief to make progress: the global
    step is read (every 0.5 s) from the session, so it advances only when
    something else trains the same variables (another thread, or a
    parameter-server runtime).

    Args:
        wait_until_step: Global step to wait for (`<= 0`: no wait).

    Example:

    >>> hook = GlobalStepWaiterHook(wait_until_step=0)
    """

    poll_secs = 0.5

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logger.info("Waiting for global step %d before starting training.",
                    self._wait_until_step)
        last_logged = None
        while True:
            current = _global_step(run_context.session)
            if current >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if last_logged is None or time.time() - last_logged > 30:
                last_logged = time.time()
                logger.info("Waiting for global step %d before starting "
                            "training. Current step is %d.",
                            self._wait_until_step, current)
            time.sleep(self.poll_secs)
