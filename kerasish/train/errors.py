"""Errors of the session machinery, with TF1's names.

`OutOfRangeError` (and `StopIteration`) from the input ends a monitored
session's loop cleanly. `AbortedError` and `UnavailableError` are
*recoverable*: a `MonitoredSession` closes the session, creates a new one
(restoring the latest checkpoint) and retries the step. A runtime that
loses a worker or a parameter server raises one of them.
"""


class OpError(Exception):
    """Base class of session errors.

    Takes TF's arguments, `(node_def, op, message)`, so ported code such as
    `AbortedError(None, None, "preempted")` keeps its message; a single
    argument is the message.

    Args:
        node_def: Accepted for TF1 compatibility (there is no graph node).
        op: Accepted for TF1 compatibility.
        message: Text of the error (`str(error)`).

    Example:

    >>> error = OutOfRangeError("End of input.")
    >>> isinstance(error, OpError), error.message
    (True, 'End of input.')
    >>> AbortedError(None, None, "preempted").message
    'preempted'
    >>> [issubclass(cls, OpError)
    ...  for cls in (AbortedError, UnavailableError, OutOfRangeError)]
    [True, True, True]
    """

    error_code = 2   # UNKNOWN, as TF's

    def __init__(self, *args, **kwargs):
        if len(args) == 1 and "message" not in kwargs:
            values = {"message": args[0]}
        else:
            values = dict(zip(("node_def", "op", "message"), args))
        unexpected = set(values) & set(kwargs)
        if len(args) > 3 or unexpected or \
                set(kwargs) - {"node_def", "op", "message"}:
            raise TypeError(
                f"{type(self).__name__} takes (node_def, op, message). "
                f"Received: args={args!r}, kwargs={kwargs!r}")
        values.update(kwargs)
        self.node_def = values.get("node_def")
        self.op = values.get("op")
        self.message = values.get("message", "")
        super().__init__(self.message)


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

    error_code = 11


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

    error_code = 10


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

    error_code = 14


RECOVERABLE_ERRORS = (AbortedError, UnavailableError)


class NanLossDuringTrainingError(RuntimeError):
    """Raised by `NanTensorHook(fail_on_nan_loss=True)` on a NaN loss;
    `str(error)` is TF's `"NaN loss during training."`, and
    `first_non_finite` (kerasish) says where the NaN first appeared.

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
    ...           str(error))
    True NaN loss during training.
    """

    first_non_finite = None

    def __str__(self):
        return "NaN loss during training."
