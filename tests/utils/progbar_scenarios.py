"""Progbar scenarios replayed on a fake clock, for kerasish and real Keras.

Each scenario drives a `Progbar` class and advances `clock`; the printed
text is compared with Keras's (tests/fixtures/data_utils/progbar.json,
made by tests/fixtures/data_utils/make_progbar_reference.py).
"""


class FakeClock:
    """Stands in for the `time` module: `time()` returns `now`."""

    def __init__(self, now=1000.0):
        self.now = now

    def time(self):
        return self.now


def _steps(bar, clock, n, dt, values=(), start=1):
    for step in range(start, start + n):
        clock.now += dt
        bar.update(step, values=[(k, v * step) for k, v in values])


def bar_with_metrics(cls, clock):
    bar = cls(10, interval=0, stateful_metrics=["acc"])
    _steps(bar, clock, 10, 0.2, [("loss", 0.1), ("acc", 0.05)])


def unknown_target(cls, clock):
    bar = cls(None, interval=0)
    _steps(bar, clock, 3, 0.004, [("loss", 1e-5)])
    bar.update(3, finalize=True)


def verbose_two_negative(cls, clock):
    bar = cls(5, verbose=2)
    _steps(bar, clock, 5, 1.5, [("loss", -0.2), ("mae", 0.3)])


def stateless_metrics(cls, clock):
    bar = cls(4, interval=0, stateless_metrics=["loss"], unit_name="sample")
    _steps(bar, clock, 4, 0.00002, [("loss", 0.5), ("lr", 0.25)])


def add_skipping_steps(cls, clock):
    bar = cls(100, width=10, interval=0)
    for n in (1, 10, 30, 59):
        clock.now += 3.0
        bar.add(n, values=[("loss", float(n))])


def long_eta(cls, clock):
    bar = cls(5000, interval=0)
    for step in (1, 2, 3):
        clock.now += 10.0
        bar.update(step)
    bar = cls(5000, interval=0)
    for step in (1, 2, 40):
        clock.now += 0.5
        bar.update(step)


def interval_throttles(cls, clock):
    bar = cls(6, interval=1.0)
    _steps(bar, clock, 6, 0.4, [("loss", 0.1)])


def shrinking_line(cls, clock):
    bar = cls(3, interval=0)
    clock.now += 1
    bar.update(1, values=[("a_long_metric_name", 123.456)])
    clock.now += 1
    bar.update(2, values=[("a_long_metric_name", 1.0)], finalize=False)
    clock.now += 1
    bar.update(3)


def not_dynamic(cls, clock):
    bar = cls(3, interval=0)
    bar._dynamic_display = False
    _steps(bar, clock, 3, 0.1, [("loss", 0.3)])


def silent(cls, clock):
    bar = cls(3, verbose=0)
    _steps(bar, clock, 3, 0.1, [("loss", 0.3)])


SCENARIOS = {f.__name__: f for f in (
    bar_with_metrics, unknown_target, verbose_two_negative,
    stateless_metrics, add_skipping_steps, long_eta, interval_throttles,
    shrinking_line, not_dynamic, silent)}
