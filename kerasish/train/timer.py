"""`SecondOrStepTimer`: "every N steps or every N seconds" for hooks."""
import time


class SecondOrStepTimer:
    """Triggers every `every_secs` seconds or every `every_steps` steps.

    Args:
        every_secs: Seconds between triggers.
        every_steps: Steps between triggers (exactly one of the two).

    Example:

    >>> timer = SecondOrStepTimer(every_steps=10)
    >>> timer.should_trigger_for_step(0)
    True
    >>> timer.update_last_triggered_step(0)
    (None, None)
    >>> timer.should_trigger_for_step(5), timer.should_trigger_for_step(10)
    (False, True)
    """

    def __init__(self, every_secs=None, every_steps=None):
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be "
                             "provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and "
                             "every_steps.")
        self._every_secs = every_secs
        self._every_steps = every_steps
        self.reset()

    def reset(self):
        self._last_time = None
        self._last_step = None

    def should_trigger_for_step(self, step):
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._every_secs is not None:
            return time.time() >= self._last_time + self._every_secs
        return step >= self._last_step + self._every_steps

    def update_last_triggered_step(self, step):
        """Mark `step` as triggered; returns `(elapsed_secs, elapsed_steps)`
        since the previous trigger (`(None, None)` the first time)."""
        now = time.time()
        if self._last_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_time, step - self._last_step)
        self._last_time, self._last_step = now, step
        return elapsed

    def last_triggered_step(self):
        return self._last_step
