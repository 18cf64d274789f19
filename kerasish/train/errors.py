"""Errors of the session machinery, with TF1's names.

`OutOfRangeError` (and `StopIteration`) from the input ends a monitored
session's loop cleanly. `AbortedError` and `UnavailableError` are
*recoverable*: a `MonitoredSession` closes the session, creates a new one
(restoring the latest checkpoint) and retries the step. A runtime that
loses a worker or a parameter server raises one of them.
"""


class OpError(Exception):
    """Base class of session errors.

    Args:
        message: Text of the error.
    """

    def __init__(self, message="", node_def=None, op=None):
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op


class OutOfRangeError(OpError):
    """The input is exhausted (ends a monitored session's loop)."""


class AbortedError(OpError):
    """The step was aborted; recoverable by re-creating the session."""


class UnavailableError(OpError):
    """A worker or server is unavailable; recoverable."""


RECOVERABLE_ERRORS = (AbortedError, UnavailableError)


class NanLossDuringTrainingError(RuntimeError):
    """Raised by `NanTensorHook(fail_on_nan_loss=True)` on a NaN/inf loss."""
