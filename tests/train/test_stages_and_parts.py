"""Stages, Coordinator, Saver, timers, adapters' edge cases."""
import os
import threading

import numpy as np
import pytest

from kerasish import train
from tests.train.util import RecordingHook, batches, model


def test_function_and_class_stages_run_every_n_steps_with_hooks():
    trace = []
    calls = []

    def evaluate(session, ctx):
        calls.append(("fn", ctx.global_step, sorted(ctx.logs)))

    class ExtraStep(train.Stage):
        def run(self, session, ctx):
            # Runs a step through the monitored session: hooks see it.
            session.run(batches(1, seed=9)[0])
            calls.append(("extra", ctx.global_step))

    creator = train.ChiefSessionCreator(model=model(), input=batches(4))
    with train.MonitoredSession(
            creator, hooks=[RecordingHook(trace, fetches="global_step")],
            stages=[(evaluate, 2), ExtraStep(every_n_steps=3)]) as sess:
        while not sess.should_stop():
            sess.run()
    assert calls[0] == ("fn", 2, ["loss", "mae"])
    assert ("extra", 3) in calls
    hook = [h for h in sess._hooks if isinstance(h, RecordingHook)][0]
    # 4 input steps + 1 extra step, all seen by the hook.
    assert len(hook.results) == 5


def test_stage_can_stop_and_runs_at_end():
    ran = []

    def stopper(session, ctx):
        ctx.request_stop()

    creator = train.ChiefSessionCreator(model=model(), input=batches(10))
    with train.MonitoredSession(creator) as sess:
        sess.add_stage(stopper, every_n_steps=2)
        sess.add_stage(train.FunctionStage(
            lambda s, c: ran.append(c.global_step), at_end=True))
        while not sess.should_stop():
            sess.run()
    assert ran == [2]


def test_stage_arguments():
    with pytest.raises(ValueError, match="every_n_steps, every_n_secs"):
        train.FunctionStage(lambda s, c: None)
    with pytest.raises(ValueError, match="positive int"):
        train.FunctionStage(lambda s, c: None, every_n_steps=0)
    with pytest.raises(TypeError, match="must be a `Stage`"):
        train.MonitoredSession(train.ChiefSessionCreator(model=model()),
                               stages=[42])


def test_coordinator_join_reraises_and_grace_period():
    coord = train.Coordinator()

    def worker():
        with coord.stop_on_exception():
            raise ValueError("boom")

    thread = threading.Thread(target=worker)
    coord.register_thread(thread)
    thread.start()
    with pytest.raises(ValueError, match="boom"):
        coord.join()
    coord.clear_stop()
    assert not coord.should_stop()
    coord.request_stop(train.OutOfRangeError("done"))
    coord.raise_requested_exception()   # a clean stop: nothing raised
    stuck = threading.Event()
    thread = threading.Thread(target=stuck.wait, daemon=True)
    thread.start()
    with pytest.raises(RuntimeError, match="threads still running"):
        coord.join([thread], stop_grace_period_secs=0.01)
    stuck.set()


def test_saver_state_file_and_keep_every_n_hours(tmp_path):
    m = model()
    saver = train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=0)
    for step in range(3):
        saver.save(m, str(tmp_path / "model.ckpt"), global_step=step)
    # keep_checkpoint_every_n_hours=0 keeps every checkpoint on disk.
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".h5")]) == 3
    assert saver.last_checkpoints == [str(tmp_path / "model.ckpt-2")]
    with pytest.raises(ValueError, match="not a valid checkpoint"):
        saver.restore(m, str(tmp_path / "missing"))


def test_scaffold_init_fn_runs_without_checkpoint(tmp_path):
    seen = []
    scaffold = train.Scaffold(init_fn=lambda scaffold, sess: seen.append(
        sess.fetch("global_step")))
    with train.MonitoredTrainingSession(model=model(), scaffold=scaffold,
                                        checkpoint_dir=str(tmp_path)):
        pass
    assert seen == [0]
    with train.MonitoredTrainingSession(model=model(), scaffold=scaffold,
                                        checkpoint_dir=str(tmp_path)):
        pass
    assert seen == [0]   # the second run restored the end checkpoint


def test_worker_session_waits_for_the_runtime():
    m = model()
    waited = []

    class Runtime(type(m._runtime_or_default())):
        def wait_for_chief(self, model, timeout):
            waited.append(timeout)

    m._runtime = Runtime()
    creator = train.WorkerSessionCreator(model=m, max_wait_secs=5)
    creator.create_session()
    assert waited == [5]


def test_hook_request_stop_in_fit_stops_training():
    m = model()
    x, y = batches(1, size=16)[0]
    history = m.fit(x, y, batch_size=4, epochs=5, verbose=0,
                    callbacks=[train.StopAtStepHook(num_steps=6)])
    assert int(m.optimizer.iterations.numpy()) == 6
    assert history.epoch == [0, 1]


def test_logging_hook_in_fit_fetches_layers(caplog):
    import logging
    m = model()
    x, y = batches(1, size=8)[0]
    hook = train.LoggingTensorHook({"h": "hidden"}, every_n_iter=1)
    with caplog.at_level(logging.INFO, logger="kerasish.train"):
        m.fit(x, y, batch_size=4, epochs=1, verbose=0, callbacks=[hook])
    assert len(caplog.records) == 2 and "h = [[" in caplog.text


def test_timer_by_seconds():
    timer = train.SecondOrStepTimer(every_secs=3600)
    assert timer.should_trigger_for_step(1)
    timer.update_last_triggered_step(1)
    assert not timer.should_trigger_for_step(2)
    with pytest.raises(ValueError, match="Either every_secs"):
        train.SecondOrStepTimer()
    with pytest.raises(ValueError, match="both"):
        train.SecondOrStepTimer(1, 1)


def test_mean_epoch_logs_of_callback_hook():
    from kerasish.callbacks import History
    history = History()
    creator = train.ChiefSessionCreator(model=model(), input=batches(4))
    with train.MonitoredSession(creator, hooks=[history]) as sess:
        steps = []
        while not sess.should_stop():
            steps.append(sess.run()["loss"])
    assert history.epoch == [0]
    np.testing.assert_allclose(history.history["loss"], [np.mean(steps)])
