"""`StepRunner`: the one place a training step runs, for both loops.

`model.fit` (with its callbacks) and `MonitoredSession` (with its hooks)
both run each step through `StepRunner.train_step(batch)`, which hands it
to the model's runtime (`runtime.train_step(model, batch)`) and adds what
either face needs around it:

* the exact loss of the batch (`model.batch_loss`), captured from the
  value the step gives the loss tracker (Keras's logs only have the
  running mean);
* requests made before the step by hooks or callbacks: fetches (log keys,
  `"global_step"`, variables by path, layer outputs by layer name), feeds
  replacing parts of the batch, per-layer timing, finiteness checks.

Fetches are nested lists/tuples/dicts of names (or `Variable`/`Layer`
objects); results mirror their structure.
"""
import time

import numpy as np

from kerasish.train.layer_probe import LayerProbe
from kerasish.engine.data_adapters import unpack_x_y_sample_weight
from kerasish.engine.data_adapters.utils import pack_x_y_sample_weight
from kerasish.train.global_step import global_step_value

_BATCH_KEYS = ("x", "y", "sample_weight")


class StepRequest:
    """What one requester wants from the next step (see module doc)."""

    def __init__(self, fetches=None, feed_dict=None, timing=False,
                 check_finite=False):
        self.fetches = fetches
        self.feed_dict = feed_dict or {}
        self.timing = timing
        self.check_finite = check_finite
        self.results = None


class StepResult:
    """Outcome of one step: logs, exact loss, timing and the probe."""

    def __init__(self, logs, batch_loss, start, end, probe):
        self.logs = logs
        self.batch_loss = batch_loss
        self.start = start
        self.end = end
        self.probe = probe


class _LossCapture:
    """Record what the step passes to the loss tracker's `update_state`."""

    def __init__(self, model):
        self.tracker = getattr(model, "_loss_tracker", None)
        self.values = []

    def __enter__(self):
        tracker = self.tracker
        if tracker is None:
            return self
        original = tracker.update_state
        values = self.values
        self._before = _tracker_totals(tracker)

        def update_state(value, sample_weight=None):
            values.append((value, sample_weight))
            return original(value, sample_weight=sample_weight)
        object.__setattr__(tracker, "update_state", update_state)
        return self

    def __exit__(self, *exc):
        if self.tracker is not None:
            self.tracker.__dict__.pop("update_state", None)

    def value(self):
        if self.values:
            total = weight = 0.0
            for value, sample_weight in self.values:
                v = np.asarray(getattr(value, "_value", value))
                w = 1.0 if sample_weight is None else np.asarray(
                    getattr(sample_weight, "_value", sample_weight))
                # Scalars (the usual case) without numpy reductions.
                v = float(v) if v.ndim == 0 else float(np.mean(v))
                w = float(w) if np.ndim(w) == 0 else float(np.sum(w))
                total += v * w
                weight += w
            return total / weight if weight else float("nan")
        # A runtime stepping elsewhere: the tracker's change tells it.
        if self.tracker is None or self._before is None:
            return None
        after = _tracker_totals(self.tracker)
        if after is None or after[1] == self._before[1]:
            return None
        return (after[0] - self._before[0]) / (after[1] - self._before[1])


def _tracker_totals(tracker):
    total, count = getattr(tracker, "total", None), \
        getattr(tracker, "count", None)
    if total is None or count is None:
        return None
    return (float(getattr(total, "_value", total)),
            float(getattr(count, "_value", count)))


class StepRunner:
    """Run training steps of `model` through its runtime.

    Args:
        model: A compiled model.

    Example:

    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> runner = StepRunner(model)
    >>> result = runner.train_step((np.ones((4, 2)), np.ones((4, 1))),
    ...                            fetches=["loss"])
    >>> sorted(result.logs), result.fetched == [result.logs["loss"]]
    (['loss'], True)
    >>> int(model.optimizer.iterations.numpy())
    1
    """

    def __init__(self, model):
        self.model = model
        self.runtime = model._runtime_or_default()
        self._requests = []
        self.last = None

    def request(self, fetches=None, feed_dict=None, timing=False,
                check_finite=False):
        """Ask for things from the next step; returns a `StepRequest`
        whose `results` are filled once it ran."""
        req = StepRequest(fetches, feed_dict, timing, check_finite)
        self._requests.append(req)
        return req

    def train_step(self, batch, fetches=None):
        """Run one step; returns its `StepResult` (`.logs` etc.)."""
        requests, self._requests = self._requests, []
        own = StepRequest(fetches)
        requests.append(own)
        batch = apply_feeds(batch, [r.feed_dict for r in requests])
        probe = LayerProbe(
            self.model, capture=self._layer_fetches(requests),
            timing=any(r.timing for r in requests),
            check_finite=any(r.check_finite for r in requests))
        with _LossCapture(self.model) as loss, probe:
            start = time.perf_counter()
            logs = self.runtime.train_step(self.model, batch)
            end = time.perf_counter()
        result = StepResult(logs, loss.value(), start, end, probe)
        object.__setattr__(self.model, "batch_loss", result.batch_loss)
        self.last = result
        for req in requests:
            if req.fetches is not None:
                req.results = resolve_fetches(req.fetches, self.model,
                                              logs, probe.outputs)
        result.fetched = own.results
        return result

    def _layer_fetches(self, requests):
        if all(req.fetches is None for req in requests):
            return set()
        names = {layer.name for layer in
                 self.model._flatten_layers(include_self=False)}
        wanted = set()
        for req in requests:
            for leaf in _leaves(req.fetches):
                if isinstance(leaf, str) and leaf in names:
                    wanted.add(leaf)
                elif hasattr(leaf, "_flatten_layers"):
                    wanted.add(leaf.name)
        return wanted


# -- feeds ------------------------------------------------------------------
def apply_feeds(batch, feed_dicts):
    """Replace parts of `batch` with fed `x`/`y`/`sample_weight` values."""
    merged = {}
    for feed in feed_dicts:
        for key, value in feed.items():
            if key not in _BATCH_KEYS:
                raise ValueError(
                    "A feed_dict may only feed the batch: keys "
                    f"{_BATCH_KEYS}. Received: {key!r}")
            if key in merged:
                raise RuntimeError(
                    f"Same tensor is fed by two hooks: {key!r}")
            merged[key] = value
    if not merged:
        return batch
    parts = dict(zip(_BATCH_KEYS, unpack_x_y_sample_weight(batch)
                     if batch is not None else (None, None, None)))
    parts.update(merged)
    return pack_x_y_sample_weight(parts["x"], parts["y"],
                                  parts["sample_weight"])


# -- fetches ----------------------------------------------------------------
def _leaves(fetches):
    if isinstance(fetches, dict):
        for value in fetches.values():
            yield from _leaves(value)
    elif isinstance(fetches, (list, tuple)):
        for value in fetches:
            yield from _leaves(value)
    elif fetches is not None:
        yield fetches


def _map_fetches(fetches, fn):
    if fetches is None:
        return None
    if isinstance(fetches, dict):
        return {k: _map_fetches(v, fn) for k, v in fetches.items()}
    if isinstance(fetches, (list, tuple)):
        return type(fetches)(_map_fetches(v, fn) for v in fetches)
    return fn(fetches)


def _variables_by_path(model):
    """Variables by path, also without the model's name in front
    (`"dense/kernel"` as well as `"sequential/dense/kernel"`)."""
    variables = list(model.variables)
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None:
        variables += list(optimizer.variables)
    prefix = f"{model.name}/"
    out = {v.path.removeprefix(prefix): v for v in variables}
    out.update({v.path: v for v in variables})
    return out


def resolve_fetches(fetches, model, logs, layer_outputs=None):
    """Values of `fetches` after a step (see module doc for names)."""
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.callbacks.callback_list import pythonify_logs
    logs = pythonify_logs(logs) if isinstance(logs, dict) else {}
    layer_outputs = layer_outputs or {}
    cache = {}

    def resolve(name):
        if getattr(name, "_is_variable", False) or \
                hasattr(name, "_value") and hasattr(name, "path"):
            return np.array(name.numpy())
        if hasattr(name, "_flatten_layers"):
            name = name.name
            if name in layer_outputs:
                return layer_outputs[name]
        if not isinstance(name, str):
            raise TypeError(
                "Fetches must be names (str), Variables or Layers. "
                f"Received: {name!r} of type {type(name).__name__}")
        if name in logs:
            return logs[name]
        if name == "global_step":
            return global_step_value(model)
        if "variables" not in cache:
            cache["variables"] = _variables_by_path(model)
        if name in cache["variables"]:
            return np.array(cache["variables"][name].numpy())
        if name in layer_outputs:
            return layer_outputs[name]
        raise ValueError(
            f"Cannot fetch {name!r}: it is not a log key "
            f"({sorted(logs)}), 'global_step', a variable path (e.g. "
            f"{sorted(cache['variables'])[:3]}) or the name of a layer of "
            f"model '{model.name}'.")

    return _map_fetches(fetches, resolve)
