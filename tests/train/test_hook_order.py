"""The order of hook calls, against TF1's documented protocol."""
import pytest

import kerasish as keras
from kerasish import train
from tests.train.util import RecordingHook, batches, model


def session_trace(hooks, steps):
    creator = train.ChiefSessionCreator(model=model(), input=batches(steps))
    with train.MonitoredSession(creator, hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run()


def test_monitored_session_calls_hooks_in_tf1_order():
    trace = []
    session_trace([RecordingHook(trace, "a"), RecordingHook(trace, "b")], 2)
    step = [("a", "before_run"), ("b", "before_run"), ("a", "after_run"),
            ("b", "after_run")]
    assert trace == [("a", "begin"), ("b", "begin"),
                     ("a", "after_create_session"),
                     ("b", "after_create_session")] + step * 2 + \
        [("a", "end"), ("b", "end")]


def test_begin_before_creation_and_restore_before_after_create(tmp_path):
    trace = []
    m = model()

    class Probe(train.SessionRunHook):
        def begin(self):
            trace.append(("begin", int(m.optimizer.iterations.numpy())))

        def after_create_session(self, session, coord):
            trace.append(("after_create_session",
                          session.fetch("global_step")))

    ckpt = str(tmp_path)
    saver = train.Saver()
    m.optimizer.build(m.trainable_variables)
    m.optimizer.iterations.assign(7)
    saver.save(m, ckpt + "/model.ckpt", global_step=7)
    m.optimizer.iterations.assign(0)
    with train.MonitoredTrainingSession(model=m, checkpoint_dir=ckpt,
                                        hooks=[Probe()],
                                        save_checkpoint_secs=None):
        pass
    # begin saw the fresh model; after_create_session the restored one.
    assert trace == [("begin", 0), ("after_create_session", 7)]


class Flaky(keras.Sequential):
    """Raises a recoverable error once, at its `fail_at`-th train step."""

    fail_at = None

    def train_step(self, data):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == self.fail_at:
            raise train.UnavailableError("lost a parameter server")
        return super().train_step(data)


def test_recoverable_error_recreates_the_session_and_retries():
    trace = []
    m = Flaky([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    m.fail_at = 2
    data = batches(3)
    creator = train.ChiefSessionCreator(model=m, input=data)
    hook = RecordingHook(trace, "h", fetches="global_step")
    with train.MonitoredSession(creator, hooks=[hook]) as sess:
        while not sess.should_stop():
            sess.run()
    assert trace == [("h", "begin"), ("h", "after_create_session"),
                     ("h", "before_run"), ("h", "after_run"),
                     ("h", "before_run"),           # the step that failed
                     ("h", "after_create_session"),  # a new session
                     ("h", "before_run"), ("h", "after_run"),
                     ("h", "before_run"), ("h", "after_run"),
                     ("h", "before_run"), ("h", "after_run"),
                     ("h", "end")]
    # No checkpoint: the new session restarted from the initial state
    # (global step 0) and, as TF, read the input list from its start.
    assert hook.results == [1, 1, 2, 3]


def test_singular_session_does_not_recover():
    m = Flaky([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    m.fail_at = 1
    trace = []
    with pytest.raises(train.UnavailableError):
        with train.SingularMonitoredSession(
                model=m, input=batches(2),
                hooks=[RecordingHook(trace)]) as sess:
            sess.run()
    # An error skips end(), as in TF1.
    assert ("hook", "end") not in trace


def test_hooks_in_fit_follow_the_callback_events():
    trace = []
    m = model()
    x, y = batches(1, size=8)[0]
    m.fit(x, y, batch_size=4, epochs=2, verbose=0,
          callbacks=[RecordingHook(trace, "h", fetches=["loss", "hidden"])])
    step = [("h", "before_run"), ("h", "after_run")]
    assert trace == [("h", "begin"), ("h", "after_create_session")] + \
        step * 4 + [("h", "end")]


def test_callbacks_in_a_session_see_keras_events():
    from tests.callbacks.util import Recorder
    rec = Recorder()
    creator = train.ChiefSessionCreator(model=model(), input=batches(5))
    with train.MonitoredSession(creator, hooks=[
            train.CallbackHook([rec], steps_per_epoch=2)]) as sess:
        while not sess.should_stop():
            sess.run()
    epoch = [("on_train_batch_begin", 0), ("on_train_batch_end", 0),
             ("on_train_batch_begin", 1), ("on_train_batch_end", 1)]
    assert rec.events == (["on_train_begin", ("on_epoch_begin", 0)] + epoch +
                          [("on_epoch_end", 0), ("on_epoch_begin", 1)] +
                          epoch + [("on_epoch_end", 1),
                                   ("on_epoch_begin", 2),
                                   ("on_train_batch_begin", 0),
                                   ("on_train_batch_end", 0),
                                   ("on_epoch_end", 2), "on_train_end"])
