"""`Trainer`: compile / fit / evaluate / predict, with Keras 3's semantics.

The loops own the data, the callbacks and the epoch bookkeeping; each step
is handed to the model's runtime (`runtime.train_step(model, batch)` ...),
the seam where another runtime (a parameter server) plugs in. The default
`LocalRuntime` simply calls `model.train_step(batch)` in-process.
"""
import contextlib
import functools
import inspect
import warnings

import numpy as np

from kerasish import tree
from kerasish.backend.tape import GradientTape
from kerasish.engine import argument_checks, compile_utils
from kerasish.engine.data_adapters import (get_data_adapter,
                                           unpack_x_y_sample_weight)
from kerasish.engine.data_adapters.array_data_adapter import convert_arrays
from kerasish.engine.epoch_iterator import EpochIterator
from kerasish import optimizers
from kerasish.metrics import Mean
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object
from kerasish import ops
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.operation import infer_output_spec
from kerasish.optimizers.base_optimizer import Optimizer


class Trainer:
    """Training methods mixed into `Model`."""

    def __init__(self):
        self.compiled = False
        self.optimizer = None
        self.loss = None
        self.steps_per_execution = 1
        self._run_eagerly = False
        self._jit_compile = False
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self._compile_config = None
        self._tracked_metrics = []
        self._initial_epoch = None
        self._runtime = None
        self.stop_training = False
        self.stop_evaluating = False
        self.stop_predicting = False
        self.history = None

    # -- compile --------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None,
                metrics=None, weighted_metrics=None, run_eagerly=False,
                steps_per_execution=1, jit_compile="auto",
                auto_scale_loss=True):
        """Configure the model for training.

        Args:
            optimizer: Name (`"adam"`) or `Optimizer` instance.
            loss: Name, function or `Loss`; a list or dict for several
                outputs.
            loss_weights: Float, list or dict weighting the output losses.
            metrics: List (or per-output list/dict) of metric names,
                functions or `Metric` instances.
            weighted_metrics: Metrics that use `sample_weight`.
            run_eagerly: If `True`, every step runs eagerly. Otherwise
                (the default) the forward pass and loss of a step are
                recorded once per input signature and replayed, as Keras
                compiles them (see `engine.step_capture`).
            steps_per_execution: Int. The number of batches to run
                between batch hooks (defaults to 1). As in Keras, batch
                callbacks then see `on_*_batch_begin(first_step)` and
                `on_*_batch_end(last_step)` once per N batches, and an
                epoch of `steps_per_epoch` steps runs whole executions.
            jit_compile: `"auto"` (the default) means `not run_eagerly`;
                `False` runs every step eagerly.
            auto_scale_loss: Wrap the optimizer in a `LossScaleOptimizer`
                under the `"mixed_float16"` policy. Defaults to `True`.
        """
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish.distribute import current_runtime
        optimizer_obj = given_optimizer = optimizers.get(optimizer)
        if auto_scale_loss and optimizer_obj is not None and \
                self.dtype_policy.name == "mixed_float16" and \
                not isinstance(optimizer_obj, optimizers.LossScaleOptimizer):
            # As Keras: float16 gradients need dynamic loss scaling.
            optimizer_obj = optimizers.LossScaleOptimizer(
                optimizer_obj, name="loss_scale_optimizer")
        names = self._output_names_for_compile()
        object.__setattr__(self, "optimizer", optimizer_obj)
        # As Keras, compiling again without a loss (or without metrics)
        # keeps the ones compiled before.
        if loss is not None:
            object.__setattr__(self, "_compile_loss", compile_utils.
                               CompileLoss(loss, loss_weights, names))
            # As Keras (compile tracks nothing): the user's loss and metric
            # objects belong to the compiled containers, not to `metrics`.
            object.__setattr__(self, "loss", loss)
        if metrics is not None or weighted_metrics is not None:
            object.__setattr__(self, "_compile_metrics", None if not (
                metrics or weighted_metrics) else compile_utils.
                CompileMetrics(metrics, weighted_metrics, names))
        object.__setattr__(self, "_loss_tracker", Mean(name="loss"))
        self._run_eagerly = run_eagerly
        # Keras resolves "auto" to True unless the model runs eagerly.
        if jit_compile is True and run_eagerly:
            jit_compile = False
            warnings.warn("If `run_eagerly` is True, then `jit_compile` "
                          "cannot also be True. Disabling `jit_compile`.",
                          stacklevel=2)
        self._jit_compile = (not run_eagerly) if jit_compile == "auto" \
            else jit_compile
        # lazy: kept out of `import kerasish`
        from kerasish.engine.step_capture import StepTraces
        object.__setattr__(self, "_step_traces", StepTraces())
        self.steps_per_execution = _checked_steps_per_execution(
            steps_per_execution)
        # As Keras, the config keeps the optimizer as given (not the loss
        # scaling wrapper made above; compiling again makes it again).
        object.__setattr__(self, "_compile_config", dict(
            optimizer=given_optimizer, loss=loss, loss_weights=loss_weights,
            metrics=metrics, weighted_metrics=weighted_metrics,
            run_eagerly=run_eagerly, steps_per_execution=steps_per_execution,
            jit_compile=self._jit_compile))
        self._runtime = current_runtime()
        self.compiled = True

    def _output_names_for_compile(self):
        names = getattr(self, "output_names", None)
        struct = getattr(self, "_outputs_struct", None)
        # A flat output dict names its outputs by key; a nested one (a
        # dict holding lists) by its layers' names, as Keras.
        if isinstance(struct, dict) and len(struct) == len(
                getattr(self, "outputs", None) or ()):
            return list(struct)
        return list(names) if names else None

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    @property
    def jit_compile(self):
        return self._jit_compile

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = value

    def _assert_compiled(self):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the "
                             "model.")

    def get_compile_config(self):
        if not self.compiled or self._compile_config is None:
            return {}  # as Keras (saved files carry an empty config)
        return serialize_keras_object(self._compile_config)

    def compile_from_config(self, config):
        """Compile from `get_compile_config()`'s dict (on load and
        clone). A model whose `compile` is its own is not compiled: it
        warns, as Keras does, and the caller compiles it by hand."""
        if type(self).compile is not Trainer.compile:
            warnings.warn(
                "`compile()` was not called as part of model loading "
                "because the model's `compile()` method is custom. All "
                "subclassed Models that have `compile()` overridden should "
                "also override `get_compile_config()` and "
                "`compile_from_config(config)`. Alternatively, you can call "
                "`compile()` manually after loading.", stacklevel=2)
            return
        config = deserialize_keras_object(config)
        self.compile(**config)
        if self.built and self.optimizer is not None:
            self.optimizer.build(self.trainable_variables)

    # -- metrics --------------------------------------------------------------
    @property
    def metrics(self):
        """The loss tracker, compiled metrics, output losses, then user
        metrics tracked as attributes and those of sublayers."""
        out = []
        if self.compiled:
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            if self._compile_loss is not None:
                out.extend(self._compile_loss.metrics)
        out.extend(self._tracked_metrics)
        for layer in self._flatten_layers(include_self=False):
            if not isinstance(layer, Trainer):
                out.extend(getattr(layer, "_tracked_metrics", []))
        return out

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    @property
    def metrics_variables(self):
        return [v for m in self.metrics for v in m.variables]

    def reset_metrics(self):
        for metric in self.metrics:
            metric.reset_state()

    def get_metrics_result(self):
        """Current results of all metrics, flattened into one dict.

        As in Keras, the keys follow `model.metrics` (a metric returning a
        dict adds its keys) and the values are the metrics' result tensors;
        the loops turn them into Python floats for callbacks and History.
        """
        results = {}
        for metric in self.metrics:
            if isinstance(metric, compile_utils.CompileMetrics) and \
                    not metric.built:
                continue
            value = metric.result()
            if isinstance(value, dict):
                results.update(value)
            else:
                results[metric.name] = value
        return results

    def _get_metrics_result_or_logs(self, logs):
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish.callbacks.callback_list import pythonify_logs
        metric_logs = pythonify_logs(self.get_metrics_result())
        if isinstance(logs, dict) and set(logs) == set(metric_logs):
            return metric_logs
        return logs

    # -- steps ----------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                     training=True):
        """Compiled loss plus `model.losses` (regularization)."""
        losses = []
        if self._compile_loss is not None:
            loss = self._compile_loss(y, y_pred, sample_weight)
            if loss is not None:
                losses.append(loss)
        for loss in self.losses:
            losses.append(ops.sum(ops.cast(loss, "float32")))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument "
                             "in `compile()`.")
        total = losses[0]
        for loss in losses[1:]:
            total = total + loss
        return total

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update the compiled metrics; return all metric results."""
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def _call_for_training(self, x, training):
        if self._spec().has_training:
            return self(x, training=training)
        return self(x)

    def _forward_and_loss(self, x, y, sample_weight, training):
        """`((y_pred, tracked), loss)`: the loss comes last (a recorded
        training step differentiates its last output); `tracked` holds the
        per-output losses for their trackers, updated after the step."""
        with _deferred_tracking(self._compile_loss) as tracked:
            y_pred = self._call_for_training(x, training)
            loss = self._compute_loss(x, y, y_pred, sample_weight,
                                      training=training)
        return (y_pred, tracked), loss

    def _compute_loss(self, x, y, y_pred, sample_weight, training=True):
        """`compute_loss`, without `training` for an override that does not
        take it (written before Keras 3.3 added it), as Keras calls it."""
        if _takes_training(type(self).compute_loss):
            return self.compute_loss(x, y, y_pred, sample_weight,
                                     training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def _track_output_losses(self, tracked):
        if tracked:
            self._compile_loss.update_trackers(tracked)

    def _train_forward(self, x, y, sample_weight):
        return self._forward_and_loss(x, y, sample_weight, True)

    def _test_forward(self, x, y, sample_weight):
        return self._forward_and_loss(x, y, sample_weight, False)

    def _predict_forward(self, x):
        return self._call_for_training(x, False)

    def _weights_key(self):
        # A recording holds the variables it read: new variables (loaded,
        # quantized, LoRA, layers added) need a new recording.
        return tuple(map(id, self.weights))

    def _traced(self, kind, fn, args, extra_key=()):
        traces = self.__dict__.get("_step_traces")
        if traces is None:
            return fn(*args)
        return traces.run(self, kind, fn, args, extra_key)

    def train_step(self, data):
        """One optimizer step on a batch; returns the logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        variables = self.trainable_weights
        key = (tuple(map(id, variables)), self._weights_key())
        compiled = self._compiled_gradients((x, y, sample_weight),
                                            variables, key)
        if compiled is None:
            with GradientTape() as tape:
                (y_pred, tracked), loss = self._traced(
                    "train", self._train_forward, (x, y, sample_weight), key)
                scaled = self.optimizer.scale_loss(loss)
        else:
            ((y_pred, tracked), loss), grads = compiled
        self._track_output_losses(tracked)
        self._loss_tracker.update_state(loss,
                                        sample_weight=_batch_size(x))
        if variables:
            if compiled is None:
                with _scaled_overflow(self.optimizer):
                    grads = tape.gradient(scaled, variables)
            self.optimizer.apply(grads, variables)
        else:
            warnings.warn("The model does not have any trainable weights.")
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def _compiled_gradients(self, args, variables, key):
        """`(outputs, grads)` from the recorded training step, when
        there is one and the loss is not scaled; else `None`."""
        traces = self.__dict__.get("_step_traces")
        if traces is None or not variables or \
                not _unscaled(self.optimizer):
            return None
        return traces.replay_with_gradients(self, "train", args, variables,
                                            key)

    def test_step(self, data):
        """Loss and metrics on a batch, without training."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        (y_pred, tracked), loss = self._traced(
            "test", self._test_forward, (x, y, sample_weight),
            self._weights_key())
        self._track_output_losses(tracked)
        self._loss_tracker.update_state(loss,
                                        sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """The model's outputs on a batch."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self._traced("predict", self._predict_forward, (x,),
                            self._weights_key())

    # -- loops ----------------------------------------------------------------
    def _runtime_or_default(self):
        if self._runtime is None:
            # lazy: calls up the layers (tests/layering_allowlist.txt)
            from kerasish.distribute import current_runtime
            self._runtime = current_runtime()
        return self._runtime

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto",
            callbacks=None, validation_split=0.0, validation_data=None,
            shuffle=True, class_weight=None, sample_weight=None,
            initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Train the model for a number of epochs; returns `History`.

        `epochs` is the index of the last epoch (with `initial_epoch=2,
        epochs=4` epochs 2 and 3 run). Callbacks see Keras's hook order,
        validation runs the `on_test_*` hooks of the same callback list.
        """
        # lazy: kept out of `import kerasish`
        from kerasish.engine.fit_loop import FitLoop
        self._assert_compiled()
        argument_checks.check_fit_arguments(locals())
        return FitLoop(self, locals()).run()

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto",
                 sample_weight=None, steps=None, callbacks=None,
                 return_dict=False, **kwargs):
        """Loss and metrics over the data: a scalar, a list, or a dict."""
        # lazy: kept out of `import kerasish`
        from kerasish.engine.fit_loop import evaluate_loop
        self._assert_compiled()
        iterator = kwargs.pop("_iterator", None)
        if kwargs:
            raise ValueError(f"Arguments not recognized: {kwargs}")
        argument_checks.check_batch_args(batch_size, steps, callbacks)
        if iterator is None:
            adapter = get_data_adapter(x, y, sample_weight, batch_size,
                                       steps, shuffle=False)
            iterator = EpochIterator(
                adapter, steps, restart_each_epoch=True,
                steps_per_execution=self.steps_per_execution)
        logs = evaluate_loop(self, iterator, callbacks, verbose)
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None,
                callbacks=None):
        """Outputs for `x`, concatenated over batches as numpy arrays."""
        # lazy: kept out of `import kerasish`
        from kerasish.engine.fit_loop import predict_loop
        argument_checks.check_batch_args(batch_size, steps, callbacks)
        adapter = get_data_adapter(x, batch_size=batch_size,
                                   steps_per_epoch=steps, shuffle=False)
        iterator = EpochIterator(
            adapter, steps, restart_each_epoch=True,
            steps_per_execution=self.steps_per_execution)
        return predict_loop(self, iterator, callbacks,
                            verbose)

    def _flatten_metrics_in_order(self, logs):
        # kerasish lists each key once (Keras repeats a metric that is
        # both weighted and unweighted, making the list longer than logs).
        names = []
        for metric in self.metrics:
            if isinstance(metric, compile_utils.CompileMetrics):
                names += [m.name for m in metric.metrics]
            else:
                names.append(metric.name)
        ordered = []
        for name in names + sorted(logs):
            if name in logs and name not in ordered:
                ordered.append(name)
        results = [logs[name] for name in ordered]
        return results[0] if len(results) == 1 else results

    # -- single batches -------------------------------------------------------
    def train_on_batch(self, x, y=None, sample_weight=None,
                       class_weight=None, return_dict=False):
        """One training step on one batch (metrics reset first)."""
        self._assert_compiled()
        batch = self._single_batch(x, y, sample_weight, class_weight)
        self._symbolic_build(batch)
        self.reset_metrics()
        logs = self._runtime_or_default().train_step(self, batch)
        return self._batch_result(logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None,
                      return_dict=False):
        """Loss and metrics on one batch (metrics reset first)."""
        self._assert_compiled()
        batch = self._single_batch(x, y, sample_weight)
        self._symbolic_build(batch)
        self.reset_metrics()
        logs = self._runtime_or_default().test_step(self, batch)
        return self._batch_result(logs, return_dict)

    def predict_on_batch(self, x):
        """Outputs for one batch as numpy arrays."""
        batch = (convert_arrays(x, "x"),)
        outputs = self._runtime_or_default().predict_step(self, batch)
        return tree.map_structure(np.asarray, outputs)

    def _single_batch(self, x, y, sample_weight, class_weight=None):
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish.engine.data_adapters.utils import (
            class_weight_to_sample_weights, pack_data)
        x, y = convert_arrays(x, "x"), convert_arrays(y, "y")
        sample_weight = convert_arrays(sample_weight, "sample_weight")
        if class_weight is not None:
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        return pack_data(x, y, sample_weight)

    def _batch_result(self, logs, return_dict):
        # As Keras: what the step returned, flattened to Python numbers.
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish.callbacks.callback_list import pythonify_logs
        logs = pythonify_logs(logs)
        if return_dict:
            return logs
        return self._flatten_metrics_in_order(logs)

    # -- building -------------------------------------------------------------
    def _reads_a_batch_to_build(self):
        """Keras's test for reading a batch before a loop: the model, its
        compiled loss or its compiled metrics are unbuilt."""
        return not all(layer.built for layer in self._flatten_layers()) or \
            any(c is not None and not getattr(c, "built", True)
                for c in (self._compile_loss, self._compile_metrics))

    def _symbolic_build(self, batch):
        """Build the model (and the optimizer's slots) from a data batch,
        in the runtime's variable scope (a parameter server places the
        variables made here)."""
        with self._runtime_or_default().variable_scope():
            self._build_for(batch)

    def _build_for(self, batch):
        if not self.built:
            x, _, _ = unpack_x_y_sample_weight(batch)
            try:
                self._build_from_data(x)
            except Exception:
                if not self._has_own_steps():
                    raise
                # As Keras on TensorFlow: a model with its own steps (the
                # keras.io VAE and GAN have no usable `call`) builds its
                # layers as the steps run.
                return
        if self.optimizer is not None and not self.optimizer.built:
            self.optimizer.build(self.trainable_variables)

    def _has_own_steps(self):
        return any(getattr(type(self), name) is not getattr(Trainer, name)
                   for name in ("train_step", "test_step", "predict_step"))

    def _build_from_data(self, x):
        # lazy: a top-level import would close an import circle
        from kerasish.engine.sequential import Sequential
        if isinstance(self, Sequential):
            self.build(tuple(np.shape(tree.flatten(x)[0])))
            return
        placeholders = tree.map_structure(
            lambda a: KerasTensor(np.shape(a), dtype=str(np.asarray(a).dtype))
            if a is not None else None, x)
        infer_output_spec(self.__call__, (placeholders,), {})
        self.built = True


@functools.lru_cache(maxsize=None)
def _takes_training(compute_loss):
    """Whether a `compute_loss` takes `training` (looked up once per
    function, not at every step)."""
    return "training" in inspect.signature(compute_loss).parameters


def _batch_size(x):
    for leaf in tree.flatten(x):
        if leaf is not None and hasattr(leaf, "shape") and len(leaf.shape):
            return leaf.shape[0]
    return 1


@contextlib.contextmanager
def _deferred_tracking(compile_loss):
    if compile_loss is None:
        yield []
        return
    with compile_loss.deferred_tracking() as tracked:
        yield tracked


def _unscaled(optimizer):
    """Whether `optimizer.scale_loss` leaves the loss as it is."""
    return getattr(optimizer, "loss_scale_factor", None) is None and \
        type(optimizer).scale_loss is Optimizer.scale_loss


def _scaled_overflow(optimizer):
    """Let float16 gradients of a scaled loss overflow quietly to inf.

    Dynamic loss scaling expects some steps to overflow: the optimizer
    then skips the step and lowers the scale (Keras's behaviour), so
    numpy's overflow warnings are noise there.
    """
    if getattr(optimizer, "dynamic_scale", None) is None and \
            not hasattr(optimizer, "check_finite"):
        return contextlib.nullcontext()
    return np.errstate(over="ignore", invalid="ignore")


def _checked_steps_per_execution(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or value < 1:
        raise ValueError(
            "`steps_per_execution` must be an integer >= 1. "
            f"Received: steps_per_execution={value!r}")
    return int(value)
