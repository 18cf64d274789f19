"""`ProgbarLogger`: progress output of fit/evaluate/predict, through tqdm.

`verbose=1` shows a per-epoch bar with the running logs (Keras prints
`Epoch 3/10` above it when there is more than one epoch); `verbose=2`
prints one line per epoch: `4/4 - 0s - 498us/step - loss: 0.8159 - ...`.
Validation inside `fit` is silent in Keras; its `val_` values join the
epoch line.

Beyond Keras (its users' most common progress complaints):

* Log-friendly output. Keras redraws its bar with `\\r` on every posix
  system, which fills log files and CI output. kerasish draws a bar only
  when the stream is a terminal or a notebook; otherwise `verbose=1` prints
  plain lines: the epoch's final line (Keras's format), and, if
  `interval` is set, a progress line every `interval` seconds. Force
  either way with `ProgbarLogger(display="bar"|"lines")` or the
  environment variable `KERASISH_PROGRESS=bar|lines`.
* An ETA for the whole `fit` (`| fit ETA 1:23`, on the bar and on the
  epoch lines of `verbose=1`) and a transient validation bar (or, in line
  mode, validation progress lines with `interval`).
* Notebooks get `tqdm.auto`'s widget bar.
"""
import os
import sys
import time

import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import (
    is_interactive_logging_enabled, print_msg)

_DISPLAYS = ("auto", "bar", "lines")


def format_value(value, signed=False):
    """Keras's log format: `.4f`, or `.4e` for tiny magnitudes.

    `signed`: Keras's one-line (`verbose=2`) format tests the signed value,
    so every negative value prints in exponent form there (`-3.4078e+00`).
    """
    try:
        # Keras's bar shows the mean of a non-scalar value (a vector
        # returned by a custom train_step).
        value = float(np.mean(np.asarray(getattr(value, "_value", value))))
    except (TypeError, ValueError):
        return str(value)
    size = value if signed else abs(value)
    return f"{value:.4f}" if size > 1e-3 else f"{value:.4e}"


def format_logs(logs, signed=False):
    return "".join(f" - {k}: {format_value(v, signed)}"
                   for k, v in logs.items())


def format_time_per_step(seconds):
    if seconds >= 1:
        return f"{seconds:.0f}s/step"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/step"
    return f"{seconds * 1e6:.0f}us/step"


def format_duration(seconds):
    """Keras's ETA format: `7s`, `1:05`, `1:01:05`."""
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:" \
               f"{seconds % 60:02d}"
    if seconds >= 60:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds}s"


def _in_notebook():
    return "ipykernel" in sys.modules


def _interactive(stream):
    isatty = getattr(stream, "isatty", None)
    return _in_notebook() or bool(isatty and isatty())


def _tqdm_class():
    if _in_notebook():
        from tqdm.auto import tqdm  # lazy: kept out of `import kerasish`
    else:
        from tqdm import tqdm  # lazy: kept out of `import kerasish`
    return tqdm


@builtin("keras.callbacks")
class ProgbarLogger(Callback):
    """Print progress and metrics (added automatically when `verbose`).

    Args:
        display: kerasish extension. `"auto"` (default: a bar on terminals
            and notebooks, plain lines otherwise, or the value of the
            environment variable `KERASISH_PROGRESS`), `"bar"` or
            `"lines"`.
        interval: kerasish extension. In line mode, also print a progress
            line every `interval` seconds (default `None`: epoch lines only).
        stream: Where to write (default `sys.stdout` at each use).

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> logger = keras.callbacks.ProgbarLogger(display="lines")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), batch_size=2,
    ...               callbacks=[logger])  # doctest: +ELLIPSIS
    2/2 - ...s - ...s/step - loss: ...
    """

    def __init__(self, display="auto", interval=None, stream=None):
        super().__init__()
        if display not in _DISPLAYS:
            raise ValueError(f"`display` must be one of {_DISPLAYS}. "
                             f"Received: display={display!r}")
        if interval is not None and not interval > 0:
            raise ValueError("`interval` must be a positive number of "
                             f"seconds or None. Received: interval={interval}")
        self.display = display
        self.interval = interval
        self._stream = stream
        self.verbose = 1
        self.epochs = 1
        self.target = None
        self._bar = None
        self._in_fit = False
        self._fit = None
        self._val_target = None

    @property
    def stream(self):
        return self._stream if self._stream is not None else sys.stdout

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _use_bar(self):
        if not is_interactive_logging_enabled():
            return False    # one logged line per epoch, no bar
        display = self.display
        if display == "auto":
            display = os.environ.get("KERASISH_PROGRESS", "auto")
        if display == "auto":
            return _interactive(self.stream)
        return display == "bar"

    def _print(self, text):
        if not is_interactive_logging_enabled():
            print_msg(text)     # to the "kerasish" logger
            return
        print(text, file=self.stream, flush=True)

    # -- one progress run (an epoch, an evaluation, a prediction) ------------
    def _open(self, total, label=""):
        self._start = self._last_line = time.time()
        self._seen, self._label = 0, label
        if self.verbose == 1 and self._use_bar():
            self._bar = _tqdm_class()(
                total=total, file=self.stream, leave=not label,
                mininterval=0.05, unit="step", ascii=False,
                desc=label or None,
                bar_format=("{desc} " if label else "") +
                "{n_fmt}/{total_fmt} {bar:20} {remaining}{postfix}")

    def _advance(self, batch, logs, total):
        """Move to step `batch + 1` (Keras's count: with
        `steps_per_execution` a hook covers several steps); returns how
        many steps that is."""
        seen = batch + 1 if not total else min(batch + 1, total)
        done, self._seen = max(seen - self._seen, 0), max(seen, self._seen)
        if self._bar is not None:
            postfix = format_logs(logs or {}).lstrip() + self._fit_eta(done)
            self._bar.set_postfix_str(postfix, refresh=False)
            self._bar.update(done)
            return done
        now = time.time()
        if self.verbose == 1 and self.interval and \
                now - self._last_line >= self.interval:
            self._last_line = now
            self._print(self._progress_line(logs, total, now))
        return done

    def _progress_line(self, logs, total, now):
        prefix = f"{self._label} " if self._label else ""
        count = f"{self._seen}/{total}" if total else f"{self._seen}"
        eta = ""
        if total:
            rate = (now - self._start) / self._seen
            eta = f" - ETA: {format_duration(rate * (total - self._seen))}"
        return f"{prefix}{count}{eta}{format_logs(logs or {})}"

    def _close(self, logs, total, with_eta=False):
        elapsed = time.time() - self._start
        per_step = format_time_per_step(elapsed / max(self._seen, 1))
        logs = format_logs(logs or {}, signed=self.verbose == 2)
        eta = self._fit_eta(0) if with_eta else ""
        if self._bar is not None:
            bar, self._bar = self._bar, None
            if bar.total is None:
                bar.total = self._seen
            bar.n = bar.total   # Keras finalizes at the target (see below)
            bar.bar_format = bar.bar_format.replace("{remaining}",
                                                    "{elapsed}")
            bar.set_postfix_str(f"{per_step}{logs}{eta}", refresh=False)
            bar.close()
            return
        if self._label or self.verbose not in (1, 2):
            return
        # As Keras, the final count is the target even when the loop ended
        # early (stop_training, data that ran out, `steps` beyond the data).
        shown = total or self._seen
        count = f"{shown}/{shown}"
        if self.verbose == 2:
            self._print(f"{count} - {elapsed:.0f}s - {per_step}{logs}")
        else:
            self._print(f"{count} - {elapsed:.0f}s - {per_step}{logs}{eta}")

    # -- whole-fit ETA -------------------------------------------------------
    def _fit_eta(self, pending):
        fit = self._fit
        if not fit or not self.target or not self._in_fit or self._label:
            return ""
        done = fit["done"] + pending
        remaining = fit["total"] - done
        if done <= 0 or remaining <= 0:
            return ""
        rate = (time.time() - fit["start"]) / done
        return f" | fit ETA {format_duration(rate * remaining)}"

    # -- hooks ----------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._in_fit = True
        self._fit = None

    def on_epoch_begin(self, epoch, logs=None):
        if self._fit is None:
            total = (self.epochs - epoch) * (self.target or 0)
            self._fit = {"start": time.time(), "done": 0, "total": total}
        if self.verbose and self.epochs > 1:
            self._print(f"Epoch {epoch + 1}/{self.epochs}")
        self._open(self.target)

    def on_train_batch_end(self, batch, logs=None):
        done = self._advance(batch, logs, self.target)
        if self._fit is not None:
            self._fit["done"] += done

    def on_epoch_end(self, epoch, logs=None):
        self._close(logs, self.target, with_eta=True)

    def on_train_end(self, logs=None):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._in_fit = False

    def on_test_begin(self, logs=None):
        if self._in_fit:
            fit_state = getattr(self.model, "_fit_state", None)
            self._val_target = getattr(fit_state, "validation_steps", None)
            if self._bar is not None:
                # Keep the epoch bar; show validation on a transient one.
                self._epoch_bar, self._bar = self._bar, None
            else:
                self._epoch_bar = None
            self._saved_run = (self._start, self._seen, self._last_line)
            self._open(self._val_target, label="validation")
            return
        self._open(self.target)

    def on_test_batch_end(self, batch, logs=None):
        if self._in_fit:
            self._advance(batch, None, self._val_target)
        else:
            self._advance(batch, logs, self.target)

    def on_test_end(self, logs=None):
        if self._in_fit:
            if self._bar is not None:
                self._bar.close()
            self._bar = self._epoch_bar
            self._start, self._seen, self._last_line = self._saved_run
            self._label = ""
            return
        self._close(logs, self.target)

    def on_predict_begin(self, logs=None):
        self._open(self.target)

    def on_predict_batch_end(self, batch, logs=None):
        self._advance(batch, None, self.target)

    def on_predict_end(self, logs=None):
        self._close(None, self.target)
