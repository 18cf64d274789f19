"""`SessionModel`: an Estimator call seen as the model of a monitored session.

`kerasish.train`'s sessions step a compiled model; for an Estimator that
model is a `SessionModel` whose step calls `model_fn` on the batch, in the
mode of the current `train`/`evaluate`/`predict` call:

* TRAIN: under a persistent `GradientTape` (so `optimizer.minimize(loss,
  var_list)` in `model_fn` finds it), then the global step advances by one;
  logs `{"loss": ...}`.
* EVAL: the spec's metrics accumulate (their variables are local to the
  evaluation); the mean of the batch losses is reported as `loss`.
* PREDICT: the spec's predictions are kept for `Estimator.predict`.

The global step is the store's int64 `global_step` variable, exposed as
the "optimizer" iteration counter that `kerasish.train` reads, so hooks
(`StopAtStepHook`, `CheckpointSaverHook`, ...) fetch it as usual.
"""
import json

import numpy as np

from kerasish import tree
from kerasish.backend.tape import GradientTape
from kerasish.engine.data_adapters import unpack_x_y_sample_weight
from kerasish.engine.model import Model
from kerasish.estimator.mode_keys import ModeKeys
from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.metrics import Mean

_RESERVED = ("loss", "global_step")


class GlobalStepCounter(Optimizer):
    """Holds the Estimator's global step where sessions look for it."""

    def __init__(self, step):
        super().__init__(learning_rate=0.0, name="global_step_counter")
        self._iterations = step
        self._variables = [step]
        self.built = True

    def build(self, variables):
        self.built = True


class SessionModel(Model):
    """The model of the sessions an Estimator runs (see module docstring).

    Args:
        estimator: The `Estimator` whose `model_fn` runs.
        store: The `VariableStore` of this call.
        mode: A `ModeKeys` value.
    """

    def __init__(self, estimator, store, mode):
        super().__init__(name="estimator")
        object.__setattr__(self, "_estimator", estimator)
        object.__setattr__(self, "store", store)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "_eval_loss", Mean(name="loss"))
        object.__setattr__(self, "eval_metrics", {})
        object.__setattr__(self, "predictions", None)
        # One copy per Estimator call (TF built its graph once per call),
        # not one per batch.
        object.__setattr__(self, "_config", estimator.config)
        object.__setattr__(self, "_params", estimator.params)
        self.built = True
        strategy = estimator.config.train_distribute
        if strategy is not None and mode == ModeKeys.TRAIN:
            with strategy.scope():
                self.compile(optimizer=GlobalStepCounter(store.global_step))
        else:
            self.compile(optimizer=GlobalStepCounter(store.global_step))

    # -- steps -----------------------------------------------------------------
    def train_step(self, data):
        features, labels, _ = unpack_x_y_sample_weight(data)
        if self.mode == ModeKeys.TRAIN:
            return self._train(features, labels)
        if self.mode == ModeKeys.EVAL:
            return self._evaluate(features, labels)
        return self._predict(features, labels)

    def _call(self, features, labels):
        if getattr(self, "_probing", False) and self.mode != ModeKeys.TRAIN:
            # The probe runs before the checkpoint is restored: record the
            # variables built outside model_fn so they are restored too.
            with GradientTape() as tape:
                spec = self._call_model_fn(features, labels)
            self.store.adopt(tape.watched_variables())
        else:
            spec = self._call_model_fn(features, labels)
        # Metric state is local in every mode: never saved or restored.
        self.store.mark_local([v for m in spec.eval_metric_ops.values()
                               for v in m.variables])
        return spec

    def _call_model_fn(self, features, labels):
        with self.store.scope():
            try:
                return self._estimator._call_model_fn(
                    features, labels, self.mode, self._config, self._params)
            except ValueError as error:
                if "Unknown variable" not in str(error):
                    raise
                raise ValueError(
                    f"{error} In an Estimator, create the optimizer inside "
                    "model_fn (as TF does): model_fn runs for every batch and "
                    "creates its layers' variables anew each time (they "
                    "share their values by name), so an optimizer kept from "
                    "an earlier call does not know them.") from error

    def _train(self, features, labels):
        step = self.optimizer._iterations
        before = int(step._value)
        with GradientTape(persistent=True) as tape:
            spec = self._call(features, labels)
        # Variables the forward pass used but that were created outside
        # model_fn (layers built beforehand) are checkpointed too.
        self.store.adopt(tape.watched_variables())
        if int(step._value) == before:
            # Unless the train op counted the step itself (an optimizer
            # whose iterations are the global step, as TF's premade ones).
            step._value += 1
        self._loss_tracker.update_state(spec.loss)
        object.__setattr__(self, "last_spec", spec)
        return {"loss": spec.loss}

    def _evaluate(self, features, labels):
        spec = self._call(features, labels)
        for key in _RESERVED:
            if key in spec.eval_metric_ops:
                raise ValueError(
                    f"Metric with name {key!r} is not allowed, because "
                    "Estimator already defines a default metric with the "
                    "same name.")
        self._eval_loss.update_state(spec.loss)
        self._loss_tracker.update_state(spec.loss)
        object.__setattr__(self, "eval_metrics", spec.eval_metric_ops)
        object.__setattr__(self, "last_spec", spec)
        return {"loss": spec.loss}

    def _predict(self, features, labels):
        spec = self._call(features, labels)
        object.__setattr__(self, "predictions",
                           tree.map_structure(_to_numpy, spec.predictions))
        object.__setattr__(self, "last_spec", spec)
        return {}

    def probe(self, batch):
        """Run `model_fn` once on `batch` to create the variables and get
        the spec (its hooks), changing no variable's value."""
        features, labels = batch
        data = self._single_batch(features, labels, None)
        object.__setattr__(self, "_probing", True)
        try:
            with self.store.sandbox():
                self.train_step(data)
        finally:
            object.__setattr__(self, "_probing", False)
        self._eval_loss.reset_state()
        self.reset_metrics()
        return self.last_spec

    def eval_results(self):
        """`{"loss": mean batch loss, <metric>: result}` as numbers."""
        results = {"loss": _to_number(self._eval_loss.result())}
        for key, metric in self.eval_metrics.items():
            value = metric.result()
            if isinstance(value, dict):
                # A metric of several results (Keras's compiled metrics)
                # reports them under their own names.
                results.update({k: _to_number(v) for k, v in value.items()})
            else:
                results[key] = _to_number(value)
        return results

    def to_json(self, **kwargs):
        """`graph.json` beside the checkpoints: the variables' names,
        shapes and dtypes (what TF's graph file lets tools list)."""
        store = self.store
        variables = {name: {"shape": list(store.value(name).shape),
                            "dtype": store.value(name).dtype.name}
                     for name in store.names()}
        return json.dumps({"model_fn": _qualname(self._estimator.model_fn),
                           "variables": variables}, **kwargs)


def _qualname(fn):
    fn = getattr(fn, "func", fn)
    return f"{getattr(fn, '__module__', '?')}." \
           f"{getattr(fn, '__qualname__', type(fn).__name__)}"


def _to_numpy(value):
    return np.asarray(getattr(value, "_value", value))


def _to_number(value):
    array = _to_numpy(value)
    if array.ndim == 0 and array.dtype.kind in "iu":
        return int(array)
    if array.ndim == 0:
        return float(array)
    return array
