"""`CheckpointSaverHook` and its listeners."""
import logging
import os

from kerasish.train.checkpoint import Saver
from kerasish.train.session_run_hook import SessionRunArgs, SessionRunHook
from kerasish.train.timer import SecondOrStepTimer
from kerasish.saving.file_utils import atomic_path

logger = logging.getLogger("kerasish.train")


class CheckpointSaverListener:
    """Called around each checkpoint `CheckpointSaverHook` writes.

    `after_save` returning `True` requests a stop of the session.

    Example:

    >>> class Count(CheckpointSaverListener):
    ...     def begin(self):
    ...         self.saves = 0
    ...     def after_save(self, session, global_step_value):
    ...         self.saves += 1
    """

    def begin(self):
        """Before the session is created."""

    def before_save(self, session, global_step_value):
        """Before a checkpoint is written."""

    def after_save(self, session, global_step_value):
        """After a checkpoint is written; return True to stop training."""

    def end(self, session, global_step_value):
        """At the end of the session, after the last checkpoint."""


class CheckpointSaverHook(SessionRunHook):
    """Save checkpoints every N steps or seconds, at creation and at end.

    Checkpoints are `<checkpoint_dir>/<basename>-<global step>.weights.h5`
    (weights and optimizer state, Keras 3's layout) listed in
    `<checkpoint_dir>/checkpoint`, which `ChiefSessionCreator` restores.
    `save_graph_def` also writes the model's config as
    `<checkpoint_dir>/graph.json` (the counterpart of TF1's `graph.pbtxt`).

    Args:
        checkpoint_dir: Folder of the checkpoints.
        save_secs: Save every that many seconds.
        save_steps: Save every that many global steps (exactly one of the
            two).
        saver: A `Saver` (default: the scaffold's, else `Saver()`).
        checkpoint_basename: File prefix. Defaults to `"model.ckpt"`.
        scaffold: A `Scaffold` whose saver to use (not with `saver`).
        listeners: `CheckpointSaverListener`s.
        save_graph_def: Write `graph.json`. Defaults to `True`.

    Example:

    >>> import tempfile
    >>> hook = CheckpointSaverHook(tempfile.mkdtemp(), save_steps=100)
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None,
                 saver=None, checkpoint_basename="model.ckpt", scaffold=None,
                 listeners=None, save_graph_def=True):
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._checkpoint_dir = os.fspath(checkpoint_dir)
        self._save_path = os.path.join(self._checkpoint_dir,
                                       checkpoint_basename)
        self._saver = saver
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs,
                                        every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def
        logger.info("Create CheckpointSaverHook.")

    def _get_saver(self):
        if self._saver is None:
            self._saver = (self._scaffold.finalize().saver
                           if self._scaffold is not None else Saver())
        return self._saver

    def begin(self):
        self._timer.reset()
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        step = session.fetch("global_step")
        if self._save_graph_def:
            self._write_graph(session.model)
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def _write_graph(self, model):
        os.makedirs(self._checkpoint_dir, exist_ok=True)
        try:
            text = model.to_json(indent=1)
        except (TypeError, ValueError, NotImplementedError) as e:
            logger.info("Not writing graph.json: the model has no JSON "
                        "config (%s).", e)
            return
        with atomic_path(os.path.join(self._checkpoint_dir,
                                      "graph.json")) as tmp:
            with open(tmp, "w") as f:
                f.write(text)

    def before_run(self, run_context):
        return SessionRunArgs("global_step")

    def after_run(self, run_context, run_values):
        step = run_values.results
        if self._timer.should_trigger_for_step(step):
            self._timer.update_last_triggered_step(step)
            if self._save(run_context.session, step):
                run_context.request_stop()

    def end(self, session):
        step = session.fetch("global_step")
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _save(self, session, step):
        """Write a checkpoint; True if a listener asks to stop."""
        logger.info("Calling checkpoint listeners before saving checkpoint "
                    "%d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logger.info("Saving checkpoints for %d into %s.", step,
                    self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step)
        logger.info("Calling checkpoint listeners after saving checkpoint "
                    "%d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logger.info("A CheckpointSaverListener requested that "
                            "training be stopped. listener: %s", listener)
                should_stop = True
        return should_stop
