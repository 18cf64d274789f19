"""`ProgbarLogger`: progress output of fit/evaluate/predict, through tqdm.

`verbose=1` shows a per-epoch bar with the running logs (Keras prints
`Epoch 3/10` above it when there is more than one epoch); `verbose=2`
prints one line per epoch: `4/4 - 0s - 498us/step - loss: 0.8159 - ...`.
Validation inside `fit` is silent, its `val_` values join the epoch line.
"""
import sys
import time

from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin


def format_value(value):
    """Keras's log format: `.4f`, or `.4e` for tiny magnitudes."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"


def format_logs(logs):
    return "".join(f" - {k}: {format_value(v)}" for k, v in logs.items())


def format_time_per_step(seconds):
    if seconds >= 1:
        return f"{seconds:.0f}s/step"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/step"
    return f"{seconds * 1e6:.0f}us/step"


@builtin("keras.callbacks")
class ProgbarLogger(Callback):
    """Print progress and metrics (added automatically when `verbose`)."""

    def __init__(self):
        super().__init__()
        self.verbose = 1
        self.epochs = 1
        self._bar = None
        self._in_fit = False
        self.stream = sys.stdout

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    # -- bar management -----------------------------------------------------
    def _open(self, total):
        if self.verbose != 1:
            self._start, self._seen = time.time(), 0
            return
        from tqdm import tqdm
        self._bar = tqdm(total=total, file=self.stream, leave=True,
                         dynamic_ncols=False, ncols=None, mininterval=0.05,
                         bar_format="{n_fmt}/{total_fmt} {bar:20} "
                                    "{elapsed}{postfix}",
                         unit="step", ascii=False)
        self._start, self._seen = time.time(), 0

    def _advance(self, logs):
        self._seen += 1
        if self._bar is not None:
            if logs:
                self._bar.set_postfix_str(format_logs(logs).lstrip(),
                                          refresh=False)
            self._bar.update(1)

    def _close(self, logs):
        if self._bar is not None:
            per_step = (time.time() - self._start) / max(self._seen, 1)
            self._bar.set_postfix_str(
                f"{format_time_per_step(per_step)}{format_logs(logs or {})}",
                refresh=False)
            if self._bar.total is None:
                self._bar.total = self._seen
            self._bar.close()
            self._bar = None
        elif self.verbose == 2:
            elapsed = time.time() - self._start
            per_step = elapsed / max(self._seen, 1)
            print(f"{self._seen}/{self.target or self._seen} - "
                  f"{elapsed:.0f}s - {format_time_per_step(per_step)}"
                  f"{format_logs(logs or {})}", file=self.stream)

    # -- hooks --------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}", file=self.stream)
        self._open(self.target)

    def on_train_batch_end(self, batch, logs=None):
        self._advance(logs)

    def on_epoch_end(self, epoch, logs=None):
        self._close(logs)

    def on_train_end(self, logs=None):
        self._in_fit = False

    def on_test_begin(self, logs=None):
        if not self._in_fit:
            self._open(self.target)

    def on_test_batch_end(self, batch, logs=None):
        if not self._in_fit:
            self._advance(logs)

    def on_test_end(self, logs=None):
        if not self._in_fit:
            self._close(logs)

    def on_predict_begin(self, logs=None):
        self._open(self.target)

    def on_predict_batch_end(self, batch, logs=None):
        self._advance(None)

    def on_predict_end(self, logs=None):
        self._close(None)
