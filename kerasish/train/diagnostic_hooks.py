"""Hooks that look inside steps: `NanTensorHook`, `SummarySaverHook`,
`ProfilerHook`."""
import json
import logging
import os

import numpy as np

from kerasish.saving import file_utils
from kerasish.train.errors import NanLossDuringTrainingError
from kerasish.train.session import RunOptions
from kerasish.train.session_run_hook import SessionRunArgs, SessionRunHook
from kerasish.train.timer import SecondOrStepTimer
from kerasish.callbacks.summary_writer import require_tensorboardx
from kerasish.callbacks.summary_writer import SummaryWriter
from kerasish.callbacks.tensorboard import chrome_events

logger = logging.getLogger("kerasish.train")


class NanTensorHook(SessionRunHook):
    """Stop (or fail) when the loss is NaN (as TF's, an infinite loss
    does not count).

    Beyond TF1: the logged message (and the error's `first_non_finite`)
    says where the first non-finite value appeared — the first layer (in the forward pass) whose output was not
    finite, else the first layer (in the backward pass) whose incoming
    gradient was not finite, else the weights that the update made
    non-finite. To know that, the hook asks each step to watch layer
    outputs and gradients (a finiteness check per layer).

    Args:
        loss_tensor: Name of the loss to check (e.g. `"loss"`).
        fail_on_nan_loss: Raise `NanLossDuringTrainingError` (default)
            instead of logging a warning and requesting a stop.

    Example:

    >>> hook = NanTensorHook("loss", fail_on_nan_loss=False)
    """

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor,
                              options=RunOptions(check_finite=True))

    def after_run(self, run_context, run_values):
        loss = np.asarray(run_values.results, dtype=np.float64)
        if not np.isnan(loss).any():
            return
        where = _diagnose(run_values.run_metadata, run_context.session)
        message = "Model diverged with loss = NaN."    # TF's text
        if where:
            message += f" {where[:1].upper()}{where[1:]}."
        if self._fail_on_nan_loss:
            logger.error(message)
            error = NanLossDuringTrainingError()
            error.first_non_finite = where
            raise error
        logger.warning(message)
        run_context.request_stop()


def _diagnose(metadata, session):
    where = metadata.diagnose() if metadata is not None else None
    if where:
        return where
    model = getattr(session, "model", None)
    for variable in getattr(model, "trainable_variables", []):
        if not np.isfinite(variable.numpy()).all():
            return (f"variable '{variable.path}' became non-finite in the "
                    "update")
    return None


class SummarySaverHook(SessionRunHook):
    """Write the step's values as TensorBoard summaries every N steps/secs.

    Scalars are written under their names at the global step; arrays
    (variables, layer outputs) as histograms. Needs tensorboardX.

    Args:
        save_steps: Write every that many global steps.
        save_secs: Write every that many seconds (exactly one of the two).
        output_dir: Folder of the event file.
        summary_writer: A `SummaryWriter` to use instead of `output_dir`.
        scaffold: Accepted for TF1 compatibility.
        summary_op: Names to write (log keys, `"global_step"`, variable
            paths, layer names); default: every log key of the step.

    Example:

    >>> import tempfile
    >>> hook = SummarySaverHook(save_steps=10, output_dir=tempfile.mkdtemp())
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir=None,
                 summary_writer=None, scaffold=None, summary_op=None):
        if summary_writer is None and output_dir is None:
            raise ValueError("SummarySaverHook needs `output_dir` or "
                             "`summary_writer`.")
        self._timer = SecondOrStepTimer(every_secs=save_secs,
                                        every_steps=save_steps)
        self._output_dir = output_dir
        self._writer = summary_writer
        self._owns_writer = summary_writer is None
        if summary_writer is None:
            require_tensorboardx("SummarySaverHook")
        self._summary_op = list(summary_op) if summary_op else None

    def begin(self):
        if self._writer is None:
            self._writer = SummaryWriter(self._output_dir,
                                         "SummarySaverHook")
        self._next_step = None
        self._timer.reset()

    def before_run(self, run_context):
        self._request = self._next_step is None or \
            self._timer.should_trigger_for_step(self._next_step)
        fetches = {"global_step": "global_step"}
        if self._request and self._summary_op:
            fetches["values"] = {name: name for name in self._summary_op}
        return SessionRunArgs(fetches)

    def after_run(self, run_context, run_values):
        step = run_values.results["global_step"]
        if self._request:
            self._timer.update_last_triggered_step(step)
            values = run_values.results.get("values")
            if values is None:
                values = run_values.run_metadata.logs
            for name, value in values.items():
                self._write(name, value, step)
        self._next_step = step + 1

    def _write(self, name, value, step):
        array = np.asarray(value)
        if array.ndim == 0 and array.dtype.kind in "biuf":
            self._writer.scalar(name, float(array), step)
        elif array.dtype.kind in "biuf":
            self._writer.histogram(name, array, step)

    def end(self, session):
        if self._owns_writer:
            self._writer.close()
        else:
            self._writer.flush()


class ProfilerHook(SessionRunHook):
    """Write Chrome traces (`timeline-<step>.json`) of selected steps.

    Each trace has the whole step and every layer call's forward and
    backward span (open it in chrome://tracing or Perfetto).
    `show_dataflow` links each layer's forward span to its backward span
    with flow arrows; `show_memory` adds each layer output's size in bytes.

    Args:
        save_steps: Trace every that many global steps.
        save_secs: Trace every that many seconds (exactly one of the two).
        output_dir: Folder of the trace files. Defaults to `""` (cwd).
        show_dataflow: Add forward-to-backward flow arrows.
        show_memory: Add output sizes.

    Example:

    >>> import tempfile
    >>> hook = ProfilerHook(save_steps=100, output_dir=tempfile.mkdtemp())
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir="",
                 show_dataflow=True, show_memory=False):
        self._output_dir = os.fspath(output_dir)
        self._timer = SecondOrStepTimer(every_secs=save_secs,
                                        every_steps=save_steps)
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory

    def begin(self):
        self._next_step = None
        self._timer.reset()

    def before_run(self, run_context):
        # As TF: never the first step (it would time start-up work).
        self._request = self._next_step is not None and \
            self._timer.should_trigger_for_step(self._next_step)
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) \
            if self._request else None
        return SessionRunArgs("global_step", options=options)

    def after_run(self, run_context, run_values):
        step = run_values.results
        if self._next_step is None:
            # The timer counts from the step before the first one, as TF's
            # (which reads the global step before the update).
            self._timer.update_last_triggered_step(step - 1)
        if self._request:
            self._timer.update_last_triggered_step(step)
            self._save(step, run_values.run_metadata.step_stats)
        self._next_step = step + 1

    def _save(self, step, result):
        events = chrome_events(result, step)
        if self._show_dataflow:
            events += _flows(events)
        if self._show_memory:
            for event, record in zip(
                    [e for e in events if e.get("cat") == "forward"],
                    result.probe.records):
                event["args"]["output_bytes"] = record.output_bytes
        if self._output_dir:
            os.makedirs(self._output_dir, exist_ok=True)
        path = os.path.join(self._output_dir, f"timeline-{step}.json")
        logger.info("Saving timeline for %d into '%s'.", step, path)
        file_utils.write_bytes(path, json.dumps(
            {"traceEvents": events, "displayTimeUnit": "ms"}).encode())


def _flows(events):
    """Chrome flow events from each forward span to its backward span."""
    flows, pending = [], {}
    for event in events:
        key = (event["name"], event["args"].get("depth"))
        if event.get("cat") == "forward":
            pending.setdefault(key, []).append(event)
        elif event.get("cat") == "backward" and pending.get(key):
            forward = pending[key].pop(0)
            flow_id = len(flows) // 2 + 1
            flows.append({"name": "dataflow", "cat": "dataflow", "ph": "s",
                          "id": flow_id, "pid": 0, "tid": forward["tid"],
                          "ts": forward["ts"] + forward["dur"]})
            flows.append({"name": "dataflow", "cat": "dataflow", "ph": "f",
                          "bp": "e", "id": flow_id, "pid": 0,
                          "tid": event["tid"], "ts": event["ts"]})
    return flows
