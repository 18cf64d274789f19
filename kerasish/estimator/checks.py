"""Argument checks of `Estimator` and the shaping of predictions."""
from kerasish.estimator import inputs
from kerasish.callbacks.callback import Callback
from kerasish.train.session_run_hook import SessionRunHook

_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "config"}


def verify_model_fn_args(model_fn, params):
    if not callable(model_fn):
        raise ValueError(f"model_fn must be callable. Received: {model_fn!r}")
    args = set(inputs.fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({model_fn}) must include features "
                         "argument.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({model_fn}) does not include params "
                         f"argument, but params ({params}) is passed to "
                         "Estimator.")
    unexpected = args - _MODEL_FN_ARGS
    if unexpected:
        raise ValueError(f"model_fn ({model_fn}) has following not expected "
                         f"args: {sorted(unexpected)}")


def check_hooks_type(hooks):
    hooks = list(hooks or [])
    for hook in hooks:
        if not isinstance(hook, (SessionRunHook, Callback)):
            raise TypeError("All hooks must be SessionRunHook instances, "
                            f"given: {hook!r}")
    return hooks


def check_steps(steps, max_steps):
    if steps is not None and max_steps is not None:
        raise ValueError("Can not provide both steps and max_steps.")
    if steps is not None and steps <= 0:
        raise ValueError(f"Must specify steps > 0, given: {steps}")
    if max_steps is not None and max_steps <= 0:
        raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")


def extract_keys(predictions, predict_keys):
    if not predict_keys:
        return predictions
    if not isinstance(predictions, dict):
        raise ValueError("predict_keys argument is not valid in case of "
                         "non-dict predictions.")
    chosen = {k: v for k, v in predictions.items() if k in predict_keys}
    if not chosen:
        raise ValueError(f"Expected to run at least one output from "
                         f"{sorted(predictions)}, provided {predict_keys}.")
    return chosen


def examples(predictions):
    if not isinstance(predictions, dict):
        yield from predictions
        return
    lengths = {k: len(v) for k, v in predictions.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError("Batch length of predictions should be same. "
                         f"Received lengths: {lengths}")
    for i in range(next(iter(lengths.values()), 0)):
        yield {k: v[i] for k, v in predictions.items()}
