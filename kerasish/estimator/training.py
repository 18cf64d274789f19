"""`train_and_evaluate`: alternate training and evaluation (TF's semantics).

Locally, training runs once, until `train_spec.max_steps`, with a
checkpoint listener: at each checkpoint saved after the first, if at least
`eval_spec.throttle_secs` passed since the last evaluation, the new
checkpoint is evaluated (and exported); at the end the last checkpoint is
evaluated unless it already was. So the evaluation frequency is set by the
`RunConfig`'s checkpoint frequency and the throttle. With a `TF_CONFIG`
cluster, a chief or worker task trains and an evaluator task evaluates each
new checkpoint until the last step is reached.
"""
import collections
import logging
import os
import time

from kerasish.estimator.checks import check_hooks_type
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.exporter import Exporter
from kerasish.estimator.run_config import TaskType
from kerasish.train import CheckpointSaverListener, SecondOrStepTimer

logger = logging.getLogger("kerasish.estimator")


class TrainSpec(collections.namedtuple("TrainSpec", [
        "input_fn", "max_steps", "hooks", "saving_listeners"])):
    """The training half of `train_and_evaluate`.

    Args:
        input_fn: Training `input_fn`.
        max_steps: Global step to train to (None: until the input ends).
        hooks: Hooks for training.
        saving_listeners: Extra `CheckpointSaverListener`s.

    Example:

    >>> TrainSpec(lambda: None, max_steps=100).max_steps
    100
    """

    def __new__(cls, input_fn, max_steps=None, hooks=None,
                saving_listeners=None):
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: "
                            f"{input_fn!r}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: "
                             f"{max_steps}")
        return super().__new__(cls, input_fn, max_steps,
                               tuple(check_hooks_type(hooks)),
                               tuple(saving_listeners or ()))


class EvalSpec(collections.namedtuple("EvalSpec", [
        "input_fn", "steps", "name", "hooks", "exporters",
        "start_delay_secs", "throttle_secs"])):
    """The evaluation half of `train_and_evaluate`.

    Args:
        input_fn: Evaluation `input_fn`.
        steps: Batches per evaluation (None: the whole input). Defaults
            to 100.
        name: Evaluation name (results under `model_dir/eval_<name>`).
        hooks: Hooks for evaluation.
        exporters: `Exporter`s run after each evaluation.
        start_delay_secs: An evaluator task waits this long first.
        throttle_secs: Minimum seconds between evaluations. Defaults to 600.

    Example:

    >>> EvalSpec(lambda: None, steps=None, throttle_secs=0).throttle_secs
    0
    """

    def __new__(cls, input_fn, steps=100, name=None, hooks=None,
                exporters=None, start_delay_secs=120, throttle_secs=600):
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: "
                            f"{input_fn!r}")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name!r}")
        if start_delay_secs < 0:
            raise ValueError("Must specify start_delay_secs >= 0, given: "
                             f"{start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: "
                             f"{throttle_secs}")
        return super().__new__(cls, input_fn, steps, name,
                               tuple(check_hooks_type(hooks)),
                               _check_exporters(exporters), start_delay_secs,
                               throttle_secs)


def _check_exporters(exporters):
    if exporters is None:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    names = set()
    for exporter in exporters:
        if not isinstance(exporter, Exporter):
            raise TypeError("`exporters` must be an Exporter, an iterable "
                            f"of Exporter, or None, found {exporter!r}.")
        if exporter.name in names:
            raise ValueError("`exporters` must have unique names. Such a "
                             f"name cannot be `None`. {exporter.name} "
                             "already exists.")
        names.add(exporter.name)
    return tuple(exporters)


class _Evaluator:
    """Evaluates (and exports) the newest checkpoint of the estimator."""

    def __init__(self, estimator, eval_spec, max_steps):
        self._estimator = estimator
        self._spec = eval_spec
        self._max_steps = max_steps
        self._previous = None
        self.evaluations = 0

    def evaluate_and_export(self):
        """`(metrics or None, export results)` for the latest checkpoint."""
        latest = self._estimator.latest_checkpoint()
        if latest is None or latest == self._previous:
            logger.info("No new checkpoint to evaluate (latest: %s).",
                        latest)
            return None, []
        metrics = self._estimator.evaluate(
            self._spec.input_fn, steps=self._spec.steps,
            hooks=list(self._spec.hooks), checkpoint_path=latest,
            name=self._spec.name)
        self._previous = latest
        self.evaluations += 1
        final = self._max_steps is not None and \
            metrics["global_step"] >= self._max_steps
        export_base = os.path.join(self._estimator.model_dir, "export")
        exports = [exporter.export(self._estimator, os.path.join(
            export_base, exporter.name), latest, metrics, final)
            for exporter in self._spec.exporters]
        return metrics, exports


class _EvaluateOnCheckpoint(CheckpointSaverListener):
    """Evaluate new checkpoints during training, throttled (TF's
    `_NewCheckpointListenerForEvaluate`)."""

    def __init__(self, evaluator, throttle_secs):
        self._evaluator = evaluator
        self._throttle_secs = throttle_secs
        self.eval_result, self.export_results = None, []

    def begin(self):
        self._timer = SecondOrStepTimer(every_secs=self._throttle_secs)
        self._is_first_run = True

    def after_save(self, session, global_step_value):
        if self._is_first_run:
            self._is_first_run = False
            return False
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            logger.info("Skip the current checkpoint eval due to throttle "
                        "secs (%s secs).", self._throttle_secs)
        return False

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        metrics, exports = self._evaluator.evaluate_and_export()
        if metrics is None:
            raise RuntimeError("There was no new checkpoint after the "
                               "training.")
        self.eval_result, self.export_results = metrics, exports


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Train, evaluating new checkpoints along the way (TF's function).

    Args:
        estimator: An `Estimator`.
        train_spec: A `TrainSpec`.
        eval_spec: An `EvalSpec`.

    Returns:
        `(metrics of the last evaluation, export results)`; `(None, [])`
        for a task that does not evaluate.

    Example:

    >>> from kerasish import estimator
    >>> def model_fn(features, labels, mode):
    ...     layer = kerasish.layers.Dense(1)
    ...     loss = kerasish.ops.mean((layer(features["x"]) - labels) ** 2)
    ...     train_op = None
    ...     if mode == estimator.ModeKeys.TRAIN:
    ...         train_op = kerasish.optimizers.SGD(0.1).minimize(
    ...             loss, layer.trainable_variables)
    ...     return estimator.EstimatorSpec(mode, loss=loss,
    ...                                    train_op=train_op)
    >>> data = ({"x": np.ones((4, 2), "float32")},
    ...         np.ones((4, 1), "float32"))
    >>> metrics, exports = train_and_evaluate(
    ...     estimator.Estimator(model_fn, model_dir="est"),
    ...     TrainSpec(lambda: data, max_steps=5),
    ...     EvalSpec(lambda: data, steps=1,
    ...              exporters=estimator.LatestExporter("latest")))
    >>> metrics["global_step"], sorted(metrics)
    (5, ['global_step', 'loss'])
    >>> [path.replace(os.sep, "/") for path in exports]
    ['est/export/latest/5']
    """
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `kerasish.estimator."
                        f"Estimator`. Got: {type(estimator).__name__}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError("`train_spec` must have type `TrainSpec`. Got: "
                        f"{type(train_spec).__name__}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `EvalSpec`. Got: "
                        f"{type(eval_spec).__name__}")
    config = estimator.config
    if config.cluster_spec:
        return _run_task(estimator, train_spec, eval_spec, config.task_type)
    return _run_local(estimator, train_spec, eval_spec)


def _run_local(estimator, train_spec, eval_spec):
    # throttle_secs=0 evaluates every new checkpoint (TF removed its
    # "should be positive" check when evaluation moved to a listener).
    logger.info("Start train and evaluate loop. The evaluate will happen "
                "after every checkpoint. Checkpoint frequency is determined "
                "based on RunConfig arguments: save_checkpoints_steps %s or "
                "save_checkpoints_secs %s.",
                estimator.config.save_checkpoints_steps,
                estimator.config.save_checkpoints_secs)
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    listener = _EvaluateOnCheckpoint(evaluator, eval_spec.throttle_secs)
    estimator.train(train_spec.input_fn, max_steps=train_spec.max_steps,
                    hooks=list(train_spec.hooks),
                    saving_listeners=[listener, *train_spec.saving_listeners])
    if listener.eval_result is None:
        # Training was skipped (max_steps already reached): evaluate the
        # checkpoint there is, as TF's evaluator would.
        metrics, exports = evaluator.evaluate_and_export()
        return metrics, exports
    return listener.eval_result, listener.export_results


def _run_task(estimator, train_spec, eval_spec, task_type):
    if task_type in (TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER):
        estimator.train(train_spec.input_fn, max_steps=train_spec.max_steps,
                        hooks=list(train_spec.hooks),
                        saving_listeners=list(train_spec.saving_listeners))
        return None, []
    if task_type == TaskType.EVALUATOR:
        return _run_evaluator(estimator, train_spec, eval_spec)
    raise ValueError(
        f"train_and_evaluate has nothing to run for task type "
        f"{task_type!r}: parameter servers are served by kerasish's "
        "distributed runtime (kerasish.distribute), not by this function.")


def _run_evaluator(estimator, train_spec, eval_spec, poll_secs=1.0,
                   timeout_secs=None):
    """Evaluate each new checkpoint until one reaches `max_steps`."""
    time.sleep(eval_spec.start_delay_secs)
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    result, exports, waited = None, [], 0.0
    while True:
        start = time.time()
        metrics, new_exports = evaluator.evaluate_and_export()
        if metrics is not None:
            result, exports, waited = metrics, new_exports, 0.0
            if train_spec.max_steps is not None and \
                    metrics["global_step"] >= train_spec.max_steps:
                return result, exports
        elapsed = time.time() - start
        pause = max(eval_spec.throttle_secs - elapsed, poll_secs)
        if timeout_secs is not None and waited + pause > timeout_secs:
            return result, exports
        waited += pause
        time.sleep(pause)
