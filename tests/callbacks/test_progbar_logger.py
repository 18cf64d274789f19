"""ProgbarLogger: Keras's formats, and the log-friendly line mode."""
import io
import re

import pytest

from kerasish.callbacks import ProgbarLogger
from kerasish.callbacks.progbar_logger import format_duration, format_value
from tests.callbacks.util import data, regression_model


def fit(logger=None, verbose=1, epochs=2, **kwargs):
    x, y = data(20)
    callbacks = [logger] if logger is not None else []
    regression_model().fit(x, y, batch_size=5, epochs=epochs,
                           verbose=verbose, callbacks=callbacks, **kwargs)


def test_non_terminal_output_is_one_line_per_epoch(capsys):
    fit(validation_split=0.2)
    out = capsys.readouterr().out
    assert "\r" not in out
    lines = out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert re.fullmatch(r"4/4 - \d+s - \d+[mu]?s/step - loss: \S+ - mae: "
                        r"\S+ - val_loss: \S+ - val_mae: \S+ \| fit ETA \d+s",
                        lines[1])
    assert "fit ETA" not in lines[3]
    assert len(lines) == 4


def test_verbose_2_is_keras_format(capsys):
    fit(verbose=2, epochs=1)
    (line,) = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"4/4 - \d+s - \d+[mu]?s/step - loss: \S+ - mae: "
                        r"\S+", line)


def test_forced_bar_draws_with_carriage_returns():
    stream = io.StringIO()
    fit(ProgbarLogger(display="bar", stream=stream), epochs=1,
        validation_split=0.2)
    out = stream.getvalue()
    assert "\r" in out and "4/4" in out and "loss:" in out
    assert "validation" in out


def test_environment_variable_forces_the_display(monkeypatch, capsys):
    monkeypatch.setenv("KERASISH_PROGRESS", "bar")
    fit(epochs=1)
    assert "\r" in capsys.readouterr().out


def test_interval_prints_progress_lines():
    stream = io.StringIO()
    logger = ProgbarLogger(display="lines", interval=1e-9, stream=stream)
    fit(logger, epochs=1)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("1/4 - ETA: ")
    assert any(line.startswith("4/4 - ETA: 0s") for line in lines)
    assert lines[-1].startswith("4/4 - ") and "s/step" in lines[-1]


def test_evaluate_and_predict_lines(capsys):
    x, y = data(10)
    model = regression_model()
    model.evaluate(x, y, batch_size=5)
    model.predict(x, batch_size=5)
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"2/2 - \d+s - \S+/step - loss: \S+ - mae: \S+",
                        lines[0])
    assert re.fullmatch(r"2/2 - \d+s - \S+/step", lines[1])


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="display"):
        ProgbarLogger(display="fancy")
    with pytest.raises(ValueError, match="interval"):
        ProgbarLogger(interval=0)


def test_formats():
    assert format_value(0.123456) == "0.1235"
    assert format_value(0.0001234) == "1.2340e-04"
    assert [format_duration(s) for s in (7, 65, 3665)] == \
        ["7s", "1:05", "1:01:05"]


def test_validation_progress_lines_in_line_mode():
    stream = io.StringIO()
    logger = ProgbarLogger(display="lines", interval=1e-9, stream=stream)
    fit(logger, epochs=1, validation_split=0.5)
    lines = stream.getvalue().splitlines()
    assert "validation 1/2 - ETA: " in "\n".join(lines)
    assert lines[-1].startswith("2/2 - ") and "val_loss" in lines[-1]


def _negative_loss_model():
    import kerasish as keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        1, kernel_initializer="zeros")])
    model.compile("sgd", lambda t, p: -keras.ops.mean(
        keras.ops.square(t - p)) - 0.5, metrics=["mae"])
    return model


def test_one_line_format_prints_negative_values_in_exponent_form(capsys):
    # Keras 3.15's verbose=2 line compares the signed value with 1e-3, so
    # negatives print as `.4e`; its bar (verbose=1) compares the magnitude.
    # The expected lines (timings aside) are Keras 3.15's output.
    import numpy as np
    x, y = np.ones((4, 2)), np.ones((4, 1))
    model = _negative_loss_model()
    model.fit(x, y, batch_size=4, epochs=1, verbose=2)
    model.evaluate(x, y, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    timing = r"1/1 - \d+s - \d+[mu]?s/step"
    assert re.fullmatch(timing + r" - loss: -1\.5000e\+00 - mae: 1\.0000",
                        lines[0])
    assert re.fullmatch(timing + r" - loss: -1\.6236e\+00 - mae: 1\.0600",
                        lines[1])
    stream = io.StringIO()
    _negative_loss_model().fit(x, y, batch_size=4, epochs=1, verbose=1,
                               callbacks=[ProgbarLogger(display="lines",
                                                        stream=stream)])
    assert "loss: -1.5000 - mae: 1.0000" in stream.getvalue()


def test_non_scalar_log_values_show_their_mean(capsys):
    # Keras 3.15 (TF backend, same train_step) prints
    # "2/2 - 0s - 3ms/step - loss: 1.5000 - n: 3.0000 - vec: 2.0000".
    import kerasish as keras

    class VectorLogs(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            return {"loss": keras.ops.convert_to_tensor(1.5), "n": 3,
                    "vec": keras.ops.convert_to_tensor([1.0, 3.0])}

    model = VectorLogs()
    model.compile("sgd", "mse")
    x, y = data(10)
    model.fit(x, y, batch_size=5, epochs=1, verbose=2)
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"2/2 - \d+s - \d+[mu]?s/step - loss: 1\.5000 - "
                        r"n: 3\.0000 - vec: 2\.0000", line)


def test_final_line_counts_the_target_when_a_loop_stops_early(capsys):
    # Keras 3.15 finalizes its bar at the target: stopping after 2 of 5
    # batches still prints "5/5 - ..." (same losses as below).
    import kerasish as keras

    class StopAtSecondBatch(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True

        def on_test_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_evaluating = True

    x, y = data(10)
    model = regression_model()
    model.fit(x, y, batch_size=2, epochs=2, verbose=2, shuffle=False,
              callbacks=[StopAtSecondBatch()])
    model.evaluate(x, y, batch_size=2, verbose=2,
                   callbacks=[StopAtSecondBatch()])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and len(lines) == 3
    assert all(re.match(r"5/5 - \d+s - ", line) for line in lines[1:])


def test_steps_per_execution_counts_steps_not_hooks():
    # Keras counts `batch + 1` steps: one hook per execution of 3 batches
    # still ends its epoch at 4/4, with no fit ETA left on the last line.
    x, y = data(20)
    model = regression_model()
    model.compile("sgd", "mse", steps_per_execution=3)
    stream = io.StringIO()
    logger = ProgbarLogger(display="lines", interval=1e-9, stream=stream)
    model.fit(x, y, batch_size=5, epochs=1, verbose=1, callbacks=[logger])
    lines = stream.getvalue().splitlines()
    assert [line.split(" ")[0] for line in lines] == ["3/4", "4/4", "4/4"]
    assert "fit ETA" not in lines[-1]
