"""TF1's built-in hooks, one by one."""
import json
import logging
import os
import threading
import time

import numpy as np
import pytest

import kerasish as keras
from kerasish import train
from tests.train.util import batches, model


def run_session(hooks, n=6, m=None, **kwargs):
    m = m or model()
    with train.SingularMonitoredSession(model=m, input=batches(n),
                                        hooks=hooks, **kwargs) as sess:
        while not sess.should_stop():
            sess.run()
    return m


def step_of(m):
    return int(train.get_global_step(m).numpy())


def test_stop_at_step_num_steps_and_last_step():
    m = run_session([train.StopAtStepHook(num_steps=2)])
    assert step_of(m) == 2
    m = run_session([train.StopAtStepHook(num_steps=2)], m=m)
    assert step_of(m) == 4
    m = run_session([train.StopAtStepHook(last_step=5)], m=m)
    assert step_of(m) == 5


@pytest.mark.parametrize("kwargs", [
    {"num_steps": -1}, {"num_steps": 0}, {"last_step": 3}, {"last_step": 1}])
def test_stop_at_step_runs_one_step_when_already_there_as_tf(kwargs):
    # TF 2.15 runs exactly one step in each case (stop decided in
    # after_run; make_tf1_reference.py, stop_at_step).
    m = run_session([train.StopAtStepHook(num_steps=3)])
    m = run_session([train.StopAtStepHook(**kwargs)], m=m)
    assert step_of(m) == 4


@pytest.mark.parametrize("kwargs, message", [
    ({}, "One of num_steps or last_step"),
    ({"num_steps": 1, "last_step": 1}, "Only one of")])
def test_stop_at_step_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train.StopAtStepHook(**kwargs)


class Listener(train.CheckpointSaverListener):
    def __init__(self, stop_at=None):
        self.calls, self.stop_at = [], stop_at

    def begin(self):
        self.calls.append("begin")

    def before_save(self, session, step):
        self.calls.append(("before_save", step))

    def after_save(self, session, step):
        self.calls.append(("after_save", step))
        return step == self.stop_at

    def end(self, session, step):
        self.calls.append(("end", step))


def test_checkpoint_saver_hook_schedule_and_listeners(tmp_path):
    listener = Listener()
    hook = train.CheckpointSaverHook(str(tmp_path), save_steps=2,
                                     listeners=[listener])
    run_session([hook], n=5)
    assert listener.calls == ["begin", ("before_save", 0), ("after_save", 0),
                              ("before_save", 2), ("after_save", 2),
                              ("before_save", 4), ("after_save", 4),
                              ("before_save", 5), ("after_save", 5),
                              ("end", 5)]
    latest = train.latest_checkpoint(str(tmp_path))
    assert os.path.basename(latest) == "model.ckpt-5"
    with open(tmp_path / "checkpoint") as f:
        text = f.read()
    assert 'model_checkpoint_path: "model.ckpt-5"' in text
    assert text.count("all_model_checkpoint_paths") == 4
    with open(tmp_path / "graph.json") as f:
        assert json.load(f)["class_name"] == "Sequential"


def test_checkpoint_listener_can_stop_and_saver_retention(tmp_path):
    listener = Listener(stop_at=2)
    saver = train.Saver(max_to_keep=2)
    hook = train.CheckpointSaverHook(str(tmp_path), save_steps=1,
                                     saver=saver, listeners=[listener])
    m = run_session([hook], n=10)
    assert step_of(m) == 2
    files = sorted(f for f in os.listdir(tmp_path) if f.endswith(".h5"))
    assert files == ["model.ckpt-1.weights.h5", "model.ckpt-2.weights.h5"]
    # As TF 2.21's tf.compat.v1.train.get_checkpoint_state: paths joined
    # to the folder, the kept ones oldest first, str() in text form.
    state = train.get_checkpoint_state(str(tmp_path))
    prefix = os.path.join(str(tmp_path), "model.ckpt-")
    assert state.model_checkpoint_path == prefix + "2"
    assert state.all_model_checkpoint_paths == [prefix + "1", prefix + "2"]
    assert str(state) == (f'model_checkpoint_path: "{prefix}2"\n'
                          f'all_model_checkpoint_paths: "{prefix}1"\n'
                          f'all_model_checkpoint_paths: "{prefix}2"\n')
    assert train.checkpoint_exists(prefix + "2")
    assert not train.checkpoint_exists(prefix + "0")
    assert train.get_checkpoint_state(str(tmp_path / "none")) is None
    with pytest.raises(ValueError, match="both saver and scaffold"):
        train.CheckpointSaverHook(str(tmp_path), save_steps=1, saver=saver,
                                  scaffold=train.Scaffold())


def test_checkpoint_restores_weights_and_optimizer(tmp_path):
    m = run_session([train.CheckpointSaverHook(str(tmp_path), save_steps=3)],
                    m=model("adam"), n=3)
    fresh = model("adam")
    with train.SingularMonitoredSession(model=fresh,
                                        checkpoint_dir=str(tmp_path)):
        pass
    for a, b in zip(m.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(m.optimizer.variables, fresh.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_step_counter_hook_logs_rate(caplog):
    hook = train.StepCounterHook(every_n_steps=2)
    with caplog.at_level(logging.INFO, logger="kerasish.train"):
        run_session([hook], n=5)
    assert "global_step/sec:" in caplog.text and hook.steps_per_sec > 0
    with pytest.raises(ValueError, match="exactly one"):
        train.StepCounterHook(every_n_steps=None)


def test_logging_tensor_hook(caplog):
    hook = train.LoggingTensorHook({"step": "global_step", "a_loss": "loss"},
                                   every_n_iter=2, at_end=True)
    with caplog.at_level(logging.INFO, logger="kerasish.train"):
        run_session([hook], n=5)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("a_loss = ") and "step = 1" in lines[0]
    # A float32 loss prints as TF prints it (float32's shortest repr).
    printed = lines[0].split(",")[0][len("a_loss = "):]
    assert printed == str(np.float32(float(printed)))
    assert "step = 3" in lines[1] and lines[1].endswith(" sec)")
    assert "step = 5" in lines[2] and "step = 5" in lines[3]
    assert len(lines) == 4


def test_logging_tensor_hook_formatter_and_list(caplog):
    hook = train.LoggingTensorHook(["global_step"], every_n_iter=10,
                                   formatter=lambda v: f"at {v}")
    with caplog.at_level(logging.INFO, logger="kerasish.train"):
        run_session([hook], n=2)
    # The formatter gets numpy values, as TF's (int64 for the step).
    assert [r.getMessage() for r in caplog.records] == [
        f"at {({'global_step': np.int64(1)})}"]


@pytest.mark.parametrize("kwargs, message", [
    ({}, "either at_end and/or exactly one"),
    ({"every_n_iter": 1, "every_n_secs": 1}, "exactly one"),
    ({"every_n_iter": 0}, "invalid every_n_iter=0.")])
def test_logging_tensor_hook_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train.LoggingTensorHook(["loss"], **kwargs)


def nan_model():
    class Exploding(keras.layers.Layer):
        def call(self, x):
            return keras.ops.log(x - 10.0)

    m = keras.Sequential([keras.Input((3,)),
                          keras.layers.Dense(3, name="first"),
                          Exploding(name="explode"),
                          keras.layers.Dense(1, name="last")])
    m.compile("sgd", "mse")
    return m


def test_nan_tensor_hook_names_the_first_non_finite_layer(caplog):
    with caplog.at_level(logging.ERROR, logger="kerasish.train"), \
            pytest.raises(train.NanLossDuringTrainingError) as info:
        run_session([train.NanTensorHook("loss")], m=nan_model())
    # TF's message exactly; where the NaN began is logged and kept.
    assert str(info.value) == "NaN loss during training."
    assert "output of layer 'explode'" in info.value.first_non_finite
    assert "Model diverged with loss = NaN. The output of layer 'explode'" \
        in caplog.text


def test_nan_tensor_hook_ignores_an_infinite_loss():
    # As TF's (np.isnan): an infinite loss is not NaN.
    class Infinite(keras.layers.Layer):
        def call(self, x):
            return x * 0.0 + np.float32(np.inf)

    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1),
                          Infinite()])
    m.compile("sgd", "mae")
    with np.errstate(invalid="ignore", over="ignore"):
        run_session([train.NanTensorHook("loss")], m=m, n=3)
    assert step_of(m) == 3


def test_nan_tensor_hook_names_a_non_finite_gradient():
    class GradBomb(keras.layers.Layer):
        def call(self, x):
            # sqrt(0) is finite; its gradient is not.
            return keras.ops.sqrt(x * 0.0)

    m = keras.Sequential([keras.Input((3,)),
                          keras.layers.Dense(2, name="first"),
                          GradBomb(name="bomb"),
                          keras.layers.Dense(1, name="last")])
    m.compile("sgd", "mse")
    hook = train.NanTensorHook("loss")
    with np.errstate(invalid="ignore", divide="ignore"), \
            pytest.raises(train.NanLossDuringTrainingError) as info:
        run_session([hook], m=m, n=3)
    where = info.value.first_non_finite
    assert "layer 'first'" in where or "first/kernel" in where


def test_nan_tensor_hook_without_failing_requests_stop(caplog):
    with caplog.at_level(logging.WARNING, logger="kerasish.train"):
        m = run_session([train.NanTensorHook("loss",
                                             fail_on_nan_loss=False)],
                        m=nan_model())
    assert step_of(m) == 1
    assert "Model diverged with loss = NaN." in caplog.text


def test_nan_tensor_hook_in_fit():
    m = nan_model()
    x, y = batches(1)[0]
    with pytest.raises(train.NanLossDuringTrainingError) as info:
        m.fit(x, y, verbose=0, callbacks=[train.NanTensorHook("loss")])
    assert "explode" in info.value.first_non_finite


def test_summary_saver_hook_writes_scalars_and_histograms(tmp_path):
    ea = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator")
    hook = train.SummarySaverHook(save_steps=2, output_dir=str(tmp_path))
    run_session([hook], n=5)
    acc = ea.EventAccumulator(str(tmp_path))
    acc.Reload()
    assert [e.step for e in acc.Scalars("loss")] == [1, 3, 5]
    hook = train.SummarySaverHook(save_steps=1, output_dir=str(tmp_path /
                                                                "h"),
                                  summary_op=["hidden/kernel", "loss"])
    run_session([hook], n=2)
    acc = ea.EventAccumulator(str(tmp_path / "h"))
    acc.Reload()
    assert acc.Tags()["histograms"] == ["hidden/kernel"]
    assert acc.Tags()["scalars"] == ["loss"]


def test_feed_fn_hook_trains_on_fed_batches():
    x, y = batches(1)[0]
    calls = []

    def feed():
        calls.append(1)
        return {"x": x, "y": y}

    m = model()
    with train.SingularMonitoredSession(
            model=m, hooks=[train.FeedFnHook(feed),
                            train.StopAtStepHook(3)]) as sess:
        while not sess.should_stop():
            sess.run()
    assert len(calls) == 3 and step_of(m) == 3


def test_final_ops_hook():
    hook = train.FinalOpsHook({"step": "global_step", "w": "out/bias"})
    m = run_session([hook], n=3)
    assert hook.final_ops_values["step"] == 3
    np.testing.assert_array_equal(hook.final_ops_values["w"],
                                  m.get_layer("out").bias.numpy())
    x = batches(1)[0][0]
    hook = train.FinalOpsHook("hidden", final_ops_feed_dict={"x": x})
    run_session([hook], n=1)
    assert hook.final_ops_values.shape == (4, 4)


def test_global_step_waiter_hook_waits_for_another_trainer():
    m = model()
    m.optimizer.build(m.trainable_variables)
    hook = train.GlobalStepWaiterHook(wait_until_step=3)
    hook.poll_secs = 0.01

    def chief():
        time.sleep(0.05)
        m.optimizer.iterations.assign(3)

    thread = threading.Thread(target=chief)
    thread.start()
    start = time.time()
    run_session([hook, train.StopAtStepHook(num_steps=1)], m=m)
    thread.join()
    assert time.time() - start >= 0.05 and step_of(m) == 4


def test_profiler_hook_writes_chrome_traces(tmp_path):
    hook = train.ProfilerHook(save_steps=2, output_dir=str(tmp_path),
                              show_memory=True)
    run_session([hook], n=6)
    # As tf.compat.v1's: never the first step, then every 2 steps.
    assert sorted(os.listdir(tmp_path)) == ["timeline-2.json",
                                            "timeline-4.json",
                                            "timeline-6.json"]
    with open(tmp_path / "timeline-4.json") as f:
        events = json.load(f)["traceEvents"]
    names = {(e["name"], e.get("cat")) for e in events}
    assert {("train_step", "step"), ("hidden", "forward"),
            ("out", "forward"), ("hidden", "backward"),
            ("out", "backward")} <= names
    forward = [e for e in events if e.get("cat") == "forward"]
    assert forward[0]["args"]["output_bytes"] == 4 * 4 * 4
    assert any(e["ph"] == "s" for e in events)
    step = next(e for e in events if e["name"] == "train_step")
    for e in forward:
        assert step["ts"] <= e["ts"] <= step["ts"] + step["dur"]


def _checkpoints(folder):
    return sorted(int(f.split("-")[1].split(".")[0]) for f in
                  os.listdir(folder) if f.startswith("model.ckpt-"))


def test_saver_bookkeeping_as_tf(tmp_path):
    m = model()
    prefix = str(tmp_path / "model.ckpt")
    first = train.Saver(max_to_keep=2)
    for step in (1, 2, 3):
        first.save(m, prefix, global_step=step)
    assert _checkpoints(tmp_path) == [2, 3]
    # A new Saver starts with an empty list (TF's): it deletes nothing of
    # an earlier one's ...
    second = train.Saver(max_to_keep=2)
    for step in (4, 5, 6):
        second.save(m, prefix, global_step=step)
    assert _checkpoints(tmp_path) == [2, 3, 5, 6]
    # ... write_state=False writes the file only: no listing, no pruning.
    second.save(m, prefix, global_step=7, write_state=False)
    assert _checkpoints(tmp_path) == [2, 3, 5, 6, 7]
    state = train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == [prefix + "-5", prefix + "-6"]
    # max_to_keep=0 keeps every file and lists only the latest.
    keep_all = train.Saver(max_to_keep=0)
    for step in (8, 9):
        keep_all.save(m, prefix, global_step=step)
    assert _checkpoints(tmp_path) == [2, 3, 5, 6, 7, 8, 9]
    state = train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == [prefix + "-9"]
    assert keep_all.last_checkpoints == []


def test_restoring_session_takes_over_the_saved_list(tmp_path):
    def session(steps):
        saver = train.Saver(max_to_keep=2)
        hook = train.CheckpointSaverHook(str(tmp_path), save_steps=1,
                                         saver=saver)
        with train.MonitoredSession(
                train.ChiefSessionCreator(
                    model=model(), input=batches(steps),
                    checkpoint_dir=str(tmp_path),
                    scaffold=train.Scaffold(saver=saver)),
                hooks=[hook]) as sess:
            while not sess.should_stop():
                sess.run()
    session(3)
    assert _checkpoints(tmp_path) == [2, 3]
    session(2)       # restores step 3, so pruning goes on from [2, 3]
    assert _checkpoints(tmp_path) == [4, 5]


def test_checkpoint_saver_hook_logs_tf_lines(tmp_path, caplog):
    # TF 2.15's INFO lines, in order (make_tf1_reference.py,
    # checkpoint_log_lines).
    path = os.path.join(str(tmp_path), "model.ckpt")
    with caplog.at_level(logging.INFO, logger="kerasish.train"):
        hook = train.CheckpointSaverHook(str(tmp_path), save_steps=2,
                                         listeners=[Listener()])
        run_session([hook, train.StopAtStepHook(last_step=3)])
    lines = [r.getMessage() for r in caplog.records
             if r.name == "kerasish.train" and r.levelno == logging.INFO]
    expected = ["Create CheckpointSaverHook."]
    for step in (0, 2, 3):
        expected += [
            f"Calling checkpoint listeners before saving checkpoint "
            f"{step}...",
            f"Saving checkpoints for {step} into {path}.",
            f"Calling checkpoint listeners after saving checkpoint "
            f"{step}..."]
    assert [line for line in lines if "heckpoint" in line] == expected
