"""`Progbar`: Keras's text progress bar, for custom loops and downloads.

`fit`/`evaluate`/`predict` draw their progress with
`kerasish.callbacks.ProgbarLogger` (tqdm, log-friendly); this class is the
public `keras.utils.Progbar` that user code drives itself, printing exactly
Keras's format:

    4/10 ━━━━━━━━━━━━━━━━━━━━ 2s 201ms/step - loss: 0.2600

The bar is redrawn in place (`\\r`) when the display is "dynamic" (Keras's
rule: a terminal, a notebook, PyCharm, or any posix system), else each
update starts a new line.
"""
import math
import os
import sys
import time

import numpy as np

from kerasish.backend.common.global_state import print_msg

_BOLD, _GREEN, _WHITE, _RESET = "\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m"


def _dynamic_display():
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty()) or "ipykernel" in sys.modules or \
        "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ


def _format_eta(eta):
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


def _format_time(time_per_unit, unit_name):
    if time_per_unit >= 1 or time_per_unit == 0:
        return f" {time_per_unit:.0f}s/{unit_name}"
    if time_per_unit >= 1e-3:
        return f" {time_per_unit * 1e3:.0f}ms/{unit_name}"
    return f" {time_per_unit * 1e6:.0f}us/{unit_name}"


def _average(entry):
    total, count = entry
    if not isinstance(total, float):
        total = np.mean(total)
    return total / max(1, count)


def _write(message):
    # Through print_msg: `keras.config.disable_interactive_logging()` sends
    # the bar to the "kerasish" logger instead, as in Keras.
    print_msg(message, line_break=False)


class Progbar:
    """Displays a progress bar.

    Args:
        target: Total number of steps expected, `None` if unknown.
        width: Progress bar width on screen. Defaults to `20`.
        verbose: Verbosity mode, `0` (silent), `1` (verbose, the default),
            `2` (one line when the target is reached).
        interval: Minimum visual progress update interval, in seconds.
            Defaults to `0.05`.
        stateful_metrics: Iterable of names of metrics that should *not* be
            averaged over time: they are displayed as-is. All others are
            averaged by the progbar before display.
        stateless_metrics: The opposite: names of the only metrics to
            average (all others are displayed as-is). Give at most one of
            `stateful_metrics` and `stateless_metrics`.
        unit_name: Display name for the step counts (usually "step" or
            "sample"). Defaults to `"step"`.

    Example:

    >>> bar = Progbar(3, verbose=2)
    >>> for step in range(3):
    ...     bar.update(step + 1, values=[("loss", 0.5)])  # doctest: +ELLIPSIS
    3/3 - 0s - ...s/step - loss: 0.5000
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05,
                 stateful_metrics=None, stateless_metrics=None,
                 unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Only one of `stateful_metrics` or `stateless_metrics` can "
                "be provided: `stateful_metrics` lists the metrics shown "
                "as-is (all others are averaged), `stateless_metrics` the "
                "metrics averaged (all others are shown as-is). Received: "
                f"stateful_metrics={stateful_metrics}, "
                f"stateless_metrics={stateless_metrics}")
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateless_metrics = None
        if stateless_metrics is not None:
            self.stateful_metrics = None
            self.stateless_metrics = set(stateless_metrics)
        else:
            self.stateful_metrics = set(stateful_metrics or ())
        self._dynamic_display = _dynamic_display()
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_after_first_step = None
        self._prev_total_width = 0

    def update(self, current, values=None, finalize=None):
        """Updates the progress bar.

        Args:
            current: Index of current step.
            values: List of tuples: `(name, value_for_last_step)`. Metrics
                not in `stateful_metrics` are averaged over the steps.
            finalize: Whether this is the last update for the progress bar.
                If `None`, defaults to `current >= self.target`.
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._record(current, values or [], finalize)
        now = time.time()
        time_per_unit = self._estimate_step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._print_bar(current, now, time_per_unit, finalize)
        elif self.verbose == 2 and finalize and self._has_target():
            self._print_line(current, now, time_per_unit)
        self._last_update = now

    def add(self, n, values=None):
        """Advance by `n` steps (see `update`)."""
        self.update(self._seen_so_far + n, values)

    # -- running averages ----------------------------------------------------
    def _averaged(self, name):
        if self.stateful_metrics is not None:
            return name not in self.stateful_metrics
        return name in self.stateless_metrics

    def _record(self, current, values, finalize):
        for name, value in values:
            if name not in self._values_order:
                self._values_order.append(name)
            if not self._averaged(name) or finalize:
                # Keras shows the final value as given (a metric's own
                # running mean), not one re-averaged by the bar.
                self._values[name] = [value, 1]
                continue
            # Weight by the steps since the last update, so averages stay
            # per-step when updates skip steps.
            steps = max(current - self._seen_so_far, 1)
            total = self._values.setdefault(name, [0, 0])
            total[0] = total[0] + value * steps
            total[1] += steps
        self._seen_so_far = current

    def _estimate_step_duration(self, current, now):
        if not current:
            return 0
        # The first step often includes compilation/warm-up: later
        # estimates measure from its end.
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit

    # -- display ---------------------------------------------------------------
    def _has_target(self):
        return self.target is not None and self.target > 0

    def _bar(self, current):
        """The counter and bar, and how many of its characters are
        invisible colour codes."""
        if not self._has_target():
            return "%7d/Unknown" % current, 0
        digits = int(math.log10(self.target)) + 1
        bar = f"{_BOLD}%{digits}d/%d{_RESET} " % (current, self.target)
        hidden = 8
        done = int(self.width * float(current) / self.target)
        if done > 0:
            bar += f"{_GREEN}{'━' * done}{_RESET}"
            hidden += 9
        bar += f"{_WHITE}{'━' * (self.width - done)}{_RESET}"
        return bar, hidden + 9

    def _info(self, current, now, time_per_unit, finalize):
        if self._has_target() and not finalize:
            timing = _format_eta(time_per_unit * (self.target - current))
        else:
            timing = f"{now - self._start:.0f}s"
        info = f" {_BOLD}{timing}{_RESET}"
        info += _format_time(time_per_unit, self.unit_name)
        for name in self._values_order:
            avg = _average(self._values[name])
            info += f" - {name}: {avg:.4f}" if abs(avg) > 1e-3 else \
                f" - {name}: {avg:.4e}"
        return info

    def _print_bar(self, current, now, time_per_unit, finalize):
        if self._dynamic_display:
            message = "\b" * self._prev_total_width + "\r"
        else:
            message = "\n"
        bar, hidden = self._bar(current)
        info = self._info(current, now, time_per_unit, finalize)
        total_width = len(bar) + len(info) - hidden - 8
        message += bar + info
        if self._prev_total_width > total_width:
            message += " " * (self._prev_total_width - total_width)
        if finalize:
            message += "\n"
        _write(message)
        self._prev_total_width = total_width

    def _print_line(self, current, now, time_per_unit):
        digits = int(math.log10(self.target)) + 1
        info = f"%{digits}d/%d - {now - self._start:.0f}s" % (current,
                                                              self.target)
        info += " -" + _format_time(time_per_unit, self.unit_name)
        for name in self._values_order:
            avg = _average(self._values[name])
            # Keras's one-line format compares the signed value here, so a
            # negative average prints in exponent form.
            info += f" - {name}: {avg:.4f}" if avg > 1e-3 else \
                f" - {name}: {avg:.4e}"
        _write(info + "\n")
