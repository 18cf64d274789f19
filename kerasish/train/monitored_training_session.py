"""`MonitoredTrainingSession`: TF1's one-call setup of a training session."""
import logging

from kerasish.train.basic_hooks import StepCounterHook
from kerasish.train.checkpoint_hooks import CheckpointSaverHook
from kerasish.train.monitored_session import MonitoredSession
from kerasish.train.session_creator import (ChiefSessionCreator, Scaffold,
                                            WorkerSessionCreator)
from kerasish.train.diagnostic_hooks import SummarySaverHook

logger = logging.getLogger("kerasish.train")

USE_DEFAULT = object()


def _resolve(secs, steps, default_secs, default_steps):
    """TF1's defaults: both unset -> the defaults; one set -> only it."""
    if secs is USE_DEFAULT and steps is USE_DEFAULT:
        return default_secs, default_steps
    return (None if secs is USE_DEFAULT else secs,
            None if steps is USE_DEFAULT else steps)


def _writer_available():
    try:
        # lazy: optional dependency
        import tensorboardX  # noqa: F401
    except ImportError:
        logger.info("tensorboardX is not installed: no summaries are "
                    "written (pip install 'kerasish[tensorboard]').")
        return False
    return True


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None,
                             scaffold=None, hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120,
                             log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True, *,
                             model=None, input=None, stages=None):
    """Create a `MonitoredSession` set up for training `model`.

    A chief restores the latest checkpoint of `checkpoint_dir` (so a
    re-run script resumes), and gets TF1's default hooks, in this order:
    `chief_only_hooks`, a `StepCounterHook` (every `log_step_count_steps`,
    summaries in `summary_dir`), a `SummarySaverHook` (every
    `save_summaries_steps`/`secs`, writing the step's logs; only when
    tensorboardX is installed), a `CheckpointSaverHook` (every
    `save_checkpoint_secs`/`steps`), then `hooks`. Defaults: checkpoints
    every 600 seconds, summaries every 100 steps; setting one of a
    secs/steps pair disables the other's default; `None` disables.
    A non-chief gets only `hooks` and a `WorkerSessionCreator`.

    Args:
        master, config: Accepted for TF1 compatibility.
        is_chief: Whether this process restores, saves and summarizes.
        checkpoint_dir: Folder to restore from and save to.
        scaffold: A `Scaffold` (its saver saves and restores).
        hooks: Hooks (and/or Keras callbacks) for every process.
        chief_only_hooks: Hooks for the chief only.
        save_checkpoint_secs, save_checkpoint_steps: Checkpoint frequency.
        save_summaries_steps, save_summaries_secs: Summary frequency.
        stop_grace_period_secs: See `MonitoredSession`.
        log_step_count_steps: StepCounterHook frequency (0/None: none).
        max_wait_secs: How long a worker waits for the chief.
        summary_dir: Folder of summaries (default: `checkpoint_dir`).
        save_graph_def: Write `graph.json` beside the checkpoints.
        model: The compiled model to train (kerasish: required).
        input: Optional iterable of batches for `sess.run()`.
        stages: kerasish `Stage`s or `(function, every_n_steps)` pairs.

    Returns:
        A `MonitoredSession`.

    Example:

    >>> import tempfile
    >>> import numpy as np
    >>> import kerasish as keras
    >>> from kerasish import train
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> batches = [(np.ones((4, 2)), np.ones((4, 1)))] * 5
    >>> with train.MonitoredTrainingSession(
    ...         model=model, input=batches, checkpoint_dir=tempfile.mkdtemp(),
    ...         hooks=[train.StopAtStepHook(last_step=3)]) as sess:
    ...     while not sess.should_stop():
    ...         logs = sess.run()
    >>> int(train.get_global_step(model).numpy())
    3
    """
    save_summaries_secs, save_summaries_steps = _resolve(
        save_summaries_secs, save_summaries_steps, None, 100)
    save_checkpoint_secs, save_checkpoint_steps = _resolve(
        save_checkpoint_secs, save_checkpoint_steps, 600, None)
    scaffold = scaffold or Scaffold()
    if not is_chief:
        creator = WorkerSessionCreator(scaffold=scaffold, master=master,
                                       config=config,
                                       max_wait_secs=max_wait_secs,
                                       model=model, input=input)
        return MonitoredSession(creator, hooks=hooks,
                                stop_grace_period_secs=stop_grace_period_secs,
                                stages=stages)
    creator = ChiefSessionCreator(scaffold=scaffold, master=master,
                                  config=config,
                                  checkpoint_dir=checkpoint_dir, model=model,
                                  input=input)
    all_hooks = list(chief_only_hooks or [])
    all_hooks += _summary_hooks(summary_dir or checkpoint_dir,
                                log_step_count_steps, save_summaries_steps,
                                save_summaries_secs)
    if checkpoint_dir and ((save_checkpoint_secs and save_checkpoint_secs > 0)
                           or (save_checkpoint_steps and
                               save_checkpoint_steps > 0)):
        all_hooks.append(CheckpointSaverHook(
            checkpoint_dir, save_secs=save_checkpoint_secs,
            save_steps=save_checkpoint_steps, scaffold=scaffold,
            save_graph_def=save_graph_def))
    all_hooks += list(hooks or [])
    return MonitoredSession(creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs,
                            stages=stages)


def _summary_hooks(summary_dir, log_steps, summary_steps, summary_secs):
    if not summary_dir:
        return []
    writer = _writer_available()
    hooks = []
    if log_steps and log_steps > 0:
        hooks.append(StepCounterHook(every_n_steps=log_steps,
                                     output_dir=summary_dir if writer
                                     else None))
    if writer and ((summary_steps and summary_steps > 0) or
                   (summary_secs and summary_secs > 0)):
        hooks.append(SummarySaverHook(save_steps=summary_steps,
                                      save_secs=summary_secs,
                                      output_dir=summary_dir))
    return hooks
