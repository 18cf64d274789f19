"""A custom `model_fn` Estimator against TF 2.15.1.

The hooks scenario's linear model (fixed initial weights, SGD 0.1, mean
squared error, a mean-absolute-error metric) as a `model_fn`, trained with
`steps=3`, then `max_steps=5`, then `max_steps=4` (a no-op), evaluated
(whole input; `steps=1` under another name), and predicted three ways;
then `train_and_evaluate` with `throttle_secs=0`, which evaluates every
checkpoint. Compared: hook calls and steps, checkpoints, log lines,
evaluation results and their event files, predictions, variable names.
"""
import os
import re

import numpy as np
import pytest

import kerasish as keras
from kerasish import data, estimator
from tests.tf1_reference.test_hooks import (Listener, Recorder,
                                            checkpoint_steps, event_tags)
from tests.tf1_reference.util import (LogCapture, assert_close, load,
                                      normalized)

FIXTURE = load("custom_estimator")
INPUTS = FIXTURE["inputs"]
TF = FIXTURE["scenarios"]["train_evaluate_predict"]
X = np.asarray(INPUTS["x"], np.float32)
Y = np.asarray(INPUTS["y"], np.float32)

# What the Estimator's hooks and loops log (TF's graph lines left out).
LINE_PREFIXES = ("Calling checkpoint listeners", "Saving checkpoints for",
                 "loss = ", "Loss for final step", "Skipping training",
                 "Saving dict for global step", "Evaluation [",
                 "global_step/sec")


LOGGERS = ("kerasish.train", "kerasish.estimator")


def constant(value):
    def initializer(shape, dtype=None):
        return np.asarray(value, np.float32).reshape(shape)
    return initializer


def model_fn(features, labels, mode):
    layer = keras.layers.Dense(
        1, name="dense", kernel_initializer=constant(INPUTS["kernel"]),
        bias_initializer=constant(INPUTS["bias"]))
    y = layer(features["x"])
    predictions = {"y": y, "double": 2.0 * y}
    if mode == estimator.ModeKeys.PREDICT:
        return estimator.EstimatorSpec(mode, predictions=predictions)
    loss = keras.ops.mean((y - labels) ** 2)
    train_op = None
    if mode == estimator.ModeKeys.TRAIN:
        train_op = keras.optimizers.SGD(INPUTS["learning_rate"]).minimize(
            loss, layer.trainable_variables)
    mae = keras.metrics.MeanAbsoluteError(name="mae")
    mae.update_state(labels, y)
    return estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                   eval_metric_ops={"mae": mae},
                                   predictions=predictions)


def input_fn(epochs=None, with_labels=True):
    def fn():
        dataset = data.Dataset.from_tensor_slices(
            ({"x": X}, Y) if with_labels else {"x": X})
        dataset = dataset.batch(INPUTS["batch_size"])
        return dataset.repeat(epochs)
    return fn


def make(model_dir, **config):
    return estimator.Estimator(model_fn, config=estimator.RunConfig(
        model_dir=str(model_dir), **config))


def lines(captured):
    out = []
    for capture in captured:
        out += [normalized(line) for line in capture
                if line[1].startswith(LINE_PREFIXES)]
    return out


def tf_lines(tf_logs):
    """TF's lines, the `step` LoggingTensorHook prints made kerasish's
    (read after the step's update; see test_hooks)."""
    out = []
    for level, text in lines([tf_logs]):
        match = re.match(r"loss = (\S+), step = (\d+)(.*)$", text)
        if match:
            text = (f"loss = {match.group(1)}, step = "
                    f"{int(match.group(2)) + 1}{match.group(3)}")
        out.append([level, text])
    return out


class Run:
    """The scenario on kerasish, once for the module."""

    def __init__(self, folder):
        self.folder = folder
        self.logs = {}
        est = make(folder, save_checkpoints_steps=2, log_step_count_steps=2)
        self.recorder = Recorder()
        with LogCapture(folder, *LOGGERS) as logs:
            est.train(input_fn(), steps=3, hooks=[self.recorder])
        self.logs["steps_3"] = logs.lines
        self.checkpoints = {"steps_3": checkpoint_steps(folder)}
        self.listened = []
        with LogCapture(folder, *LOGGERS) as logs:
            est.train(input_fn(), max_steps=5,
                      saving_listeners=[Listener(self.listened)])
        self.logs["max_steps_5"] = logs.lines
        self.checkpoints["max_steps_5"] = checkpoint_steps(folder)
        with LogCapture(folder, *LOGGERS) as logs:
            est.train(input_fn(), max_steps=4)
        self.logs["max_steps_4_again"] = logs.lines
        self.checkpoints["max_steps_4_again"] = checkpoint_steps(folder)
        self.train_events = event_tags(str(folder), recursive=False)
        with LogCapture(folder, *LOGGERS) as logs:
            self.evaluate = est.evaluate(input_fn(epochs=1))
            self.evaluate_one = est.evaluate(input_fn(epochs=1), steps=1,
                                             name="one")
        self.logs["evaluate"] = logs.lines
        self.estimator = est


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return Run(tmp_path_factory.mktemp("custom_estimator"))


def test_train_steps_then_max_steps(run):
    assert run.recorder.trace == TF["steps_3"]["trace"]
    for name, steps in run.checkpoints.items():
        assert steps == TF[name]["checkpoints"], name
    for name, value in TF["weights"].items():
        assert_close(run.estimator.get_variable_value(name), value,
                     what=name)


def _without_final_loss(captured):
    return [line for line in captured
            if not line[1].startswith("Loss for final step")]


def test_saving_listeners(run):
    assert run.listened == TF["max_steps_5"]["listener"]


def test_training_summaries(run):
    # The Estimator's SummarySaverHook (every 100 steps, and the first
    # step) and StepCounterHook (every log_step_count_steps=2 steps).
    assert [e[:2] for e in run.train_events] == \
        [e[:2] for e in TF["train_events"]]
    for ours, tf in zip(run.train_events, TF["train_events"]):
        if ours[0] == "loss":
            assert_close(ours[2], tf[2], what=f"loss at step {ours[1]}")


@pytest.mark.parametrize("name", ["steps_3", "max_steps_5",
                                  "max_steps_4_again"])
def test_train_log_lines(run, name):
    assert _without_final_loss(lines([run.logs[name]])) == \
        _without_final_loss(tf_lines(TF[name]["logs"]))


@pytest.mark.parametrize("name", ["steps_3", "max_steps_5"])
def test_train_logs_the_loss_of_the_final_step(run, name):
    [tf_line] = [line for line in tf_lines(TF[name]["logs"])
                 if line[1].startswith("Loss for final step")]
    assert tf_line in lines([run.logs[name]])


def test_evaluate_results(run):
    assert run.evaluate.keys() == TF["evaluate"].keys()
    assert run.evaluate_one.keys() == TF["evaluate_steps_1_named"].keys()
    for ours, tf in [(run.evaluate, TF["evaluate"]),
                     (run.evaluate_one, TF["evaluate_steps_1_named"])]:
        for key, value in tf.items():
            assert_close(ours[key], value, what=key)


def test_evaluate_log_lines(run):
    assert lines([run.logs["evaluate"]]) == tf_lines(TF["evaluate_logs"])


def _numbers(events):
    """The scalar events (the checkpoint path is a text summary)."""
    return [e for e in events if not e[0].startswith("checkpoint_path")]


def test_eval_event_files(run):
    dirs = sorted(f for f in os.listdir(run.folder) if f.startswith("eval"))
    assert dirs == TF["eval_dirs"]
    for folder in dirs:
        ours = _numbers(event_tags(os.path.join(run.folder, folder)))
        tf = _numbers(TF["eval_events"][folder])
        assert [e[:2] for e in ours] == [e[:2] for e in tf]
        for a, b in zip(ours, tf):
            assert_close(a[2], b[2], what=f"{folder} {a[0]}")


def test_eval_event_files_hold_the_checkpoint_path(run):
    # TF also writes a text summary tagged "checkpoint_path" (kerasish:
    # "checkpoint_path/text_summary", tensorboardX's add_text tag).
    from tensorboard.backend.event_processing.event_file_loader import \
        EventFileLoader
    for folder in TF["eval_dirs"]:
        assert ["checkpoint_path", 5, 0.0] in TF["eval_events"][folder]
        tags = set()
        path = os.path.join(run.folder, folder)
        for name in os.listdir(path):
            for event in EventFileLoader(os.path.join(path, name)).Load():
                tags |= {(v.tag, event.step) for v in event.summary.value}
        assert ("checkpoint_path", 5) in tags


def _compare_predictions(ours, tf):
    assert len(ours) == len(tf)
    for a, b in zip(ours, tf):
        assert sorted(a) == sorted(b)
        for key in b:
            assert_close(a[key], b[key], what=key)


def test_predict(run):
    est = run.estimator
    _compare_predictions(list(est.predict(input_fn(1, with_labels=False))),
                         TF["predict"])
    _compare_predictions(list(est.predict(input_fn(1, with_labels=False),
                                          predict_keys=["y"])),
                         TF["predict_keys_y"])
    _compare_predictions(list(est.predict(input_fn(1, with_labels=False),
                                          yield_single_examples=False)),
                         TF["predict_batches"])


def test_variable_names(run):
    # TF's model_fn trains with GradientDescentOptimizer, which has no
    # variables of its own. kerasish has no TF1 optimizers: the Keras SGD
    # keeps its step counter and rate as variables, and the Estimator
    # checkpoints them (README, "Known differences"); the model's own
    # variables and the global step are TF's.
    ours = run.estimator.get_variable_names()
    optimizer = ["sgd/iteration", "sgd/learning_rate"]
    assert [n for n in ours if n not in optimizer] == TF["variable_names"], \
        f"TF: {TF['variable_names']}"
    assert sorted(set(ours) - set(TF["variable_names"])) == optimizer, \
        f"TF: {TF['variable_names']}"


def test_train_and_evaluate_with_throttle_secs_0(tmp_path):
    tf = FIXTURE["scenarios"]["train_and_evaluate_throttle_0"]
    est = make(tmp_path, save_checkpoints_steps=2, log_step_count_steps=None)
    final, _ = estimator.train_and_evaluate(
        est, estimator.TrainSpec(input_fn(), max_steps=6),
        estimator.EvalSpec(input_fn(epochs=1), steps=None,
                           start_delay_secs=0, throttle_secs=0))
    assert final.keys() == tf["final"].keys()
    for key, value in tf["final"].items():
        assert_close(final[key], value, what=key)
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]
    events = _numbers(event_tags(str(tmp_path / "eval")))
    expected = _numbers(tf["eval_events"])
    assert [e[:2] for e in events] == [e[:2] for e in expected]
