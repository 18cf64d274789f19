"""TerminateOnNaN, LambdaCallback, RemoteMonitor, SwapEMAWeights."""
import http.server
import json
import threading
import urllib.parse

import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import (LambdaCallback, RemoteMonitor,
                                SwapEMAWeights, TerminateOnNaN)
from tests.callbacks.util import data, regression_model


def nan_data():
    x, y = data(12)
    y[5] = np.nan
    return x, y


def test_terminate_on_nan_stops_after_the_epoch_hooks(capsys):
    x, y = nan_data()
    model = regression_model()
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False,
                        callbacks=[TerminateOnNaN()], verbose=0)
    assert history.epoch == [0] and np.isnan(history.history["loss"][0])
    assert "Batch 1: Invalid loss, terminating training" in \
        capsys.readouterr().out


def test_terminate_on_nan_raise_error_skips_train_end():
    x, y = nan_data()
    ended = []
    cbs = [TerminateOnNaN(raise_error=True),
           LambdaCallback(on_train_end=lambda logs: ended.append(1))]
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at "
                                           "batch 1"):
        regression_model().fit(x, y, batch_size=4, shuffle=False,
                               callbacks=cbs, verbose=0)
    assert ended == []


def test_lambda_callback_positional_arguments_and_kwargs():
    x, y = data(8)
    calls = []
    cb = LambdaCallback(
        on_train_begin=lambda logs: calls.append(("train_begin", logs)),
        on_epoch_end=lambda epoch, logs: calls.append(("epoch", epoch)),
        on_train_batch_end=lambda batch, logs: calls.append(("batch", batch)),
        on_test_end=lambda logs: calls.append(("test_end", sorted(logs))))
    regression_model().fit(x, y, batch_size=4, epochs=1,
                           validation_split=0.5, callbacks=[cb], verbose=0)
    assert calls == [("train_begin", {}), ("batch", 0),
                     ("test_end", ["loss", "mae"]), ("epoch", 0)]


class _Handler(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, self.headers["Content-Type"],
                              self.headers.get("X-Token"), body.decode()))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _Handler.received = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_remote_monitor_posts_form_and_json(server):
    x, y = data(8)
    model = regression_model()
    model.fit(x, y, epochs=1, verbose=0, callbacks=[
        RemoteMonitor(root=server, headers={"X-Token": "t"}),
        RemoteMonitor(root=server, path="/json", send_as_json=True)])
    form, js = _Handler.received
    assert form[0] == "/publish/epoch/end/" and form[2] == "t"
    assert form[1] == "application/x-www-form-urlencoded"
    payload = json.loads(urllib.parse.parse_qs(form[3])["data"][0])
    assert sorted(payload) == ["epoch", "loss", "mae"]
    assert js[:2] == ("/json", "application/json")
    assert json.loads(js[3])["epoch"] == 0


def test_remote_monitor_unreachable_server_warns():
    cb = RemoteMonitor(root="http://127.0.0.1:9")
    with pytest.warns(UserWarning, match="Could not reach RemoteMonitor"):
        cb.on_epoch_end(0, {"loss": np.float32(1.0)})


def ema_model():
    model = regression_model(keras.optimizers.SGD(0.1, use_ema=True,
                                                  ema_momentum=0.5))
    return model


def test_swap_ema_weights_for_validation_and_predict():
    x, y = data(8)
    model = ema_model()
    seen = {}

    class Peek(keras.callbacks.Callback):
        def on_test_begin(self, logs=None):
            seen["test"] = self.model.get_weights()[0].copy()

        def on_epoch_end(self, epoch, logs=None):
            seen["train"] = self.model.get_weights()[0].copy()

    cb = SwapEMAWeights()
    model.fit(x, y, batch_size=1, epochs=1, validation_split=0.5,
              verbose=0, callbacks=[cb, Peek()])
    average = model.optimizer._average[0].numpy()
    assert not np.array_equal(seen["test"], seen["train"])
    before = model.get_weights()[0].copy()
    model.predict(x, verbose=0, callbacks=[cb])
    # Keras leaves the EMA weights in the model after predict; not here.
    np.testing.assert_array_equal(model.get_weights()[0], before)
    assert average.shape == before.shape


def test_swap_on_epoch_leaves_ema_weights_after_training():
    x, y = data(8)
    model = ema_model()
    model.fit(x, y, batch_size=2, epochs=2, verbose=0,
              callbacks=[SwapEMAWeights(swap_on_epoch=True)])
    np.testing.assert_array_equal(model.get_weights()[0],
                                  model.optimizer._average[0].numpy())


def test_swap_ema_under_a_loss_scale_optimizer():
    # Keras 3.15 unwraps a LossScaleOptimizer (mixed precision) and swaps
    # the wrapped optimizer's averages.
    x, y = data(8)
    inner = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
    model = regression_model(keras.optimizers.LossScaleOptimizer(inner))
    history = model.fit(x, y, batch_size=2, epochs=2, verbose=0,
                        validation_data=(x, y),
                        callbacks=[SwapEMAWeights(swap_on_epoch=True)])
    np.testing.assert_array_equal(model.get_weights()[0],
                                  inner._average[0].numpy())
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0)[0],
                               history.history["val_loss"][-1], rtol=1e-6)


def test_swap_ema_requires_use_ema():
    x, y = data(8)
    with pytest.raises(ValueError, match="use_ema=True"):
        regression_model().fit(x, y, epochs=1, validation_split=0.5,
                               verbose=0, callbacks=[SwapEMAWeights()])
