"""`EstimatorSpec`: what a `model_fn` returns, checked against its mode."""
import collections

import numpy as np

from kerasish.estimator.mode_keys import ModeKeys
from kerasish.train.session_run_hook import SessionRunHook
from kerasish.metrics.metric import Metric
from kerasish.train.session_creator import Scaffold

_NEEDS = {
    ModeKeys.TRAIN: "a `loss` and a `train_op` (what `optimizer.minimize("
                    "loss, var_list)` returns)",
    ModeKeys.EVAL: "a `loss` (and optionally `eval_metric_ops`)",
    ModeKeys.PREDICT: "`predictions`",
}


def _missing(mode, what):
    return ValueError(
        f"Missing {what}. An EstimatorSpec for mode {mode!r} needs "
        f"{_NEEDS[mode]}. Received: {what}=None")


def _check_hooks(hooks, name):
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(
                f"All hooks must be SessionRunHook instances, given: "
                f"{hook!r} in {name}.")
    return hooks


def _check_loss(loss):
    value = np.asarray(getattr(loss, "_value", loss))
    if value.size != 1:
        raise ValueError(f"Loss must be scalar, given a value of shape "
                         f"{value.shape}: {loss!r:.200}")
    if value.dtype.kind not in "fiu":
        raise ValueError(f"Loss must be a number, given dtype {value.dtype}.")
    return loss


def _check_metrics(eval_metric_ops):
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError("eval_metric_ops must be a dict, given: "
                        f"{eval_metric_ops!r:.200}")
    for key, metric in eval_metric_ops.items():
        if not isinstance(metric, Metric):
            raise TypeError(
                f"eval_metric_ops[{key!r}] must be a keras Metric object "
                "whose update_state(...) the model_fn calls (its state "
                "accumulates over the evaluation's batches). Received: "
                f"{metric!r:.200}")
    return dict(eval_metric_ops)


class EstimatorSpec(collections.namedtuple("EstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metric_ops",
        "export_outputs", "training_chief_hooks", "training_hooks",
        "scaffold", "evaluation_hooks", "prediction_hooks"])):
    """What a `model_fn` returns (TF's fields, checked for the mode).

    Args:
        mode: A `ModeKeys` value.
        predictions: A tensor or dict of tensors (needed in PREDICT).
        loss: Scalar training loss (needed in TRAIN and EVAL).
        train_op: The result of the optimizer step (needed in TRAIN):
            `optimizer.minimize(loss, var_list)` (kerasish runs `model_fn`
            eagerly, so the update has happened when it returns).
        eval_metric_ops: Dict of keras `Metric` objects updated in EVAL.
        export_outputs: Optional dict describing exported outputs.
        training_chief_hooks: Hooks run on the chief in TRAIN.
        training_hooks: Hooks run on every worker in TRAIN.
        scaffold: A `kerasish.train.Scaffold` (its `init_fn` runs when
            training starts without a checkpoint).
        evaluation_hooks: Hooks run in EVAL.
        prediction_hooks: Hooks run in PREDICT.

    Example:

    >>> spec = EstimatorSpec(ModeKeys.PREDICT, predictions={"y": np.ones(2)})
    >>> spec.mode, sorted(spec.predictions)
    ('infer', ['y'])
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None,
                eval_metric_ops=None, export_outputs=None,
                training_chief_hooks=None, training_hooks=None,
                scaffold=None, evaluation_hooks=None, prediction_hooks=None):
        if mode not in ModeKeys.all():
            raise ValueError(f"mode must be one of {ModeKeys.all()}. "
                             f"Received: mode={mode!r}")
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL) and loss is None:
            raise _missing(mode, "loss")
        if mode == ModeKeys.TRAIN and train_op is None:
            raise _missing(mode, "train_op")
        if mode == ModeKeys.PREDICT and predictions is None:
            raise _missing(mode, "predictions")
        if loss is not None:
            _check_loss(loss)
        if scaffold is not None and not isinstance(scaffold, Scaffold):
            raise TypeError("scaffold must be a kerasish.train.Scaffold. "
                            f"Given: {scaffold!r}")
        if export_outputs is not None and not isinstance(export_outputs,
                                                         dict):
            raise TypeError("export_outputs must be a dict, given: "
                            f"{export_outputs!r:.200}")
        return super().__new__(
            cls, mode, predictions, loss, train_op,
            _check_metrics(eval_metric_ops), export_outputs,
            _check_hooks(training_chief_hooks, "training_chief_hooks"),
            _check_hooks(training_hooks, "training_hooks"),
            scaffold or Scaffold(),
            _check_hooks(evaluation_hooks, "evaluation_hooks"),
            _check_hooks(prediction_hooks, "prediction_hooks"))
