"""`Worker`: a replica of the model that computes updates for the shards.

A worker rebuilds the model from its config (custom classes travel with
it), compiles it from the compile config and runs the model's own steps:
`train_step` (a user override included), `test_step`, `predict_step`. The
replica's optimizer is a `PushingOptimizer`: every `train_step` ends in
`self.optimizer.apply(grads, variables)`, which here records the gradients
by variable instead of applying them; the worker then sends them to the
shards holding those variables (embedding gradients as rows).

Parameters come from the shards: dense ones as whole arrays with each
step, embedding tables by the rows a lookup reads (`RowVariable`, through
the row-gather hook `Variable._rows_source`), so a worker never holds or
moves a whole table.
"""
import os
import time

import numpy as np
import ray

from kerasish import tree
from kerasish.backend import dtypes
from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.variable import Variable, weight_factory
from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.saving import serialization_lib

_VALUE = Tensor.__dict__["_value"]


class PushingOptimizer:
    """The replica's optimizer: records `apply(grads, variables)`.

    Everything else (`learning_rate`, `iterations`, `scale_loss`...) is the
    real optimizer's, so a `train_step` reading them works unchanged.
    """

    scale_loss = Optimizer.scale_loss

    def __init__(self, optimizer):
        object.__setattr__(self, "_inner", optimizer)
        object.__setattr__(self, "captured", [])

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __setattr__(self, name, value):
        setattr(self._inner, name, value)

    @property
    def built(self):
        return True     # the replica keeps no optimizer state

    def build(self, variables):
        """Nothing to build: the slots live on the shards."""

    def apply(self, grads, trainable_variables=None):
        if trainable_variables is None:
            raise ValueError(
                "On a parameter-server worker, `optimizer.apply(grads)` "
                "needs its `trainable_variables` argument.")
        self.captured.append((list(grads), list(trainable_variables)))

    def apply_gradients(self, grads_and_vars):
        grads_and_vars = list(grads_and_vars)
        if grads_and_vars:
            grads, variables = zip(*grads_and_vars)
            self.apply(list(grads), list(variables))
        return self._inner.iterations


class RowVariable(Variable):
    """An embedding table on a worker: rows come from the shards as a
    lookup reads them; the array is allocated lazily (untouched rows cost
    no memory)."""

    __slots__ = ("_fetch",)

    @staticmethod
    def _initial_value(initializer, shape, dtype):
        return np.zeros(tuple(shape), dtypes.standardize_dtype(dtype))

    @property
    def _reads_by_row(self):
        return True

    def _rows_source(self, ids):
        table = _VALUE.__get__(self, Tensor)
        ids = np.asarray(ids)
        flat = np.unique(ids.reshape(-1))
        table[flat] = self._fetch(flat)
        return table


class Worker:
    """One replica (wrapped as a Ray actor by the runtime).

    Args:
        index: The worker index.
        blob: What `runtime.replica_blob(model)` made: the model's config,
            compile config, custom objects and the layout of its weights.
        shards: The shard actors, by ps task.
    """

    def __init__(self, index, blob, shards):
        self.index = index
        self.blob = blob
        self.shards = shards
        self.layout = blob["layout"]
        self.model = None
        # Test-only fault injection: {"delay": {worker index: seconds}}.
        self.delay = blob.get("inject", {}).get("delay", {}).get(index, 0)

    def ping(self):
        return os.getpid()

    # -- the replica --------------------------------------------------------
    def _build(self, batch):
        blob = self.blob
        rows = {i for i, entry in enumerate(self.layout) if entry["rows"]}
        made = []

        def factory(role, initializer, **kwargs):
            index = len(made)
            cls = RowVariable if role == "weight" and index in rows \
                else Variable
            if role == "weight":
                shape, dtype = kwargs["shape"], kwargs.get("dtype")
                if cls is Variable:
                    initializer = np.zeros(tuple(shape), dtype)
            variable = cls(initializer, **kwargs)
            if role == "weight":
                made.append(variable)
            return variable

        with weight_factory(factory):
            model = serialization_lib.deserialize_keras_object(
                blob["config"], custom_objects=blob["custom_objects"])
            if blob["compile"]:
                # Not `compile_from_config`: it builds the optimizer, whose
                # slots (Adam's m and v of every table) a replica never uses.
                model.compile(**serialization_lib.deserialize_keras_object(
                    blob["compile"]))
            object.__setattr__(model, "optimizer",
                               PushingOptimizer(model.optimizer))
            if not model.built:
                model._symbolic_build(batch)
        weights = model.weights
        if len(weights) != len(self.layout):
            raise ValueError(
                f"The replica on worker {self.index} has {len(weights)} "
                f"weights, the model {len(self.layout)}: its config does "
                "not rebuild the same model.")
        for variable, entry in zip(weights, self.layout):
            if tuple(variable.shape) != tuple(entry["shape"]):
                raise ValueError(
                    f"The replica's weight {variable.path} has shape "
                    f"{variable.shape}, the model's {entry['shape']}.")
            if isinstance(variable, RowVariable):
                variable._fetch = self._row_fetcher(entry)
        self.model = model
        self.weights = weights
        self._index = {id(v): i for i, v in enumerate(weights)}

    def _row_fetcher(self, entry):
        def fetch(ids):
            refs, picks = [], []
            for (start, stop, task), key in zip(entry["parts"],
                                                entry["keys"]):
                mask = (ids >= start) & (ids < stop)
                if mask.any():
                    refs.append(self.shards[task].pull_rows.remote(
                        key, ids[mask] - start))
                    picks.append(mask)
            out = np.empty((len(ids),) + tuple(entry["shape"][1:]),
                           entry["dtype"])
            for mask, rows in zip(picks, ray.get(refs)):
                out[mask] = rows
            return out
        return fetch

    def _set_params(self, param_dicts):
        for params in param_dicts:
            for key, value in params.items():
                index, start, stop = self.blob["key_index"][key]
                array = _VALUE.__get__(self.weights[index], Tensor)
                if start is None:
                    np.copyto(array, value)
                else:
                    array[start:stop] = value

    # -- steps --------------------------------------------------------------
    def train(self, batch, *param_dicts):
        """One `train_step` on `batch` with the given dense parameters;
        returns one update per shard (`{"dense", "rows", "assign"}`), then
        the metric states."""
        self._prepare(batch, param_dicts)
        before = self._nontrainable_values()
        self.model.optimizer.captured.clear()
        with _quiet():
            logs = self.model.train_step(batch)
        if self.delay:
            time.sleep(self.delay)
        return (*self._updates(before), self._stats(logs))

    def train_async(self, seq, batch, dense_keys):
        """Pull the latest parameters, run one `train_step` and push its
        update as `(worker, seq)`; returns the metric states and how the
        shards took it."""
        pulled = ray.get([s.pull_versioned.remote(keys)
                          for s, keys in zip(self.shards, dense_keys)])
        *parts, stats = self.train(batch, *[p for p, _ in pulled])
        acks = ray.get([
            s.push.remote(self.index, seq, version, part)
            for s, (_, version), part in zip(self.shards, pulled, parts)])
        stats["applied"] = int(all(applied for applied, _ in acks))
        stats["dropped"] = int(not stats["applied"])
        stats["lag"] = max(version_after - version - 1
                           for (_, version), (_, version_after)
                           in zip(pulled, acks))
        return stats

    def test(self, batch, *param_dicts):
        """One `test_step`; returns the metric states."""
        self._prepare(batch, param_dicts)
        with _quiet():
            logs = self.model.test_step(batch)
        return self._stats(logs)

    def predict(self, batch, *param_dicts):
        """One `predict_step`; returns its outputs as arrays."""
        if self.model is None:
            self._build(batch)
        self._set_params(param_dicts)
        with _quiet():
            out = self.model.predict_step(batch)
        return tree.map_structure(np.asarray, out)

    def _prepare(self, batch, param_dicts):
        if self.model is None:
            self._build(batch)
        self._set_params(param_dicts)
        self.model.reset_metrics()

    def _stats(self, logs):
        return {"states": [v.numpy() for v in self.model.metrics_variables],
                "logs": _plain_logs(logs)}

    def _nontrainable_values(self):
        return {i: v.numpy() for i, v in enumerate(self.weights)
                if not v.trainable}

    def _updates(self, before):
        """One `{"dense", "rows", "assign"}` dict per shard."""
        parts = [{"dense": {}, "rows": {}, "assign": {}}
                 for _ in self.shards]
        for grads, variables in self.model.optimizer.captured:
            for g, v in zip(grads, variables):
                if g is None:
                    continue
                index = self._index.get(id(v))
                if index is None:
                    raise ValueError(
                        f"A train_step applied a gradient to {v.path}, "
                        "which is not a weight of the model.")
                self._route(parts, index, g)
        for index, old in before.items():
            new = self.weights[index].numpy()
            if not np.array_equal(old, new):
                entry = self.layout[index]
                for (start, stop, task), key in zip(entry["parts"],
                                                    entry["keys"]):
                    parts[task]["assign"][key] = new[start:stop] \
                        if len(entry["parts"]) > 1 else new
        return parts

    def _route(self, parts, index, g):
        entry = self.layout[index]
        if isinstance(g, Tensor):
            g = g._value
        split = len(entry["parts"]) > 1
        for (start, stop, task), key in zip(entry["parts"], entry["keys"]):
            if isinstance(g, IndexedSlices):
                ids = np.asarray(g.indices)
                mask = (ids >= start) & (ids < stop) if split else None
                sub_ids = ids if mask is None else ids[mask] - start
                values = g.values if mask is None else g.values[mask]
                shape = (stop - start,) + tuple(entry["shape"][1:])
                parts[task]["rows"][key] = (sub_ids, np.asarray(values),
                                            shape)
            else:
                g = np.asarray(g)
                parts[task]["dense"][key] = g[start:stop] if split else g


def _quiet():
    return np.errstate(over="ignore", under="ignore", invalid="ignore",
                       divide="ignore")


def _plain_logs(logs):
    if not isinstance(logs, dict):
        return {}
    out = {}
    for key, value in logs.items():
        value = getattr(value, "_value", value)
        try:
            out[key] = float(np.asarray(value))
        except (TypeError, ValueError):
            continue
    return out
