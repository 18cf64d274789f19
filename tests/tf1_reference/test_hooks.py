"""Session-run hooks and monitored sessions, replayed against TF 2.15.1.

Each scenario of `hooks.json` trains the same 3-input linear model (fixed
initial weights, SGD 0.1, mean squared error) on the same batches in
`tf.compat.v1.train.MonitoredTrainingSession` / `MonitoredSession` and in
kerasish. Compared: every hook call in order with the global step the hook
sees after the step, the number of steps, each step's loss, the weights at
the end, the checkpoints written and listed, checkpoint listener calls,
event-file tags and steps, and the hooks' log lines.

The global step a hook fetches in `before_run` is, in TF's graph, read
before the step's update; kerasish's hooks read it after (README, "From
TensorFlow 1 hooks"). The fixture records what TF's session holds after
each step (`session.run(global_step)` in `after_run`), which is what
kerasish's hooks are compared with; a value TF's own hooks print (the
`step = ` of LoggingTensorHook) is one more in kerasish, by that rule.
"""
import os
import re

import numpy as np
import pytest

import kerasish as keras
from kerasish import train
from tests.tf1_reference.util import (LogCapture, assert_close, load,
                                      normalized)

FIXTURE = load("hooks")
INPUTS = FIXTURE["inputs"]
X = np.asarray(INPUTS["x"], np.float32)
Y = np.asarray(INPUTS["y"], np.float32)

# Lines of TF's graph machinery, with no counterpart without a graph.
GRAPH_LINES = ("Graph was finalized.", "Running local_init_op.",
               "Done running local_init_op.")


def tf_case(name):
    return FIXTURE["scenarios"][name]


def linear_model():
    model = keras.Sequential([keras.Input((3,)),
                              keras.layers.Dense(1, name="dense")])
    model.compile(keras.optimizers.SGD(INPUTS["learning_rate"]), "mse")
    model.set_weights([np.asarray(INPUTS["kernel"], np.float32),
                       np.asarray(INPUTS["bias"], np.float32)])
    return model


class Recorder(train.SessionRunHook):
    """The generator's recorder: each call and the global step it sees."""

    def __init__(self):
        self.trace = []

    def begin(self):
        self.trace.append(["begin"])

    def after_create_session(self, session, coord):
        self.trace.append(["after_create_session",
                           session.fetch("global_step")])

    def before_run(self, run_context):
        self.trace.append(["before_run"])
        return train.SessionRunArgs("global_step")

    def after_run(self, run_context, run_values):
        self.trace.append(["after_run", int(run_values.results)])

    def end(self, session):
        self.trace.append(["end", session.fetch("global_step")])
        self.final_weights = session.model.get_weights()


class Listener(train.CheckpointSaverListener):
    def __init__(self, trace, stop_at=None):
        self.trace, self.stop_at = trace, stop_at

    def begin(self):
        self.trace.append(["begin"])

    def before_save(self, session, global_step_value):
        self.trace.append(["before_save", int(global_step_value)])

    def after_save(self, session, global_step_value):
        self.trace.append(["after_save", int(global_step_value)])
        return self.stop_at is not None and global_step_value >= self.stop_at

    def end(self, session, global_step_value):
        self.trace.append(["end", int(global_step_value)])


def run_session(hooks, folder, n_batches=8, nan_at=None, mts=True,
                feed=False, model=None, **kwargs):
    """The kerasish twin of the generator's `run_session`."""
    x = X.copy()
    if nan_at is not None:
        x[nan_at, 0, 0] = np.nan
    batches = None if feed else list(zip(x[:n_batches], Y[:n_batches]))
    model = model or linear_model()
    recorder = Recorder()
    result = {"losses": [], "runs": 0}
    with LogCapture(folder) as logs:
        if mts:
            session = train.MonitoredTrainingSession(
                model=model, input=batches, checkpoint_dir=str(folder),
                hooks=[recorder] + hooks, **kwargs)
        else:
            session = train.MonitoredSession(
                train.ChiefSessionCreator(model=model, input=batches),
                hooks=[recorder] + hooks)
        try:
            with session as sess:
                while not sess.should_stop():
                    logs_of_step = sess.run()
                    if logs_of_step is None:
                        break
                    result["losses"].append(model.batch_loss)
                    result["runs"] += 1
        except Exception as e:  # noqa: BLE001 - the error is the scenario
            result["error"] = type(e).__name__
    result.update(trace=recorder.trace, logs=logs.lines)
    if hasattr(recorder, "final_weights"):
        result["weights"] = recorder.final_weights
    return result


def checkpoint_steps(folder):
    files = sorted(int(m.group(1)) for m in (
        re.match(r"model\.ckpt-(\d+)\.weights\.h5$", f)
        for f in os.listdir(folder)) if m)
    state = train.get_checkpoint_state(str(folder))
    listed = [] if state is None else [
        int(p.rsplit("-", 1)[1].split(".")[0])
        for p in state.all_model_checkpoint_paths]
    return {"files": files, "index": listed}


def event_tags(folder, recursive=True):
    """`[tag, step, value]` of the summaries under `folder` (as the
    generator's, read with TensorBoard's reader)."""
    from tensorboard.backend.event_processing.event_file_loader import \
        EventFileLoader
    out = []
    for root, _, names in os.walk(folder) if recursive else [
            (folder, None, os.listdir(folder))]:
        for name in sorted(names):
            if "tfevents" not in name:
                continue
            for event in EventFileLoader(os.path.join(root, name)).Load():
                for value in event.summary.value:
                    # As TF's reader: a text summary reads as 0.0.
                    number = value.simple_value if value.HasField(
                        "simple_value") else (list(value.tensor.float_val)
                                              or [0.0])[0]
                    out.append([value.tag, int(event.step), float(number)])
    return sorted(out, key=lambda e: (e[0], e[1]))


def hook_lines(lines):
    """The lines a hook writes, without TF's graph set-up lines and the
    lines of their own tests (creation of the saver hook, restore)."""
    return [normalized(line) for line in lines
            if line[1] not in GRAPH_LINES and "deprecated" not in line[1]
            and not line[1].startswith(("It seems that global step",
                                        "Create CheckpointSaverHook.",
                                        "Restoring parameters from",
                                        "Not writing graph.json"))]


def compare_run(ours, tf, weights=True):
    assert ours["trace"] == tf["trace"]
    assert ours["runs"] == tf["runs"]
    assert_close(ours["losses"], tf["losses"], what="losses")
    assert ours.get("error") == tf.get("error")
    if weights and "weights" in tf:
        for a, b in zip(ours["weights"], tf["weights"]):
            assert_close(a, b, what="weights at the end")


# -- the scenarios ------------------------------------------------------------

def test_mts_hook_sequence_checkpoints_events(tmp_path):
    tf = tf_case("mts_hook_sequence")
    ours = run_session([
        train.StopAtStepHook(last_step=5),
        train.LoggingTensorHook({"loss": "loss", "step": "global_step"},
                                every_n_iter=2),
        train.GlobalStepWaiterHook(wait_until_step=0)], tmp_path,
        save_checkpoint_steps=2, save_summaries_steps=2,
        log_step_count_steps=3)
    compare_run(ours, tf)
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]
    events = event_tags(tmp_path)
    assert [e[:2] for e in events] == [e[:2] for e in tf["events"]]
    for a, b in zip(events, tf["events"]):
        if a[0] == "loss":
            assert_close(a[2], b[2], what=f"loss summary at step {a[1]}")


def test_mts_hook_log_lines(tmp_path):
    tf = tf_case("mts_hook_sequence")
    ours = run_session([
        train.StopAtStepHook(last_step=5),
        train.LoggingTensorHook({"loss": "loss", "step": "global_step"},
                                every_n_iter=2)], tmp_path,
        save_checkpoint_steps=2, save_summaries_steps=2,
        log_step_count_steps=3)
    expected = []
    for level, text in hook_lines(tf["logs"]):
        match = re.match(r"loss = (\S+), step = (\d+)(.*)$", text)
        if match:
            text = (f"loss = {match.group(1)}, step = "
                    f"{int(match.group(2)) + 1}{match.group(3)}")
        expected.append([level, text])
    assert hook_lines(ours["logs"]) == expected


def test_checkpoint_saver_hook_logs_its_creation(tmp_path):
    # TF's CheckpointSaverHook logs this line when it is made (also the
    # one MonitoredTrainingSession adds).
    line = ["INFO", "Create CheckpointSaverHook."]
    for name in ["mts_hook_sequence", "checkpoint_saver_listeners"]:
        assert tf_case(name)["logs"].count(line) == 1
    ours = run_session([train.StopAtStepHook(last_step=1)], tmp_path,
                       save_checkpoint_steps=2, save_summaries_steps=None,
                       log_step_count_steps=None)
    with LogCapture(tmp_path) as logs:
        train.CheckpointSaverHook(str(tmp_path), save_steps=2)
    assert ours["logs"].count(line) == 1 and logs.lines == [line]


def test_input_running_dry(tmp_path):
    # TF calls before_run for the step that meets the end of the input,
    # then end() without after_run. kerasish reads the batch before the
    # hooks, so that step gets no before_run (README, "Known
    # differences"); everything else is TF's.
    tf = tf_case("monitored_session_input_runs_dry")
    ours = run_session([], tmp_path, n_batches=3, mts=False)
    assert tf["trace"][-2:] == [["before_run"], ["end", 3]]
    documented = dict(tf, trace=tf["trace"][:-2] + tf["trace"][-1:])
    assert ours["trace"] == documented["trace"], \
        f"TF's trace (with the extra before_run): {tf['trace']}"
    compare_run(ours, documented)


def _restore_chain(tmp_path):
    first = run_session([train.StopAtStepHook(last_step=3)], tmp_path,
                        save_checkpoint_steps=100, save_summaries_steps=None,
                        log_step_count_steps=None)
    second = run_session([train.StopAtStepHook(num_steps=2)], tmp_path,
                         save_checkpoint_steps=100,
                         save_summaries_steps=None, log_step_count_steps=None)
    return first, second


def test_restore_from_checkpoint_dir(tmp_path):
    first, second = _restore_chain(tmp_path)
    for ours, name in [(first, "restore_first"),
                       (second, "restore_num_steps")]:
        tf = tf_case(name)
        compare_run(ours, tf)
    assert checkpoint_steps(tmp_path) == tf_case("restore_num_steps")[
        "checkpoints"]


def test_restore_logs_the_checkpoint_read(tmp_path):
    _, second = _restore_chain(tmp_path)
    line = ["INFO", "Restoring parameters from <dir>/model.ckpt-3"]
    assert line in tf_case("restore_num_steps")["logs"]
    assert line in second["logs"]


def test_restore_with_last_step_already_reached(tmp_path):
    # TF runs one step when the restored global step already is at
    # last_step (its StopAtStepHook only checks after a run).
    _restore_chain(tmp_path)
    ours = run_session([train.StopAtStepHook(last_step=4)], tmp_path,
                       save_checkpoint_steps=100, save_summaries_steps=None,
                       log_step_count_steps=None)
    tf = tf_case("restore_past_last_step")
    compare_run(ours, tf)
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]


def test_global_step_idiom_after_restore(tmp_path, monkeypatch):
    # The TF1 script: get_or_create_global_step() before the model, read
    # by a hook in after_create_session and after_run.
    from kerasish.train import global_step as global_step_module
    # The standalone step this test makes must not outlive it.
    monkeypatch.setattr(global_step_module, "_DEFAULT", {})
    tf = tf_case("restore_global_step_idiom")
    _restore_chain(tmp_path)
    # TF's chain stood at step 6 here (see the test above).
    run_session([train.StopAtStepHook(last_step=6)], tmp_path,
                save_checkpoint_steps=100, save_summaries_steps=None,
                log_step_count_steps=None)
    step = train.get_or_create_global_step()
    model = linear_model()
    seen = []

    class Seen(train.SessionRunHook):
        def after_create_session(self, session, coord):
            seen.append(["after_create_session", int(step.numpy()),
                         int(train.get_global_step().numpy())])

        def after_run(self, run_context, run_values):
            seen.append(["after_run", int(
                train.get_or_create_global_step().numpy())])

    recorder = Recorder()
    with train.MonitoredTrainingSession(
            model=model, input=list(zip(X, Y)), checkpoint_dir=str(tmp_path),
            hooks=[Seen(), recorder, train.StopAtStepHook(num_steps=1)],
            save_checkpoint_secs=None, save_summaries_steps=None,
            log_step_count_steps=None) as sess:
        while not sess.should_stop():
            sess.run()
    assert seen == tf["seen"]
    assert recorder.trace == tf["trace"]


def test_stop_at_step_num_steps_minus_one(tmp_path):
    tf = tf_case("stop_at_step_num_steps_minus_one")
    ours = run_session([train.StopAtStepHook(num_steps=-1)], tmp_path,
                       save_checkpoint_secs=None, save_summaries_steps=None,
                       log_step_count_steps=None)
    compare_run(ours, tf)


def test_checkpoint_every_hour_saves_at_creation_and_end(tmp_path):
    tf = tf_case("checkpoint_saver_secs")
    ours = run_session([train.StopAtStepHook(last_step=4)], tmp_path,
                       save_checkpoint_secs=3600, save_summaries_steps=None,
                       log_step_count_steps=None)
    compare_run(ours, tf)
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]


@pytest.mark.parametrize("name, stop_at", [
    ("checkpoint_saver_listeners", None),
    ("checkpoint_listener_requests_stop", 4)])
def test_checkpoint_saver_hook_listeners(tmp_path, name, stop_at):
    tf = tf_case(name)
    trace = []
    ours = run_session([
        train.StopAtStepHook(last_step=5),
        train.CheckpointSaverHook(str(tmp_path), save_steps=2, listeners=[
            Listener(trace, stop_at)], save_graph_def=False)],
        tmp_path, mts=False)
    compare_run(ours, tf)
    assert trace == tf["listener"]
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]


@pytest.mark.parametrize("name", ["checkpoint_saver_listeners",
                                  "checkpoint_listener_requests_stop"])
def test_checkpoint_saver_hook_log_lines(tmp_path, name):
    tf = tf_case(name)
    ours = run_session([
        train.StopAtStepHook(last_step=5),
        train.CheckpointSaverHook(str(tmp_path), save_steps=2, listeners=[
            Listener([], 4 if "stop" in name else None)],
            save_graph_def=False)], tmp_path, mts=False)
    assert hook_lines(ours["logs"]) == hook_lines(tf["logs"])


@pytest.mark.parametrize("name, fail", [("nan_tensor_hook_stop", False),
                                        ("nan_tensor_hook_raise", True)])
def test_nan_tensor_hook(tmp_path, name, fail):
    tf = tf_case(name)
    ours = run_session([train.NanTensorHook("loss", fail_on_nan_loss=fail)],
                       tmp_path, nan_at=2, mts=False)
    compare_run(ours, tf)
    # kerasish says where the NaN appeared after TF's sentence.
    level, text = [line for line in ours["logs"]
                   if "diverged" in line[1]][0]
    assert [level, text.split(".")[0] + "."] == hook_lines(tf["logs"])[0]


def test_logging_tensor_hook_at_end(tmp_path):
    tf = tf_case("logging_tensor_hook_at_end")
    ours = run_session([
        train.StopAtStepHook(last_step=3),
        train.LoggingTensorHook({"loss": "loss"}, at_end=True)],
        tmp_path, mts=False)
    compare_run(ours, tf)
    # TF's at-end fetch re-runs the loss on the next batch with the final
    # weights; kerasish reports the last step's value (README).
    [tf_line] = hook_lines(tf["logs"])
    [our_line] = hook_lines(ours["logs"])
    assert our_line[1].startswith("loss = ") and tf_line[1].startswith(
        "loss = ")
    assert_close(float(our_line[1].split("= ")[1]), ours["losses"][-1])


def test_final_ops_hook(tmp_path):
    tf = tf_case("final_ops_hook")
    hook = train.FinalOpsHook({"step": "global_step",
                               "kernel": "dense/kernel"})
    ours = run_session([train.StopAtStepHook(last_step=3), hook], tmp_path,
                       mts=False)
    compare_run(ours, tf)
    assert hook.final_ops_values["step"] == tf["final_ops_values"]["step"]
    assert_close(hook.final_ops_values["kernel"],
                 tf["final_ops_values"]["kernel"])


def test_feed_fn_hook(tmp_path):
    tf = tf_case("feed_fn_hook")
    order = iter(range(7, -1, -1))

    def feed_fn():
        i = next(order)
        return {"x": X[i], "y": Y[i]}
    ours = run_session([train.StopAtStepHook(last_step=3),
                        train.FeedFnHook(feed_fn)], tmp_path, feed=True,
                       mts=False)
    compare_run(ours, tf)


def test_summary_saver_and_step_counter_events(tmp_path):
    tf = tf_case("summary_and_step_counter")
    ours = run_session([train.StopAtStepHook(last_step=7)], tmp_path,
                       save_checkpoint_secs=None, save_summaries_steps=3,
                       log_step_count_steps=2)
    compare_run(ours, tf)
    events = event_tags(tmp_path)
    assert [e[:2] for e in events] == [e[:2] for e in tf["events"]]
    for a, b in zip(events, tf["events"]):
        if a[0] == "loss":
            assert_close(a[2], b[2], what=f"loss summary at step {a[1]}")
    rates = [line for line in hook_lines(ours["logs"])
             if line[1] == "global_step/sec: <rate>"]
    assert rates == [line for line in hook_lines(tf["logs"])
                     if line[1] == "global_step/sec: <rate>"]


def test_profiler_hook_timeline_steps(tmp_path):
    tf = tf_case("profiler_hook")
    folder = tmp_path / "profile"
    ours = run_session([train.StopAtStepHook(last_step=6),
                        train.ProfilerHook(save_steps=2,
                                           output_dir=str(folder))],
                       tmp_path, mts=False)
    compare_run(ours, tf)
    assert sorted(os.listdir(folder)) == tf["timelines"]


def test_profiler_hook_log_lines(tmp_path):
    tf = tf_case("profiler_hook")
    folder = tmp_path / "profile"
    ours = run_session([train.StopAtStepHook(last_step=6),
                        train.ProfilerHook(save_steps=2,
                                           output_dir=str(folder))],
                       tmp_path, mts=False)
    expected = [[level, text.replace("<dir>", "<dir>/profile")]
                for level, text in hook_lines(tf["logs"])]
    assert hook_lines(ours["logs"]) == expected


class AbortOnce(train.SessionRunHook):
    """The generator's: `AbortedError` once, after the step reaching
    `at_step`."""

    def __init__(self, at_step):
        self.at_step, self.done = at_step, False

    def after_run(self, run_context, run_values):
        step = run_context.session.fetch("global_step")
        if step == self.at_step and not self.done:
            self.done = True
            raise train.AbortedError(None, None, "preempted")


def test_aborted_error_recreates_the_session_from_the_checkpoint(tmp_path):
    # TF re-creates the session, restores the latest checkpoint (step 2)
    # and runs the interrupted call again; the new session starts the
    # input over (its dataset iterator lives in the session), so the
    # retried step trains on the first batch again.
    tf = tf_case("aborted_error_recovery")
    ours = run_session([train.StopAtStepHook(last_step=6),
                        AbortOnce(at_step=3)], tmp_path,
                       save_checkpoint_steps=2, save_summaries_steps=None,
                       log_step_count_steps=None)
    compare_run(ours, tf)
    assert checkpoint_steps(tmp_path) == tf["checkpoints"]


def test_aborted_error_log_line(tmp_path):
    tf = tf_case("aborted_error_recovery")
    ours = run_session([train.StopAtStepHook(last_step=6),
                        AbortOnce(at_step=3)], tmp_path,
                       save_checkpoint_steps=2, save_summaries_steps=None,
                       log_step_count_steps=None)
    [expected] = [line for line in tf["logs"]
                  if line[1].startswith("An error was raised.")]
    assert expected in ours["logs"]
