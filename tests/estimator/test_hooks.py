"""The hooks an Estimator installs, their order, and their call order."""
import importlib.util

import pytest

import kerasish as keras
from kerasish import estimator, train
from kerasish.estimator import estimator as estimator_module
from tests.estimator.util import data, make, regression_model_fn

TENSORBOARD = importlib.util.find_spec("tensorboardX") is not None


class Recorder(train.SessionRunHook):
    def __init__(self, name, log):
        self.name, self.log = name, log

    def begin(self):
        self.log.append((self.name, "begin"))

    def after_create_session(self, session, coord):
        self.log.append((self.name, "after_create_session"))

    def before_run(self, run_context):
        self.log.append((self.name, "before_run"))
        return train.SessionRunArgs("global_step")

    def after_run(self, run_context, run_values):
        self.log.append((self.name, f"after_run {run_values.results}"))

    def end(self, session):
        self.log.append((self.name, "end"))


class Listener(train.CheckpointSaverListener):
    def __init__(self, log):
        self.log = log

    def after_save(self, session, global_step_value):
        self.log.append(("listener", f"saved {global_step_value}"))


@pytest.fixture
def sessions(monkeypatch):
    """The hook lists of the monitored sessions the Estimator opens."""
    seen = []
    real = estimator_module.MonitoredTrainingSession

    def spy(*args, **kwargs):
        session = real(*args, **kwargs)
        seen.append(list(session._hooks))
        return session
    monkeypatch.setattr(estimator_module, "MonitoredTrainingSession", spy)
    return seen


def with_spec_hooks(log):
    def model_fn(features, labels, mode, params):
        spec = regression_model_fn(features, labels, mode, params)
        return spec._replace(
            training_hooks=(Recorder("spec", log),),
            training_chief_hooks=(Recorder("chief", log),),
            evaluation_hooks=(Recorder("spec_eval", log),))
    return model_fn


def test_default_hook_set_and_order(tmp_path, sessions):
    log = []
    est = estimator.Estimator(with_spec_hooks(log), str(tmp_path),
                              params={})
    est.train(data, steps=3, hooks=[Recorder("user", log)])
    names = [type(h).__name__ if not isinstance(h, Recorder) else h.name
             for h in sessions[0]]
    expected = ["CheckpointSaverHook", "chief", "StepCounterHook"]
    expected += ["SummarySaverHook"] if TENSORBOARD else []
    expected += ["user", "StopAtStepHook", "NanTensorHook",
                 "LoggingTensorHook", "spec"]
    assert names == expected


def test_hooks_follow_the_run_config(tmp_path, sessions):
    est = make(tmp_path, save_checkpoints_secs=None,
               save_checkpoints_steps=None, log_step_count_steps=None,
               save_summary_steps=0)
    est.train(data, steps=2)
    assert [type(h).__name__ for h in sessions[0]] == [
        "StopAtStepHook", "NanTensorHook"]
    with pytest.raises(ValueError, match="There should be a "
                                         "CheckpointSaverHook"):
        est.train(data, steps=2, saving_listeners=[Listener([])])


def test_hook_call_order(tmp_path):
    log = []
    est = estimator.Estimator(with_spec_hooks(log), str(tmp_path),
                              params={}, config=estimator.RunConfig(
                                  save_checkpoints_steps=2,
                                  log_step_count_steps=None))
    est.train(data, steps=2, hooks=[Recorder("user", log)],
              saving_listeners=[Listener(log)])
    hooks = ["chief", "user", "spec"]
    expected = [(h, "begin") for h in hooks]
    expected += [("listener", "saved 0")]
    expected += [(h, "after_create_session") for h in hooks]
    for step in (1, 2):
        expected += [(h, "before_run") for h in hooks]
        if step == 2:
            # The CheckpointSaverHook runs first: it saves (and calls the
            # listener) before the other hooks' after_run.
            expected += [("listener", "saved 2")]
        expected += [(h, f"after_run {step}") for h in hooks]
    expected += [(h, "end") for h in hooks]
    assert log == expected


def test_evaluation_hooks_order_and_step_limit(tmp_path):
    log = []
    est = estimator.Estimator(with_spec_hooks(log), str(tmp_path),
                              params={})
    est.train(data, steps=1)
    log.clear()
    batches = [data()] * 5
    est.evaluate(lambda: iter(batches), steps=3,
                 hooks=[Recorder("user_eval", log)])
    runs = [entry for entry in log if entry[1] == "before_run"]
    assert runs == [("user_eval", "before_run"),
                    ("spec_eval", "before_run")] * 3
    assert log[0] == ("user_eval", "begin")
    assert log[-1] == ("spec_eval", "end")
    # Evaluation does not move the global step.
    assert ("user_eval", "after_run 1") in log


def test_nan_loss_stops_training_with_an_error(tmp_path):
    def model_fn(features, labels, mode):
        layer = keras.layers.Dense(1)
        loss = keras.ops.mean(layer(features["x"])) * float("nan")
        op = keras.optimizers.SGD(0.1).minimize(loss,
                                                layer.trainable_variables)
        return estimator.EstimatorSpec(mode, loss=loss, train_op=op)
    est = estimator.Estimator(model_fn, str(tmp_path))
    with pytest.raises(train.NanLossDuringTrainingError):
        est.train(data, steps=5)


def test_logging_hook_logs_loss_and_step(tmp_path, caplog):
    est = make(tmp_path, log_step_count_steps=2)
    with caplog.at_level("INFO", logger="kerasish.train"):
        est.train(data, steps=4)
    lines = [r.getMessage() for r in caplog.records
             if "loss = " in r.getMessage()]
    assert lines and "step = " in lines[0]
