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
        node_def: Accepted for TF1 compatibility (there is no graph node).
            Defaults to `None`.
        op: Accepted for TF1 compatibility. Defaults to `None`.

    Example:

    >>> error = OutOfRangeError("End of input.")
    >>> isinstance(error, OpError), error.message
    (True, 'End of input.')
    >>> [issubclass(cls, OpError)
    ...  for cls in (AbortedError, UnavailableError, OutOfRangeError)]
    [True, True, True]
    """

    def __init__(self, message="", node_def=None, op=None):
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op


class OutOfRangeError(OpError):
    """The input is exhausted (ends a monitored session's loop).

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> batch = (np.ones((4, 2)), np.ones((4, 1)))
    >>> session = train.TrainingSession(model, input=[batch])
    >>> sorted(session.run())
    ['loss']
    >>> session.run()
    Traceback (most recent call last):
    ...
    kerasish.train.errors.OutOfRangeError: End of input: ...

    A monitored session ends its loop cleanly on it instead:

    >>> with train.MonitoredSession(train.ChiefSessionCreator(
    ...         model=model, input=[batch] * 2)) as session:
    ...     while not session.should_stop():
    ...         logs = session.run()
    >>> int(train.get_global_step(model).numpy())
    3
    """


class AbortedError(OpError):
    """The step was aborted; recoverable by re-creating the session.

    Example:

    A `MonitoredSession` re-creates its session and retries the step:

    >>> import kerasish
    >>> from kerasish import train
    >>> class FailOnce(train.SessionRunHook):
    ...     failed = False
    ...     def before_run(self, run_context):
    ...         if not self.failed:
    ...             self.failed = True
    ...             raise AbortedError("The worker restarted.")
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> hook = FailOnce()
    >>> with train.MonitoredSession(train.ChiefSessionCreator(model=model),
    ...                             hooks=[hook]) as session:
    ...     logs = session.run((np.ones((4, 2)), np.ones((4, 1))))
    >>> hook.failed, int(train.get_global_step(model).numpy())
    (True, 1)
    """


class UnavailableError(OpError):
    """A worker or server is unavailable; recoverable.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> class ServerDownOnce(train.SessionRunHook):
    ...     calls = 0
    ...     def before_run(self, run_context):
    ...         self.calls += 1
    ...         if self.calls == 1:
    ...             raise UnavailableError("ps:0 is unreachable.")
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> hook = ServerDownOnce()
    >>> with train.MonitoredSession(train.ChiefSessionCreator(model=model),
    ...                             hooks=[hook]) as session:
    ...     logs = session.run((np.ones((4, 2)), np.ones((4, 1))))
    >>> hook.calls, int(train.get_global_step(model).numpy())
    (2, 1)
    """


RECOVERABLE_ERRORS = (AbortedError, UnavailableError)


class NanLossDuringTrainingError(RuntimeError):
    """Raised by `NanTensorHook(fail_on_nan_loss=True)` on a NaN/inf loss.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> bad_batch = (np.full((4, 2), np.nan), np.ones((4, 1)))
    >>> try:
    ...     with train.SingularMonitoredSession(
    ...             model=model,
    ...             hooks=[train.NanTensorHook("loss")]) as session:
    ...         logs = session.run(bad_batch)
    ... except NanLossDuringTrainingError as error:
    ...     print(isinstance(error, RuntimeError),
    ...           str(error).startswith("NaN loss during training"))
    True True
    """
