"""`TrainingSession`: the raw session hooks see — a compiled model, stepped.

`run(batch)` runs one `train_step` on `batch` (`(x, y)` or
`(x, y, sample_weight)`) through the model's runtime, via the same
`StepRunner` that `fit` uses, and returns the step's logs. The metrics are
reset before each step (as `train_on_batch` does), so the logs are that
batch's values. With `input=` (an iterable of batches, e.g. a
`kerasish.data.Dataset`), `run()` takes the next batch; an exhausted input
raises `OutOfRangeError`. `fetch(names)` reads values without training.
"""
import numpy as np

from kerasish.engine.data_adapters import unpack_x_y_sample_weight
from kerasish.train.errors import OutOfRangeError
from kerasish.train.step_runner import (StepRunner, apply_feeds,
                                         resolve_fetches)
from kerasish.callbacks.callback_list import pythonify_logs
from kerasish.train.layer_probe import LayerProbe
from kerasish.train.step_runner import _leaves


class RunOptions:
    """Options of one step (TF1's `RunOptions`, with kerasish's fields).

    Args:
        trace_level: `RunOptions.FULL_TRACE` records per-layer forward and
            backward times (see `RunMetadata.step_stats`).
        check_finite: Watch layer outputs and gradients so a non-finite
            value can be traced to its layer (`RunMetadata.diagnose()`).

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1, name="out")])
    >>> model.compile("sgd", "mse")
    >>> options = train.RunOptions(trace_level=train.RunOptions.FULL_TRACE)
    >>> metadata = train.RunMetadata()
    >>> with train.SingularMonitoredSession(model=model) as session:
    ...     logs = session.run((np.ones((4, 2)), np.ones((4, 1))),
    ...                        options=options, run_metadata=metadata)
    >>> [span[:2] for span in metadata.step_stats.probe.spans()]
    [('out', 'forward'), ('out', 'backward')]
    """

    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3

    def __init__(self, trace_level=0, check_finite=False):
        self.trace_level = trace_level
        self.check_finite = check_finite


class RunMetadata:
    """What a step produced besides fetches: `logs`, and `step_stats` (the
    step's `StepResult`, with layer spans when traced).

    Args:
        logs: The step's logs. Defaults to an empty dict.
        step_stats: The step's `StepResult`. Defaults to `None`.

    Example:

    >>> import kerasish
    >>> from kerasish import train
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1, name="out")])
    >>> model.compile("sgd", "mse")
    >>> metadata = train.RunMetadata()
    >>> with train.SingularMonitoredSession(model=model) as session:
    ...     logs = session.run(
    ...         (np.full((4, 2), np.nan), np.ones((4, 1))),
    ...         options=train.RunOptions(check_finite=True),
    ...         run_metadata=metadata)
    >>> sorted(metadata.logs)
    ['loss']
    >>> print(metadata.diagnose())  # doctest: +NORMALIZE_WHITESPACE
    the output of layer 'out' (Dense) is the first non-finite value in
    the forward pass
    """

    def __init__(self, logs=None, step_stats=None):
        self.logs = logs or {}
        self.step_stats = step_stats

    def diagnose(self):
        """Where a non-finite value first appeared (needs `check_finite`)."""
        if self.step_stats is None:
            return None
        return self.step_stats.probe.diagnose()


class _Input:
    """The batches of `input=`, with one batch of look-ahead for building."""

    def __init__(self, source):
        self._iterator = iter(source) if source is not None else None
        self._peeked = []

    @property
    def given(self):
        return self._iterator is not None

    def peek(self):
        if not self._peeked:
            self._peeked.append(self._pull())
        return self._peeked[0]

    def next(self):
        return self._peeked.pop(0) if self._peeked else self._pull()

    def _pull(self):
        if self._iterator is None:
            raise ValueError(
                "`run()` needs a batch: pass one (`sess.run((x, y))`) or give "
                "the session an `input=` iterable of batches.")
        try:
            return next(self._iterator)
        except StopIteration:
            raise OutOfRangeError("End of input: the session's `input` ran "
                                  "out of batches.") from None


class TrainingSession:
    """A model, its step runner and its input, as hooks see "the session".

    Args:
        model: A compiled model.
        input: Optional iterable of batches for `run()` without a batch.
        runner: The `StepRunner` to use (a new one by default).

    Example:

    >>> import numpy as np
    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> sess = TrainingSession(model)
    >>> sorted(sess.run((np.ones((4, 2)), np.ones((4, 1)))))
    ['loss']
    """

    def __init__(self, model, input=None, runner=None):
        if not getattr(model, "compiled", False):
            raise ValueError(
                "A session needs a compiled model: call `model.compile(...)` "
                f"before creating it. Received: model={model!r}")
        self.model = model
        self.runner = runner or StepRunner(model)
        self._input = input if isinstance(input, _Input) else _Input(input)
        self.closed = False
        self.last_logs = {}

    @property
    def graph(self):
        """The model (TF1 code reads `session.graph`)."""
        return self.model

    def build(self):
        """Build the model and optimizer from the first input batch."""
        if self._input.given and not self.model.built:
            self.model._symbolic_build(_standardize(self.model,
                                                    self._input.peek()))
        if self.model.built and self.model.optimizer is not None and \
                not self.model.optimizer.built:
            self.model.optimizer.build(self.model.trainable_variables)

    def next_batch(self):
        """The next batch of `input=` (OutOfRangeError when exhausted)."""
        return self._input.next()

    def run_step(self, batch=None, fetches=None, feed_dict=None,
                 options=None):
        """One training step; returns `(logs, fetched values, result)`."""
        if self.closed:
            raise RuntimeError("Attempted to use a closed Session.")
        options = options or RunOptions()
        if batch is None and not _feeds_batch(feed_dict):
            batch = self.next_batch()
        if feed_dict:
            batch = apply_feeds(batch, [feed_dict])
        runner, model = self.runner, self.model
        batch = _standardize(model, batch)
        model._symbolic_build(batch)
        runner.request(timing=options.trace_level >= RunOptions.FULL_TRACE,
                       check_finite=options.check_finite)
        model.reset_metrics()
        result = runner.train_step(batch, fetches=fetches)
        logs = pythonify_logs(result.logs)
        self.last_logs = logs
        return logs, result.fetched, result

    def run(self, batch=None, fetches=None, feed_dict=None, options=None):
        """Train one step; returns the logs, or `(logs, values)` with
        `fetches`."""
        logs, values, _ = self.run_step(batch, fetches, feed_dict, options)
        return logs if fetches is None else (logs, values)

    def fetch(self, fetches, feed_dict=None):
        """Values of `fetches` now, without training. Layer outputs need a
        fed `x` (`feed_dict={"x": ...}`), run in inference mode."""
        outputs = {}
        if feed_dict and "x" in feed_dict:
            outputs = self._layer_outputs(fetches, feed_dict["x"])
        return resolve_fetches(fetches, self.model, self.last_logs, outputs)

    def _layer_outputs(self, fetches, x):
        names = {leaf if isinstance(leaf, str) else leaf.name
                 for leaf in _leaves(fetches)
                 if isinstance(leaf, str) or hasattr(leaf, "_flatten_layers")}
        with LayerProbe(self.model, capture=names) as probe:
            self.model.predict_on_batch(x)
        return probe.outputs

    def close(self):
        self.closed = True


def _feeds_batch(feed_dict):
    return bool(feed_dict) and "x" in feed_dict


def _standardize(model, batch):
    """Numpy arrays in floatx, as `train_on_batch` prepares them."""
    if isinstance(batch, dict) and set(batch) <= {"x", "y", "sample_weight"}:
        x, y, sw = batch.get("x"), batch.get("y"), batch.get("sample_weight")
    elif isinstance(batch, (tuple, list)):
        x, y, sw = unpack_x_y_sample_weight(tuple(batch))
    else:
        x, y, sw = batch, None, None
    return model._single_batch(np.asarray(x) if _is_array(x) else x, y, sw)


def _is_array(x):
    return hasattr(x, "__array__") and not isinstance(x, np.ndarray)
