"""`Coordinator`: stop a group of threads together (TF1's coordinator).

A `MonitoredSession` gives one to `after_create_session(session, coord)`.
Hooks that start threads (input prefetchers, pollers) register them and
loop `while not coord.should_stop()`; closing the session requests a stop
and joins the threads, waiting at most `stop_grace_period_secs`.
"""
import contextlib
import logging
import sys
import threading
import time

from kerasish.train.errors import OutOfRangeError

logger = logging.getLogger("kerasish.train")


class Coordinator:
    """Coordinate the termination of a set of threads.

    Args:
        clean_stop_exception_types: Exception types that request a stop
            without being reported as errors. Defaults to
            `(OutOfRangeError,)`.

    Example:

    >>> import threading
    >>> coord = Coordinator()
    >>> worker = threading.Thread(target=coord.wait_for_stop)
    >>> worker.start()
    >>> coord.request_stop()
    >>> coord.join([worker])
    >>> coord.joined
    True
    """

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (OutOfRangeError,)
        self._clean_stop = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info = None
        self._registered = set()
        self._joined = False

    def request_stop(self, ex=None):
        """Ask every thread to stop; `ex` (an exception or `exc_info`) is
        re-raised by `join()` unless it is a clean-stop type."""
        with self._lock:
            if ex is not None and self._exc_info is None:
                info = ex if isinstance(ex, tuple) else \
                    (type(ex), ex, ex.__traceback__)
                if not issubclass(info[0], self._clean_stop):
                    self._exc_info = info
            self._stop_event.set()

    def clear_stop(self):
        """Forget a stop request and its exception."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Context manager: an exception inside requests a stop with it."""
        try:
            yield
        except Exception:  # every error stops the group; join re-raises it
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Block until a stop is requested; returns `should_stop()`."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120,
             ignore_live_threads=False):
        """Wait for the threads to finish after a stop request.

        Raises the exception given to `request_stop`, or a RuntimeError if
        threads are still alive after the grace period (unless
        `ignore_live_threads`).
        """
        with self._lock:
            threads = set(threads or ()) | self._registered
        while any(t.is_alive() for t in threads) and \
                not self.wait_for_stop(0.05):
            pass
        deadline = time.time() + stop_grace_period_secs
        for thread in threads:
            thread.join(max(deadline - time.time(), 0))
        alive = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered = set()
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])
        if alive:
            if ignore_live_threads:
                logger.info("Coordinator stopped with threads still "
                            "running: %s", " ".join(alive))
            else:
                raise RuntimeError("Coordinator stopped with threads still "
                                   f"running: {' '.join(alive)}")

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raise the exception given to `request_stop`, if any."""
        with self._lock:
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])
