"""`Estimator`: train, evaluate and predict with a `model_fn` (TF's API).

Each `train`/`evaluate`/`predict` call gets a fresh `VariableStore` (TF
built a fresh graph), restores the latest checkpoint of `model_dir` into it
(a checkpoint there always wins over warm starting) and runs a
`kerasish.train` monitored session whose steps call `model_fn` on each
batch (see `session_model`). Before the session starts, `model_fn` runs
once on the first batch with every change undone (`SessionModel.probe`):
that creates the variables (so the checkpoint can be checked against
them) and returns the spec's hooks, which TF also had before its session.
"""
import copy
import itertools
import logging
import os
import tempfile
import warnings

import numpy as np

from kerasish.estimator import inputs
from kerasish.estimator.checks import (check_hooks_type, check_steps,
                                       examples, extract_keys,
                                       verify_model_fn_args)
from kerasish.estimator.checkpoints import (EstimatorSaver, checkpoint_step,
                                            list_variables, load_variable)
from kerasish.estimator.estimator_spec import EstimatorSpec
from kerasish.estimator.evaluation import (StopAfterNEvalsHook,
                                           write_eval_results)
from kerasish.estimator.mode_keys import ModeKeys
from kerasish.estimator.run_config import RunConfig
from kerasish.estimator.session_model import SessionModel
from kerasish.estimator.variable_store import VariableStore
from kerasish.estimator import warm_starting
from kerasish.train import (CheckpointSaverHook, ChiefSessionCreator,
                            LoggingTensorHook, MonitoredSession,
                            MonitoredTrainingSession, NanTensorHook, Scaffold,
                            StopAtStepHook, latest_checkpoint)

logger = logging.getLogger("kerasish.estimator")
class Estimator:
    """Train, evaluate and predict with a model function.

    `model_fn(features, labels, mode, params, config)` builds the model
    from kerasish layers and returns an `EstimatorSpec`; it is called for
    every batch, and the layers, optimizers and metrics it creates keep
    their variables from call to call (see `kerasish.estimator`).

    Args:
        model_fn: The model function (must take `features`; `labels`,
            `mode`, `params` and `config` are passed when it takes them).
        model_dir: Folder of checkpoints and summaries (a new temporary
            folder when neither this nor `config.model_dir` is set).
        config: A `RunConfig`.
        params: Dict given to `model_fn` as `params`.
        warm_start_from: A checkpoint prefix or folder, or
            `WarmStartSettings`, used when `model_dir` has no checkpoint.

    Example:

    >>> import kerasish as keras
    >>> from kerasish import estimator
    >>> def model_fn(features, labels, mode):
    ...     layer = keras.layers.Dense(1)
    ...     y = layer(features["x"])
    ...     if mode == estimator.ModeKeys.PREDICT:
    ...         return estimator.EstimatorSpec(mode, predictions=y)
    ...     loss = keras.ops.mean((y - labels) ** 2)
    ...     train_op = None
    ...     if mode == estimator.ModeKeys.TRAIN:
    ...         train_op = keras.optimizers.SGD(0.1).minimize(
    ...             loss, layer.trainable_variables)
    ...     return estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
    >>> est = estimator.Estimator(model_fn)
    >>> data = ({"x": np.ones((4, 2), "float32")}, np.ones((4, 1), "float32"))
    >>> _ = est.train(lambda: data, steps=3)
    >>> sorted(est.evaluate(lambda: data).items())[0]
    ('global_step', 3)
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None,
                 warm_start_from=None):
        config = RunConfig() if config is None else config
        if not isinstance(config, RunConfig):
            raise ValueError("config must be an instance of `RunConfig`, but "
                             f"provided {config!r}.")
        model_dir = os.fspath(model_dir) if model_dir else None
        if model_dir and config.model_dir and model_dir != config.model_dir:
            raise ValueError(
                "`model_dir` are set both in constructor and `RunConfig`, "
                f"but with different values. In constructor: '{model_dir}', "
                f"in `RunConfig`: '{config.model_dir}' ")
        model_dir = model_dir or config.model_dir
        if not model_dir:
            model_dir = tempfile.mkdtemp()
            logger.warning("Using temporary folder as model directory: %s",
                           model_dir)
        if config.model_dir != model_dir:
            config = config.replace(model_dir=model_dir)
        verify_model_fn_args(model_fn, params)
        self._config = config
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})
        self._warm_start_settings = warm_starting.settings_from(
            warm_start_from)

    # -- properties ------------------------------------------------------------
    @property
    def model_dir(self):
        return self._config.model_dir

    @property
    def config(self):
        return copy.deepcopy(self._config)

    @property
    def params(self):
        return copy.deepcopy(self._params)

    @property
    def model_fn(self):
        """`model_fn(features, labels, mode, config)` checked as called."""
        def public_model_fn(features, labels, mode, config):
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    # -- model_fn --------------------------------------------------------------
    def _call_model_fn(self, features, labels, mode, config, params=None):
        args = inputs.fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn "
                             "returns labels.")
        params = self.params if params is None else params
        for name, value in [("mode", mode), ("params", params),
                            ("config", config)]:
            if name in args:
                kwargs[name] = value
        spec = self._model_fn(features=features, **kwargs)
        if not isinstance(spec, EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec. "
                             f"Received: {spec!r:.200}")
        if spec.mode != mode:
            raise ValueError(
                f"model_fn was called with mode={mode!r} but returned an "
                f"EstimatorSpec for mode {spec.mode!r}.")
        return spec

    # -- shared pieces ---------------------------------------------------------
    def _batches(self, input_fn, mode):
        result = inputs.call_input_fn(input_fn, mode, self.params,
                                      self.config)
        return inputs.batches(result, mode)

    def _start(self, mode):
        """A fresh store and session model for one call."""
        if self._config.tf_random_seed is not None:
            # lazy: calls up the layers (tests/layering_allowlist.txt)
            from kerasish.utils import set_random_seed
            set_random_seed(self._config.tf_random_seed)
        store = VariableStore()
        store.create_global_step()
        return SessionModel(self, store, mode)

    def _scaffold(self, spec):
        saver = spec.scaffold.saver
        if saver is not None and not isinstance(saver, EstimatorSaver):
            raise TypeError(
                "An EstimatorSpec's scaffold.saver must be a kerasish."
                f"estimator.EstimatorSaver. Received: {saver!r}")
        saver = saver or EstimatorSaver(
            max_to_keep=self._config.keep_checkpoint_max,
            keep_checkpoint_every_n_hours=(
                self._config.keep_checkpoint_every_n_hours))
        user_init, settings = spec.scaffold.init_fn, \
            self._warm_start_settings

        def init_fn(scaffold, session):
            if settings is not None:
                warm_starting.warm_start(session.model.store, settings)
            if user_init is not None:
                user_init(scaffold, session)
        return Scaffold(init_fn=init_fn, saver=saver)

    def _checkpoint_for(self, checkpoint_path, what):
        path = checkpoint_path or self.latest_checkpoint()
        if path is None:
            logger.info("Could not find trained model in model_dir: %s, "
                        "running initialization to %s.", self.model_dir,
                        what)
        return path

    # -- train -----------------------------------------------------------------
    def train(self, input_fn, hooks=None, steps=None, max_steps=None,
              saving_listeners=None):
        """Train on `input_fn`'s batches, resuming from `model_dir`.

        Args:
            input_fn: Returns the training data (see `estimator.inputs`).
            hooks: `SessionRunHook`s (or Keras callbacks) for the session.
            steps: Train this many more steps (a `StopAtStepHook`).
            max_steps: Train until the global step reaches this (not with
                `steps`); returns at once if a checkpoint is there already.
            saving_listeners: `CheckpointSaverListener`s of the checkpoint
                hook (needs checkpoint saving in the `RunConfig`).

        Returns:
            `self`, for chaining.
        """
        check_steps(steps, max_steps)
        hooks = check_hooks_type(hooks)
        latest = self.latest_checkpoint()
        if max_steps is not None and latest is not None and \
                max_steps <= checkpoint_step(latest):
            logger.info("Skipping training since max_steps has already "
                        "saved.")
            return self
        if steps is not None or max_steps is not None:
            hooks.append(StopAtStepHook(num_steps=steps, last_step=max_steps))
        source = self._batches(input_fn, ModeKeys.TRAIN)
        model = self._start(ModeKeys.TRAIN)
        first = next(source, None)
        if first is None:
            warnings.warn("Training with estimator made no steps. Perhaps "
                          "input is empty or misspecified.", stacklevel=2)
            return self
        spec = model.probe(first)
        scaffold = self._scaffold(spec)
        worker_hooks, chief_hooks = self._train_hooks(
            spec, hooks, scaffold, saving_listeners)
        loss = self._run_training(model, scaffold, worker_hooks,
                                  chief_hooks,
                                  itertools.chain([first], source))
        logger.info("Loss for final step: %s.", loss)
        return self

    def _train_hooks(self, spec, hooks, scaffold, saving_listeners):
        """TF's hooks: user hooks (+ StopAtStepHook), NanTensorHook,
        LoggingTensorHook, the spec's; the chief adds CheckpointSaverHook."""
        config = self._config
        worker = list(hooks) + [NanTensorHook("loss")]
        if config.log_step_count_steps:
            worker.append(LoggingTensorHook(
                {"loss": "loss", "step": "global_step"},
                every_n_iter=config.log_step_count_steps))
        worker += list(spec.training_hooks)
        savers = [h for h in worker + list(spec.training_chief_hooks)
                  if isinstance(h, CheckpointSaverHook)]
        chief = []
        if not savers and (config.save_checkpoints_secs or
                           config.save_checkpoints_steps):
            chief.append(CheckpointSaverHook(
                self.model_dir, save_secs=config.save_checkpoints_secs,
                save_steps=config.save_checkpoints_steps, scaffold=scaffold,
                save_graph_def=config.checkpoint_save_graph_def))
            savers = chief[:1]
        if saving_listeners:
            if not savers:
                raise ValueError(
                    "There should be a CheckpointSaverHook to use "
                    "saving_listeners. Please set one of the "
                    "RunConfig.save_checkpoints_steps or "
                    "RunConfig.save_checkpoints_secs.")
            for listener in saving_listeners:
                if listener not in savers[0]._listeners:
                    savers[0]._listeners.append(listener)
        return worker, chief + list(spec.training_chief_hooks)

    def _run_training(self, model, scaffold, worker_hooks, chief_hooks,
                      batches):
        """The loss of the last step run (a float32, as TF prints it), or
        None."""
        config = self._config
        any_step, loss = False, None
        with MonitoredTrainingSession(
                is_chief=config.is_chief, checkpoint_dir=self.model_dir,
                scaffold=scaffold, hooks=worker_hooks,
                chief_only_hooks=chief_hooks, save_checkpoint_secs=0,
                save_summaries_steps=config.save_summary_steps,
                log_step_count_steps=config.log_step_count_steps,
                max_wait_secs=config.session_creation_timeout_secs,
                save_graph_def=config.checkpoint_save_graph_def,
                model=model, input=batches) as sess:
            while not sess.should_stop():
                logs = sess.run()
                any_step = True
                if logs and logs.get("loss") is not None:
                    loss = np.float32(np.asarray(logs["loss"]))
        if not any_step:
            warnings.warn("Training with estimator made no steps. Perhaps "
                          "input is empty or misspecified.", stacklevel=3)
        return loss

    # -- evaluate --------------------------------------------------------------
    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None,
                 name=None):
        """Evaluate the model on `input_fn`'s batches.

        Args:
            input_fn: Returns the evaluation data.
            steps: Evaluate at most this many batches (default: all).
            hooks: Hooks for the evaluation session.
            checkpoint_path: Checkpoint to evaluate (default: the latest).
            name: Evaluation name: results go to `model_dir/eval_<name>`.

        Returns:
            Dict with `loss` (mean batch loss), the `eval_metric_ops`
            results and `global_step`.
        """
        hooks = check_hooks_type(hooks)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        checkpoint_path = self._checkpoint_for(checkpoint_path, "evaluate")
        source = self._batches(input_fn, ModeKeys.EVAL)
        model = self._start(ModeKeys.EVAL)
        first = next(source, None)
        if first is None:
            raise ValueError("input_fn produced no batches to evaluate.")
        spec = model.probe(first)
        if steps is not None:
            hooks.append(StopAfterNEvalsHook(num_evals=steps))
        hooks += list(spec.evaluation_hooks)
        for _ in self._run_session(model, spec, checkpoint_path, hooks,
                                   itertools.chain([first], source)):
            pass
        results = model.eval_results()
        results["global_step"] = int(model.store.global_step.numpy())
        write_eval_results(self.eval_dir(name), results, checkpoint_path)
        return results

    def _run_session(self, model, spec, checkpoint_path, hooks, batches):
        creator = ChiefSessionCreator(
            scaffold=self._scaffold(spec),
            checkpoint_filename_with_path=checkpoint_path, model=model,
            input=batches)
        with MonitoredSession(creator, hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run()
                yield model

    def eval_dir(self, name=None):
        """`model_dir/eval` or `model_dir/eval_<name>`."""
        return os.path.join(self.model_dir,
                            "eval" if not name else f"eval_{name}")

    # -- predict ---------------------------------------------------------------
    def predict(self, input_fn, predict_keys=None, hooks=None,
                checkpoint_path=None, yield_single_examples=True):
        """Yield predictions for `input_fn`'s features (a generator).

        Args:
            input_fn: Returns features (labels, if any, are ignored).
            predict_keys: Keys of the predictions dict to return.
            hooks: Hooks for the prediction session.
            checkpoint_path: Checkpoint to use (default: the latest).
            yield_single_examples: Yield one example at a time (default)
                rather than whole batches.

        Yields:
            Predictions (dicts when `model_fn` returns a dict).
        """
        hooks = check_hooks_type(hooks)
        checkpoint_path = self._checkpoint_for(checkpoint_path, "predict")
        source = ((features, None) for features, _ in
                  self._batches(input_fn, ModeKeys.PREDICT))
        model = self._start(ModeKeys.PREDICT)
        first = next(source, None)
        if first is None:
            return
        spec = model.probe(first)
        hooks += list(spec.prediction_hooks)
        for model in self._run_session(model, spec, checkpoint_path, hooks,
                                       itertools.chain([first], source)):
            predictions = extract_keys(model.predictions, predict_keys)
            if not yield_single_examples:
                yield predictions
                continue
            yield from examples(predictions)

    # -- checkpoints ----------------------------------------------------------
    def latest_checkpoint(self):
        """The newest checkpoint prefix in `model_dir`, or None."""
        return latest_checkpoint(self.model_dir)

    def _latest_or_raise(self):
        latest = self.latest_checkpoint()
        if latest is None:
            raise ValueError("Could not find trained model in model_dir: "
                             f"{self.model_dir}.")
        return latest

    def get_variable_names(self):
        """Names of the variables in the latest checkpoint."""
        return [name for name, _ in list_variables(self._latest_or_raise())]

    def get_variable_value(self, name):
        """Value of variable `name` in the latest checkpoint."""
        return load_variable(self._latest_or_raise(), name)
