"""The `fit`, `evaluate` and `predict` loops (Keras 3's order of events).

    on_train_begin
    for epoch in range(initial_epoch, epochs):
        reset metrics; on_epoch_begin(epoch)
        for each execution of `steps_per_execution` batches:
            on_train_batch_begin(begin_step); runtime.train_step per batch;
            on_train_batch_end(end_step, logs); stop_training?
        validation (same callbacks, on_test_* hooks) -> val_* keys
        on_epoch_end(epoch, logs); stop_training?
    optimizer.finalize_variable_values; on_train_end(last epoch logs)
"""
import numpy as np

from kerasish import tree
from kerasish.engine.data_adapters import (CachingDataAdapter,
                                           get_data_adapter,
                                           unpack_x_y_sample_weight)
from kerasish.engine.data_adapters.array_slicing import train_validation_split
from kerasish.engine.epoch_iterator import EpochIterator
from kerasish.backend.common.global_state import capped_epochs
from kerasish.callbacks.training_state import FitState
from kerasish.train.step_runner import StepRunner
from kerasish.callbacks.training_state import interrupt_guard


def _should_eval(epoch, freq):
    if isinstance(freq, int):
        return (epoch + 1) % freq == 0
    return epoch + 1 in freq


def _make_callbacks(model, callbacks, verbose, epochs, steps, history):
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.callbacks.callback_list import CallbackList
    if isinstance(callbacks, CallbackList):
        return callbacks
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.train.hooks_adapter import wrap_hooks
    return CallbackList(wrap_hooks(callbacks), add_history=history,
                        add_progbar=verbose != 0, model=model,
                        verbose=verbose, epochs=epochs, steps=steps)


class FitLoop:
    """One call of `model.fit`, split into readable pieces."""

    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.runtime = model._runtime_or_default()

    def run(self):
        a = self.args
        a["epochs"] = capped_epochs(a["epochs"])  # keras.config.max_epochs
        x, y, sw, val_data = self._split_validation()
        adapter = get_data_adapter(x, y, sw, a["batch_size"],
                                   a["steps_per_epoch"], a["shuffle"],
                                   a["class_weight"])
        self.iterator = EpochIterator(
            adapter, a["steps_per_epoch"],
            steps_per_execution=self.model.steps_per_execution)
        # Keras starts (and drops) a pass to build, which makes that pass's
        # shuffle draws: reading the same way keeps its batch order.
        self.model._symbolic_build(
            adapter.peek_pass() if self.model._reads_a_batch_to_build()
            else adapter.peek_batch())
        self.val_iterator = self._validation_iterator(val_data)
        self.callbacks = _make_callbacks(
            self.model, a["callbacks"], a["verbose"], a["epochs"],
            self.iterator.num_batches, history=True)
        return self._run_with_state()

    def _run_with_state(self):
        # Resume position, deferred backups and Ctrl-C live in FitState;
        # every step goes through the StepRunner MonitoredSession uses.
        self.runner = StepRunner(self.model)
        self.state = FitState(self.model, self.iterator, self.callbacks)
        self.state.runner = self.runner
        self.state.validation_steps = (self.val_iterator.num_batches
                                       if self.val_iterator else None)
        self.model._fit_state = self.state
        try:
            return self._train()
        finally:
            self.model._fit_state = None

    def _split_validation(self):
        a = self.args
        x, y, sw = a["x"], a["y"], a["sample_weight"]
        val_data = a["validation_data"]
        if a["validation_split"] and val_data is None:
            (x, y, sw), val_data = train_validation_split(
                (x, y, sw), a["validation_split"])
        return x, y, sw, val_data

    def _validation_iterator(self, val_data):
        if val_data is None:
            return None
        a = self.args
        vx, vy, vsw = unpack_x_y_sample_weight(val_data) \
            if isinstance(val_data, (tuple, list)) else (val_data, None, None)
        try:
            adapter = get_data_adapter(
                vx, vy, vsw, a["validation_batch_size"] or a["batch_size"],
                a["validation_steps"], shuffle=False)
        except ValueError as e:
            # The adapter's errors speak of `x` and `y`: say which ones.
            raise ValueError(f"Invalid `validation_data`: {e}") from e
        if not adapter.restartable:
            # A generator is read once; later validations replay it.
            adapter = CachingDataAdapter(adapter)
        return EpochIterator(
            adapter, a["validation_steps"], restart_each_epoch=True,
            steps_per_execution=self.model.steps_per_execution)

    def _train(self):
        model, cbs, state = self.model, self.callbacks, self.state
        epochs = self.args["epochs"]
        model.stop_training = False
        self.runtime.begin(model, "fit")
        training_logs = None
        try:
            with interrupt_guard(state):
                cbs.on_train_begin()
                state.restore_outer()
                initial_epoch = model._initial_epoch or \
                    self.args["initial_epoch"]
                for epoch in range(initial_epoch, epochs):
                    logs = self._run_epoch(epoch)
                    if state.interrupted:
                        break
                    cbs.on_epoch_end(epoch, logs)
                    state.end_epoch(epoch)
                    training_logs = logs
                    if model.stop_training or state.interrupt_requested:
                        state.interrupted = state.interrupt_requested
                        break
                    if not self.iterator.can_continue(epoch + 1 < epochs):
                        break   # single-pass data used up
                if state.interrupted:
                    cbs.on_train_interrupted(*state.last_batch,
                                             state.last_batch_logs)
                    state.flush()
        finally:
            self.runtime.end(model, "fit")
        if epochs > 0 and model.optimizer is not None:
            model.optimizer.finalize_variable_values(model.trainable_weights)
        cbs.on_train_end(training_logs)
        model._initial_epoch = None
        return model.history

    def _run_epoch(self, epoch):
        model, cbs, state = self.model, self.callbacks, self.state
        model.reset_metrics()
        cbs.on_epoch_begin(epoch)
        logs = {}
        for begin, end, batches in self.iterator.enumerate_executions(
                state.epoch_batches(epoch)):
            cbs.on_train_batch_begin(begin)
            for batch in batches:
                logs = self.runner.train_step(batch).logs
            cbs.on_train_batch_end(end, logs)
            state.end_batch(end)
            if model.stop_training or state.interrupt_requested:
                break
        if logs:
            # Steps still in flight (an asynchronous runtime) count in
            # this epoch's logs.
            self.runtime.sync()
        ran = bool(logs)
        logs = logs or state.resumed_logs(epoch)
        state.last_batch_logs = logs
        if state.interrupt_requested:
            state.interrupted = True
            return logs
        if ran or logs:
            logs = dict(model._get_metrics_result_or_logs(logs))
        else:
            # The data was used up on an epoch boundary (a generator): the
            # epoch reports the last epoch's logs, as Keras does.
            logs = dict(getattr(self, "_previous_logs", {}))
        self._previous_logs = dict(logs)
        if self.val_iterator is not None and \
                _should_eval(epoch, self.args["validation_freq"]):
            val_logs = evaluate_loop(model, self.val_iterator, cbs,
                                     self.args["verbose"])
            logs.update({f"val_{k}": v for k, v in val_logs.items()})
        state.interrupted = state.interrupt_requested
        return logs


def evaluate_loop(model, iterator, callbacks, verbose):
    """Run the test steps over `iterator`; returns the final logs."""
    model._symbolic_build(iterator.adapter.peek_batch())
    runtime = model._runtime_or_default()
    callbacks = _make_callbacks(model, callbacks, verbose, 1,
                                iterator.num_batches, history=False)
    model.stop_evaluating = False
    runtime.begin(model, "evaluate")
    callbacks.on_test_begin()
    model.reset_metrics()
    logs = {}
    try:
        for begin, end, batches in iterator.enumerate_executions():
            callbacks.on_test_batch_begin(begin)
            for batch in batches:
                logs = runtime.test_step(model, batch)
            callbacks.on_test_batch_end(end, logs)
            if model.stop_evaluating:
                break
    finally:
        runtime.end(model, "evaluate")
    # As Keras: nested results (a custom test_step returning
    # `{m.name: m.result() for m in self.metrics}`) are flattened here, so
    # `val_` prefixes flat keys.
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.callbacks.callback_list import pythonify_logs
    logs = pythonify_logs(model._get_metrics_result_or_logs(logs))
    callbacks.on_test_end(logs)
    return logs


def predict_loop(model, iterator, callbacks, verbose):
    """Run the predict steps; concatenate the outputs along axis 0."""
    runtime = model._runtime_or_default()
    callbacks = _make_callbacks(model, callbacks, verbose, 1,
                                iterator.num_batches, history=False)
    model.stop_predicting = False
    runtime.begin(model, "predict")
    callbacks.on_predict_begin()
    outputs, structure = None, None
    try:
        for begin, end, batches in iterator.enumerate_executions():
            callbacks.on_predict_batch_begin(begin)
            batch_out = _predict_execution(model, runtime, batches)
            structure = batch_out
            flat = tree.flatten(batch_out)
            outputs = [[f] for f in flat] if outputs is None else \
                [acc + [f] for acc, f in zip(outputs, flat)]
            callbacks.on_predict_batch_end(end, {"outputs": batch_out})
            if model.stop_predicting:
                break
    finally:
        runtime.end(model, "predict")
    callbacks.on_predict_end()
    if outputs is None:
        raise ValueError("`predict` received no data: the input is empty.")
    return tree.pack_sequence_as(
        structure, [np.concatenate(parts, axis=0) for parts in outputs])


def _predict_execution(model, runtime, batches):
    """The outputs of one execution's batches, concatenated along axis 0
    (what Keras hands `on_predict_batch_end`)."""
    parts = [tree.map_structure(np.asarray, runtime.predict_step(model, b))
             for b in batches]
    if len(parts) == 1:
        return parts[0]
    return tree.map_structure(lambda *xs: np.concatenate(xs, axis=0),
                              *parts)
