"""`add_metrics`: an Estimator's twin that reports more eval metrics."""
from kerasish.estimator import inputs
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.mode_keys import ModeKeys

_METRIC_FN_ARGS = ("features", "labels", "predictions", "config")


def _check_metric_fn(metric_fn):
    if not callable(metric_fn):
        raise ValueError(f"metric_fn must be callable. Received: "
                         f"metric_fn={metric_fn!r}")
    unexpected = [a for a in inputs.fn_args(metric_fn)
                  if a not in _METRIC_FN_ARGS]
    if unexpected:
        raise ValueError(f"metric_fn ({metric_fn}) has following not "
                         f"expected args: {unexpected}. It may take any of "
                         f"{list(_METRIC_FN_ARGS)}.")


def add_metrics(estimator, metric_fn):
    """A new Estimator like `estimator`, whose `evaluate` also reports the
    metrics of `metric_fn` (TF's `tf.estimator.add_metrics`).

    `metric_fn` takes any of `features`, `labels`, `predictions` and
    `config`, and returns a dict of metric name to a `keras.metrics.Metric`
    it updated. As every object made inside a `model_fn`, the metric made
    at each batch shares its state by name with the one before, so it
    accumulates over the evaluation. The new Estimator shares `model_dir`,
    `config` and warm-start settings, so it reads the same checkpoints.

    Args:
        estimator: An `Estimator`.
        metric_fn: The function above.

    Returns:
        An `Estimator`.

    Example:

    >>> import kerasish as keras
    >>> from kerasish import feature_column as fc
    >>> from kerasish.estimator import LinearRegressor
    >>> def rmse(labels, predictions):
    ...     metric = keras.metrics.RootMeanSquaredError()
    ...     metric.update_state(labels, predictions["predictions"])
    ...     return {"rmse": metric}
    >>> est = add_metrics(LinearRegressor([fc.numeric_column("x")]), rmse)
    >>> data = ({"x": np.ones((4, 1))}, np.full(4, 2.0))
    >>> _ = est.train(lambda: data, steps=1)
    >>> sorted(est.evaluate(lambda: data, steps=1))[-2:]
    ['prediction/mean', 'rmse']
    """
    _check_metric_fn(metric_fn)
    wanted = inputs.fn_args(metric_fn)
    original = estimator.model_fn

    def model_fn(features, labels, mode, config):
        spec = original(features, labels, mode, config)
        if mode != ModeKeys.EVAL:
            return spec
        given = {"features": features, "labels": labels,
                 "predictions": spec.predictions, "config": config}
        metrics = dict(spec.eval_metric_ops or {})
        metrics.update(metric_fn(**{a: given[a] for a in wanted}))
        return spec._replace(eval_metric_ops=metrics)

    return Estimator(model_fn, model_dir=estimator.model_dir,
                     config=estimator.config,
                     warm_start_from=estimator._warm_start_settings)
