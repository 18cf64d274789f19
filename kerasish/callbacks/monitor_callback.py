"""`MonitorCallback`: monitor/mode/min_delta logic shared by EarlyStopping,
ModelCheckpoint and ReduceLROnPlateau.

`mode="auto"` resolves lazily at the first epoch end: any monitor whose name
(without `val_`) ends in `loss` is minimised (Keras raises for per-output
losses such as `val_reg_loss`; kerasish treats them as losses); otherwise
the compiled metric of that name decides by its direction (accuracy, AUC,
precision... are maximised); anything else is an error asking for `mode`.
"""
import warnings

import numpy as np

from kerasish.callbacks.callback import Callback


def _less(a, b):
    return bool(np.less(a, b))


def _greater(a, b):
    return bool(np.greater(a, b))


class MonitorCallback(Callback):
    """Base class for callbacks that watch a logged value.

    Example:

    >>> import kerasish
    >>> class BestLoss(kerasish.callbacks.MonitorCallback):
    ...     def on_train_begin(self, logs=None):
    ...         self._set_monitor_op()      # "auto": a loss is minimised
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         if self._is_improvement(logs[self.monitor], self.best):
    ...             self.best = logs[self.monitor]
    >>> callback = BestLoss(monitor="val_loss", min_delta=0.01)
    >>> callback.on_train_begin()
    >>> for loss in [0.9, 0.5, 0.495, 0.7]:
    ...     callback.on_epoch_end(0, {"val_loss": loss})
    >>> callback.best
    0.5
    """

    def __init__(self, monitor="val_loss", mode="auto", baseline=None,
                 min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(
                f"{type(self).__name__} mode '{mode}' is unknown, fallback "
                "to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = _less
        elif self.mode == "max":
            self.monitor_op = _greater
        else:
            self.monitor_op = self._auto_monitor_op()
        if self.monitor_op is _less:
            self.min_delta *= -1

    def _auto_monitor_op(self):
        name = self.monitor.removeprefix("val_")
        if name.endswith("loss"):
            return _less
        direction = None
        for metric in _compiled_metrics(self.model):
            if metric.name == name and hasattr(metric, "_direction"):
                direction = metric._direction
        if direction is not None:
            return _greater if direction == "up" else _less
        raise ValueError(
            f"{type(self).__name__} callback received "
            f"monitor={self.monitor}, but kerasish isn't able to "
            "automatically determine whether that metric should be maximized "
            "or minimized. Pass `mode='max'` in order to monitor based on the "
            "highest metric value, or pass `mode='min'` in order to use the "
            "lowest value.")

    def _is_improvement(self, monitor_value, reference_value):
        if reference_value is None:
            return True
        return self.monitor_op(monitor_value - self.min_delta,
                               reference_value)


def _compiled_metrics(model):
    out = []
    for metric in getattr(model, "metrics", []) or []:
        out.extend(getattr(metric, "metrics", None) or [metric])
    return out
