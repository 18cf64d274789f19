"""Evaluation helpers: the step-limit hook and the results record.

`Estimator.evaluate` writes each evaluation under `model_dir/eval` (or
`eval_<name>`): one JSON line per evaluation in `eval_results.jsonl`
(global step, checkpoint, every result), and, when tensorboardX is
installed, TensorBoard scalars at the global step.
"""
import json
import logging
import os

import numpy as np

from kerasish.train.session_run_hook import SessionRunHook
from kerasish.callbacks.summary_writer import SummaryWriter

logger = logging.getLogger("kerasish.estimator")
RESULTS_FILE = "eval_results.jsonl"


class StopAfterNEvalsHook(SessionRunHook):
    """Stop an evaluation after `num_evals` batches.

    Args:
        num_evals: Batches to evaluate.
        log_progress: Log `Evaluation [i/n]` every tenth of the way.

    Example:

    >>> StopAfterNEvalsHook(num_evals=10).evals_completed
    0
    """

    def __init__(self, num_evals, log_progress=True):
        self._num_evals = num_evals
        self._log_progress = log_progress
        self._log_every = max(num_evals // 10, 1)
        self.evals_completed = 0

    def begin(self):
        self.evals_completed = 0

    def after_run(self, run_context, run_values):
        self.evals_completed += 1
        if self._log_progress and (
                self.evals_completed % self._log_every == 0 or
                self.evals_completed == self._num_evals):
            logger.info("Evaluation [%d/%d]", self.evals_completed,
                        self._num_evals)
        if self.evals_completed >= self._num_evals:
            run_context.request_stop()


def _jsonable(value):
    array = np.asarray(value)
    if array.ndim == 0:
        return array.item()
    return array.tolist()


def write_eval_results(eval_dir, results, checkpoint_path):
    """Append `results` to the evaluation record (and TensorBoard)."""
    os.makedirs(eval_dir, exist_ok=True)
    step = int(results["global_step"])
    record = {"global_step": step, "checkpoint_path": checkpoint_path}
    record.update({k: _jsonable(v) for k, v in results.items()
                   if k != "global_step"})
    with open(os.path.join(eval_dir, RESULTS_FILE), "a") as f:
        f.write(json.dumps(record) + "\n")
    _write_summaries(eval_dir, results, checkpoint_path, step)
    logger.info("Saving dict for global step %d: %s", step, ", ".join(
        f"{k} = {_printed(v)}" for k, v in sorted(results.items())))
    if checkpoint_path:
        logger.info("Saving 'checkpoint_path' summary for global step %d: "
                    "%s", step, checkpoint_path)


def _printed(value):
    """How TF prints a result: its metrics are float32 (`0.9239352`)."""
    if isinstance(value, (float, np.floating)):
        return str(np.float32(value))
    return str(value)


def _write_summaries(eval_dir, results, checkpoint_path, step):
    try:
        # lazy: optional dependency
        import tensorboardX  # noqa: F401
    except ImportError:
        return
    writer = SummaryWriter(eval_dir, "Estimator.evaluate")
    try:
        for key, value in sorted(results.items()):
            array = np.asarray(value)
            if key == "global_step" or array.dtype.kind not in "biuf":
                continue
            if array.ndim == 0:
                writer.scalar(key, float(array), step)
            else:
                writer.histogram(key, array, step)
        if checkpoint_path:
            writer.string_tensor("checkpoint_path", str(checkpoint_path),
                                 step)
    finally:
        writer.close()


def read_eval_results(eval_dir):
    """Every record of `eval_dir`'s `eval_results.jsonl`, oldest first.

    Example:

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> write_eval_results(folder, {"loss": 0.5, "global_step": 3}, None)
    >>> read_eval_results(folder)
    [{'global_step': 3, 'checkpoint_path': None, 'loss': 0.5}]
    """
    path = os.path.join(eval_dir, RESULTS_FILE)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
