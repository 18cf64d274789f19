"""`model_to_estimator`: an Estimator that trains a compiled Keras model.

The model keeps its own variables (its current weights are the starting
point, as TF warm-started from them); the Estimator's store records them,
and the optimizer's, so checkpoints in `model_dir` hold them and a later
`train`/`evaluate`/`predict` restores them into the model. They are named
by their place in the model, as in a Keras weights file (`layers/dense/
vars/0`, `optimizer/vars/0`), not by object names, so another instance of
the same architecture (`dense_1`, ...) restores them too.
"""
from kerasish import tree
from kerasish.estimator import canned_utils as utils
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.estimator_spec import EstimatorSpec
from kerasish.estimator.mode_keys import ModeKeys
from kerasish.estimator.variable_store import active_store
from kerasish.metrics.metric import Metric
from kerasish.saving import state_walk
from kerasish.saving import load_model


def _input_names(model):
    names = getattr(model, "input_names", None)
    if names:
        return list(names)
    return [t.name for t in getattr(model, "inputs", None) or []]


def _output_names(model):
    try:
        names = model.output_names
    except AttributeError:
        names = None
    return list(names) if names else [model.layers[-1].name]


def _model_inputs(model, features):
    if not isinstance(features, dict):
        return features
    names = _input_names(model)
    if isinstance(getattr(model, "_inputs_struct", None), dict):
        return features
    missing = [n for n in names if n not in features]
    if len(features) == 1 and len(names) <= 1:
        return next(iter(features.values()))
    if missing:
        raise ValueError(
            f"The features dict must have one key per model input "
            f"{names}; missing {missing}. Received keys: {sorted(features)}")
    values = [features[n] for n in names]
    return values[0] if len(values) == 1 else values


def _model_labels(model, labels):
    if not isinstance(labels, dict):
        return labels
    names = _output_names(model)
    if len(labels) == 1 and len(names) == 1:
        return next(iter(labels.values()))
    missing = [n for n in names if n not in labels]
    if missing:
        raise ValueError(f"The labels dict must have one key per model "
                         f"output {names}; missing {missing}.")
    return [labels[n] for n in names]


class KerasMetrics(Metric):
    """The model's compiled metrics as one metric whose result is the
    dict of Keras log names (renamed by `metric_names_map`)."""

    def __init__(self, compiled, names_map=None):
        super().__init__(name="keras_metrics")
        self._compiled = compiled
        self._names_map = dict(names_map or {})

    @property
    def variables(self):
        return self._compiled.variables

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._compiled.update_state(y_true, y_pred, sample_weight)

    def reset_state(self):
        self._compiled.reset_state()

    def result(self):
        results = self._compiled.result() if self._compiled.built else {}
        return {self._names_map.get(k, k): v for k, v in results.items()}


def keras_variable_names(model):
    """`(variables, names)`: the model's and its optimizer's variables,
    named by their place in a Keras weights file."""
    variables, names = [], []
    for path, obj in state_walk.walk(model):
        for i, variable in enumerate(state_walk.own_variables(obj)):
            variables.append(variable)
            names.append(f"{path}/vars/{i}" if path else f"vars/{i}")
    for i, variable in enumerate(model.optimizer.variables):
        variables.append(variable)
        names.append(f"optimizer/vars/{i}")
    return variables, names


def _keras_model_fn(model, metric_names_map, export_outputs):
    variables, names = keras_variable_names(model)

    def model_fn(features, labels, mode):
        store = active_store()
        optimizer = model.optimizer
        store.adopt(variables, names)
        x = _model_inputs(model, features)
        y_pred = model(x, training=mode == ModeKeys.TRAIN)
        outputs = y_pred if isinstance(y_pred, (list, tuple)) else [y_pred]
        predictions = dict(zip(_output_names(model), tree.flatten(outputs)))
        if mode == ModeKeys.PREDICT:
            return EstimatorSpec(mode, predictions=predictions,
                                 export_outputs=export_outputs)
        y = _model_labels(model, labels)
        loss = model._compute_loss(x, y, y_pred, None,
                                   training=mode == ModeKeys.TRAIN)
        if mode == ModeKeys.TRAIN:
            train_op = optimizer.minimize(loss, model.trainable_variables)
            return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                 train_op=train_op)
        metrics = {}
        if model._compile_metrics is not None:
            metric = utils.per_call("keras_metrics", lambda: _fresh(
                KerasMetrics(model._compile_metrics, metric_names_map)))
            metric.update_state(y, y_pred)
            metrics["keras_metrics"] = metric
        return EstimatorSpec(mode, predictions=predictions, loss=loss,
                             eval_metric_ops=metrics)
    return model_fn


def _fresh(metric):
    metric.reset_state()
    return metric


def model_to_estimator(keras_model=None, keras_model_path=None,
                       custom_objects=None, model_dir=None, config=None,
                       checkpoint_format="saver", metric_names_map=None,
                       export_outputs=None):
    """An `Estimator` training a compiled Keras model (TF's signature).

    `input_fn` features are the model's input: an array, or a dict keyed
    by input name; labels an array or a dict keyed by output name.
    Training minimizes the compiled loss (plus regularization) with the
    compiled optimizer; evaluation reports `loss` and the compiled metrics
    under their Keras names; predictions are a dict keyed by output name.

    Args:
        keras_model: A compiled model.
        keras_model_path: Or the path of a saved compiled model.
        custom_objects: For loading `keras_model_path`.
        model_dir: Folder of checkpoints.
        config: A `RunConfig`.
        checkpoint_format: `"saver"` or `"checkpoint"` (the same
            name-keyed checkpoints either way).
        metric_names_map: `{keras metric name: reported name}`.
        export_outputs: Stored in the PREDICT spec.

    Returns:
        An `Estimator`.

    Example:

    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse", metrics=["mae"])
    >>> est = model_to_estimator(model)
    >>> data = (np.ones((4, 2), "float32"), np.zeros((4, 1), "float32"))
    >>> _ = est.train(lambda: data, steps=2)
    >>> sorted(est.evaluate(lambda: data))
    ['global_step', 'loss', 'mae']
    """
    if (keras_model is None) == (keras_model_path is None):
        raise ValueError("Either `keras_model` or `keras_model_path` needs "
                         "to be provided, but not both.")
    if keras_model is None:
        keras_model = load_model(keras_model_path,
                                 custom_objects=custom_objects)
    if not getattr(keras_model, "compiled", False) or \
            keras_model.optimizer is None:
        raise ValueError(
            "The given keras model has not been compiled yet. Please compile "
            "the model with `model.compile()` before calling "
            "`model_to_estimator()`.")
    if not keras_model.built:
        raise ValueError(
            "model_to_estimator needs a built model: give it an Input, call "
            "it on a batch or call `model.build(input_shape)` first.")
    if not keras_model.optimizer.built:
        # Slots exist before the Estimator runs, so they are named by
        # their place in the optimizer like every other variable.
        keras_model.optimizer.build(keras_model.trainable_variables)
    if checkpoint_format not in ("saver", "checkpoint"):
        raise ValueError("checkpoint_format must be 'saver' or "
                         f"'checkpoint'. Received: {checkpoint_format!r}")
    return Estimator(_keras_model_fn(keras_model, metric_names_map,
                                     export_outputs),
                     model_dir=model_dir, config=config)
