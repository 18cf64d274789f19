"""MonitoredSession / MonitoredTrainingSession behaviour."""
import os
import subprocess
import sys

import numpy as np
import pytest

import kerasish as keras
from kerasish import train
from tests.train.test_hook_order import Flaky
from tests.train.util import batches, model


def test_run_with_a_batch_returns_that_batch_logs():
    m = model()
    twin = model()
    twin.set_weights(m.get_weights())
    x, y = batches(1)[0]
    with train.SingularMonitoredSession(model=m) as sess:
        logs = sess.run((x, y))
        logs2 = sess.run((x, y))
    expected = twin.train_on_batch(x, y, return_dict=True)
    assert logs == pytest.approx(expected, rel=1e-6)
    assert sorted(logs2) == ["loss", "mae"]
    assert int(train.get_global_step(m).numpy()) == 2


def test_fetches_of_every_kind():
    m = model()
    x, y = batches(1)[0]
    with train.SingularMonitoredSession(model=m) as sess:
        logs, values = sess.run((x, y), fetches={
            "loss": "loss", "step": "global_step",
            "kernel": "hidden/kernel", "hidden": "hidden",
            "pair": ["out", m.get_layer("out").kernel]})
    assert values["loss"] == logs["loss"] and values["step"] == 1
    np.testing.assert_array_equal(values["kernel"], m.get_layer(
        "hidden").kernel.numpy())
    hidden = np.maximum(x @ values["kernel"] + 0, 0)
    assert values["hidden"].shape == (4, 4) and hidden.shape == (4, 4)
    assert values["pair"][0].shape == (4, 1)
    assert isinstance(values["pair"], list)
    with train.SingularMonitoredSession(model=m) as sess:
        with pytest.raises(ValueError, match="Cannot fetch 'nope'"):
            sess.run((x, y), fetches="nope")


def test_layer_output_fetch_matches_a_forward_pass():
    m = model()
    x, y = batches(1)[0]
    weights = m.get_weights()
    with train.SingularMonitoredSession(model=m) as sess:
        _, hidden = sess.run((x, y), fetches="hidden")
    np.testing.assert_allclose(hidden, np.maximum(
        x @ weights[0] + weights[1], 0), rtol=1e-6)


def test_input_running_dry_ends_the_loop_cleanly():
    ended = []

    class End(train.SessionRunHook):
        def end(self, session):
            ended.append(session.fetch("global_step"))

    creator = train.ChiefSessionCreator(model=model(), input=batches(3))
    with train.MonitoredSession(creator, hooks=[End()]) as sess:
        for _ in range(10):
            sess.run()
    assert ended == [3]

    gen = (b for b in batches(2))
    with train.SingularMonitoredSession(model=model(), input=gen) as sess:
        while not sess.should_stop():
            sess.run()
    assert sess.should_stop()


def test_stop_request_and_run_after_stop():
    class StopNow(train.SessionRunHook):
        def after_run(self, run_context, run_values):
            run_context.request_stop()

    with train.SingularMonitoredSession(model=model(), input=batches(3),
                                        hooks=[StopNow()]) as sess:
        sess.run()
        assert sess.should_stop()
        with pytest.raises(RuntimeError, match="after should_stop"):
            sess.run()


def test_feeds_from_hooks_and_conflicts():
    x, y = batches(1)[0]
    feeder = train.FeedFnHook(lambda: {"x": x, "y": y})
    with train.SingularMonitoredSession(model=model(),
                                        hooks=[feeder]) as sess:
        assert sorted(sess.run()) == ["loss", "mae"]
        with pytest.raises(RuntimeError, match="fed by a SessionRunHook "
                                               "and user"):
            sess.run(feed_dict={"x": x})
    two = [train.FeedFnHook(lambda: {"x": x}),
           train.FeedFnHook(lambda: {"x": x, "y": y})]
    with pytest.raises(RuntimeError, match="fed by two hooks"):
        with train.SingularMonitoredSession(model=model(),
                                            hooks=two) as sess:
            sess.run()


def test_no_batch_and_no_input_is_a_clear_error():
    with pytest.raises(ValueError, match="needs a batch"):
        with train.SingularMonitoredSession(model=model()) as sess:
            sess.run()


def test_uncompiled_model_and_missing_model():
    raw = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="compiled model"):
        train.SingularMonitoredSession(model=raw)
    with pytest.raises(ValueError, match="model="):
        train.ChiefSessionCreator()


def test_run_step_fn():
    x, y = batches(1)[0]
    with train.SingularMonitoredSession(model=model()) as sess:
        def step(step_context):
            step_context.run_with_hooks((x, y))
            step_context.request_stop()
            after.append("unreached")
        after = []
        # As TF: request_stop raises StopIteration out of run_step_fn.
        with pytest.raises(StopIteration, match="requested the iterations"):
            sess.run_step_fn(step)
        assert sess.should_stop() and after == []
        with pytest.raises(ValueError, match="one `step_context` argument"):
            sess.run_step_fn(lambda ctx: None)
    # Inside `with`, the StopIteration ends the block quietly.
    ends = []

    class End(train.SessionRunHook):
        def end(self, session):
            ends.append("end")
    with train.SingularMonitoredSession(model=model(),
                                        hooks=[End()]) as sess:
        while not sess.should_stop():
            sess.run_step_fn(step)
            after.append("unreached")
    assert after == [] and ends == ["end"]


def test_recovery_restores_the_last_checkpoint(tmp_path):
    m = Flaky([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    m.fail_at = 3
    steps = []

    class Steps(train.SessionRunHook):
        def before_run(self, run_context):
            return train.SessionRunArgs("global_step")

        def after_run(self, run_context, run_values):
            steps.append(run_values.results)

    with train.MonitoredTrainingSession(
            model=m, input=batches(4), checkpoint_dir=str(tmp_path),
            save_checkpoint_steps=1, save_summaries_steps=None,
            log_step_count_steps=None, hooks=[Steps()]) as sess:
        while not sess.should_stop():
            sess.run()
    # Step 3 failed; the new session restored checkpoint 2 and, as TF's
    # in-session input pipeline, read the list of 4 batches from the start.
    assert steps == [1, 2, 3, 4, 5, 6]


def test_recovery_continues_a_one_shot_iterator(tmp_path):
    m = Flaky([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    m.fail_at = 3
    steps = []

    class Steps(train.SessionRunHook):
        def after_run(self, run_context, run_values):
            steps.append(int(run_context.session.fetch("global_step")))

    with train.MonitoredTrainingSession(
            model=m, input=iter(batches(4)), checkpoint_dir=str(tmp_path),
            save_checkpoint_steps=1, save_summaries_steps=None,
            log_step_count_steps=None, hooks=[Steps()]) as sess:
        while not sess.should_stop():
            sess.run()
    # An iterator cannot start over: the failed batch is retried, then
    # the last one.
    assert steps == [1, 2, 3, 4]


def test_mts_default_hooks_and_options(tmp_path):
    sess = train.MonitoredTrainingSession(model=model(),
                                          checkpoint_dir=str(tmp_path))
    names = [type(h).__name__ for h in sess._hooks]
    assert names == ["StepCounterHook", "SummarySaverHook",
                     "CheckpointSaverHook"]
    assert sess._hooks[2]._timer._every_secs == 600
    sess.close()
    sess = train.MonitoredTrainingSession(
        model=model(), checkpoint_dir=str(tmp_path),
        save_checkpoint_steps=5, hooks=[train.StopAtStepHook(1)],
        chief_only_hooks=[train.FinalOpsHook("global_step")])
    names = [type(h).__name__ for h in sess._hooks]
    assert names == ["FinalOpsHook", "StepCounterHook", "SummarySaverHook",
                     "CheckpointSaverHook", "StopAtStepHook"]
    assert sess._hooks[3]._timer._every_steps == 5
    sess.close()
    worker = train.MonitoredTrainingSession(
        model=model(), is_chief=False, checkpoint_dir=str(tmp_path),
        chief_only_hooks=[train.FinalOpsHook("global_step")])
    assert worker._hooks == []
    worker.close()


def test_get_or_create_global_step():
    m = model()
    assert train.get_or_create_global_step(m) is m.optimizer._iterations
    with train.SingularMonitoredSession(model=m, input=batches(1)) as sess:
        assert train.get_global_step() is m.optimizer._iterations
        sess.run()
    standalone = train.get_or_create_global_step()
    assert standalone.path == "global_step"
    assert train.get_or_create_global_step() is standalone


def test_create_global_step_refuses_an_existing_one(monkeypatch):
    from kerasish.train import global_step
    monkeypatch.setattr(global_step, "_DEFAULT", {})
    created = train.create_global_step()
    assert created.path == "global_step" and created.dtype == "int64"
    assert train.get_global_step() is created
    # As TF: ValueError('"global_step" already exists.')
    with pytest.raises(ValueError, match='"global_step" already exists'):
        train.create_global_step()
    with pytest.raises(ValueError, match='"global_step" already exists'):
        train.create_global_step(model())


RESUME = """
import sys, numpy as np, kerasish as keras
from kerasish import train
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile("adam", "mse")
rng = np.random.default_rng(0)
data = [(rng.random((4, 3)), rng.random((4, 1))) for _ in range(100)]
with train.MonitoredTrainingSession(
        model=model, input=data, checkpoint_dir=sys.argv[1],
        save_checkpoint_steps=2, save_summaries_steps=None,
        hooks=[train.StopAtStepHook(last_step=int(sys.argv[2]))]) as sess:
    while not sess.should_stop():
        sess.run()
print(int(train.get_global_step(model).numpy()))
np.save(sys.argv[1] + "/w.npy", model.get_weights()[0])
"""


@pytest.mark.slow
def test_rerun_in_a_fresh_process_resumes_from_checkpoint_dir(tmp_path):
    def run(last_step):
        result = subprocess.run(
            [sys.executable, "-c", RESUME, str(tmp_path), str(last_step)],
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return int(result.stdout.split()[-1])

    assert run(3) == 3
    assert train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-3")
    assert run(5) == 5        # restored step 3, ran 2 more steps
    assert run(5) == 6        # already there: one step runs, as in TF
    assert os.path.exists(tmp_path / "graph.json")


def test_input_can_be_a_kerasish_dataset():
    from kerasish import data as kdata
    x, y = batches(1, size=20)[0]
    dataset = kdata.Dataset.from_tensor_slices((x, y)).batch(5)
    m = model()
    with train.SingularMonitoredSession(model=m, input=dataset) as sess:
        while not sess.should_stop():
            sess.run()
    assert int(train.get_global_step(m).numpy()) == 4


def test_session_errors_take_tf_arguments():
    # TF's signature is (node_def, op, message); one argument is the message.
    error = train.AbortedError(None, None, "preempted")
    assert (str(error), error.message, error.node_def) == \
        ("preempted", "preempted", None)
    assert train.OutOfRangeError("End.").message == "End."
    assert train.UnavailableError(message="ps down").message == "ps down"
    assert [cls.error_code for cls in (train.OpError, train.AbortedError,
                                       train.OutOfRangeError,
                                       train.UnavailableError)] == \
        [2, 10, 11, 14]
    with pytest.raises(TypeError, match="node_def, op, message"):
        train.AbortedError(None, None, "x", "extra")


class StepReader(train.SessionRunHook):
    """Reads the global step as a TF1 hook does, at every hook call."""

    def __init__(self):
        self.seen = []

    def begin(self):
        self.step = train.get_global_step()
        self.seen.append(("begin", int(self.step.numpy())))

    def after_create_session(self, session, coord):
        self.seen.append(("after_create_session",
                          int(train.get_global_step().numpy()),
                          int(self.step.numpy())))

    def after_run(self, run_context, run_values):
        self.seen.append(("after_run",
                          int(train.get_or_create_global_step().numpy())))


def test_tf1_global_step_idiom_reads_the_sessions_step(tmp_path,
                                                        monkeypatch):
    from kerasish.train import global_step
    monkeypatch.setattr(global_step, "_DEFAULT", {})
    # TF1's idiom: the step is created before the model is built.
    standalone = train.get_or_create_global_step()
    m = model()
    for last_step, restored in [(2, 0), (3, 2)]:
        reader = StepReader()
        with train.MonitoredTrainingSession(
                model=m if restored == 0 else model(), input=batches(5),
                checkpoint_dir=str(tmp_path), save_checkpoint_steps=1,
                hooks=[reader, train.StopAtStepHook(last_step=last_step)],
                save_summaries_steps=None, log_step_count_steps=None) as s:
            assert train.get_global_step() is s.model.optimizer._iterations
            assert train.get_or_create_global_step() is \
                s.model.optimizer._iterations
            while not s.should_stop():
                s.run()
        # The restored session's hooks see the restored step, not 0.
        assert reader.seen[0][0] == "begin"
        assert reader.seen[1] == ("after_create_session", restored,
                                  restored)
        assert [e[1] for e in reader.seen[2:]] == list(
            range(restored + 1, last_step + 1))
    assert train.get_global_step() is standalone
    # The session kept the standalone step at its model's step, as TF's
    # one graph step would be.
    assert int(standalone.numpy()) == 3
