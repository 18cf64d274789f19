"""`ParameterServerRuntime`: the driver's side of the parameter server.

The driver is the chief and coordinator: it owns the data order, the
callbacks, the metrics and every file written; shards hold the variables
and apply the optimizer; workers compute. One step, by mode:

* **sync**: the batch is cut into `num_workers` contiguous parts; each
  worker runs the model's `train_step` on its part with the parameters of
  the last update and returns one update per shard plus its metric
  states; each shard averages the updates of the replicas in replica
  order, weighted by their sample counts, and applies them as update
  `step` (once: ids make a retried step a no-op). So N workers on a batch
  of B samples give the weights of one local step on those B samples.
  With `backup_workers=b` the first `N - b` replicas to finish are used,
  the others dropped and counted (`late_replicas` in the logs).
* **async**: each batch goes to the next free worker, which pulls the
  latest parameters, computes and pushes its update with id
  `(worker, seq)`; shards apply it on arrival (with `staleness`: unless
  computed on parameters more than that many updates old).
* **ssp**: async, but a worker never runs more than `staleness` steps
  ahead of the slowest.

Metric states of the replicas are summed into the driver's metrics (every
built-in metric's state is additive), so logs are the local logs. The
driver's variables (`ShardedVariable`) are pulled when read.
"""
import contextlib

import numpy as np
import ray

from kerasish import optimizers, tree
from kerasish.backend.common.variable import Variable, weight_factory
from kerasish.backend.tensor import Tensor
from kerasish.distribute.ps import layout as layout_lib
from kerasish.distribute.ps.cluster import Cluster
from kerasish.distribute.runtime import Runtime, quiet_numpy
from kerasish.distribute.sharded_variable import ShardedVariable
from kerasish.engine.data_adapters import unpack_x_y_sample_weight
from kerasish.saving import object_registration, serialization_lib

_VALUE = Tensor.__dict__["_value"]


class ParameterServerRuntime(Runtime):
    """Runs a model's steps on Ray actors (see module docstring)."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.cluster = None
        self.model = None
        self._key = None
        self.version = 0
        self.late_replicas = 0
        self.dropped = 0
        self._linked = {}       # id -> (variable, [(task, key, a, b)])
        self._dirty = {}
        self._inflight = {}

    # -- the Runtime protocol -------------------------------------------------
    def variable_scope(self):
        return self.strategy.scope()

    def begin(self, model, mode):
        if model.built:
            self._ensure(model)
            self._push_driver_writes()

    def end(self, model, mode):
        if self.cluster is not None:
            self.sync()

    def train_step(self, model, batch):
        self._ensure(model, batch)
        self._push_driver_writes()
        self._last_batch = batch
        if self.strategy.mode == "sync":
            return self._sync_train(model, batch)
        return self._async_train(model, batch)

    def test_step(self, model, batch):
        self._ensure(model, batch)
        self._push_driver_writes()
        self.sync()
        self._last_batch = batch
        stats = self._fan_out("test", batch)
        self._merge_states(stats)
        return self._logs(stats)

    def predict_step(self, model, batch):
        self._ensure(model, batch)
        self._push_driver_writes()
        self.sync()
        outputs = self._fan_out("predict", batch)
        return tree.map_structure(
            lambda *xs: np.concatenate(xs, axis=0), *outputs)

    def sync(self):
        """Wait for the updates in flight (async and ssp)."""
        while self._inflight:
            self._collect(block=True)

    def shard_status(self):
        """Each shard's version, log of applied update ids, dropped count
        and iterations: the shards' own account of what they applied."""
        return self.cluster.get([s.status.remote()
                                 for s in self.cluster.shards],
                                "read the shards' status")

    def shard_digests(self):
        """sha256 of each shard's variables."""
        return self.cluster.get([s.digest.remote()
                                 for s in self.cluster.shards],
                                "read the shards' digests")

    def shutdown(self):
        """Stop every actor (and Ray, if this runtime started it). The
        driver's variables keep the shards' last values: they are pulled
        first (unless the shards are gone)."""
        if self.cluster is not None:
            with contextlib.suppress(Exception):    # a shard already died
                self.refresh()
        cluster, self.cluster = self.cluster, None
        self._inflight = {}
        if cluster is not None:
            cluster.close()
        for v, _, _ in self._linked.values():
            v._link = None
        self._linked, self._dirty = {}, {}
        self._key = self.model = None

    # -- setting up -----------------------------------------------------------
    def _ensure(self, model, batch=None):
        key = (id(model), id(model.optimizer), id(model._compile_config))
        if self._key == key and self.cluster is not None:
            return
        if self.cluster is not None:
            self.shutdown()
        if not model.built and batch is not None:
            model._symbolic_build(batch)
        if model.optimizer is not None and not model.optimizer.built:
            with self.strategy.scope():
                model.optimizer.build(model.trainable_variables)
        num_ps = self.strategy.num_ps
        layout = layout_lib.model_layout(model, num_ps,
                                         self.strategy.sparse_embeddings)
        blob = self._replica_blob(model, layout)
        _check_rebuildable(blob)
        specs = layout_lib.shard_specs(layout, model.weights, num_ps)
        try:
            self.cluster = Cluster(self.strategy.address,
                                   self.strategy.timeout,
                                   self.strategy.actor_options)
            self.cluster.start(specs, _optimizer_blob(model.optimizer),
                               self._max_staleness(), blob)
            self.model, self.layout = model, layout
            self.dense_keys = layout_lib.dense_keys(layout, num_ps)
            self._link(model, layout)
            self._push_optimizer_state(model)
            self._param_refs = self._pull_refs()
        except BaseException:
            self.shutdown()
            raise
        self._key = key
        self._clock = [0] * self.strategy.num_workers
        self._seq = [0] * self.strategy.num_workers

    def _max_staleness(self):
        s = self.strategy
        return s.staleness if s.mode == "async" else None

    def _replica_blob(self, model, layout):
        custom = dict(object_registration.get_custom_objects())
        for obj in [model] + list(model._flatten_layers(include_self=False)):
            cls = type(obj)
            if not cls.__module__.startswith("kerasish."):
                custom[object_registration.get_registered_name(cls)] = cls
                custom[cls.__name__] = cls
        return {
            "config": serialization_lib.serialize_keras_object(model),
            "compile": model.get_compile_config(),
            "custom_objects": custom,
            "layout": layout,
            "key_index": layout_lib.key_index(layout),
            "num_workers": self.strategy.num_workers,
            "inject": getattr(self.strategy, "_inject", {}),
        }

    def _link(self, model, layout):
        self._linked, self._dirty = {}, {}
        for v, entry in zip(model.weights, layout):
            split = len(entry["parts"]) > 1
            places = [(t, key, a if split else None, b if split else None)
                      for (a, b, t), key in zip(entry["parts"],
                                                entry["keys"])]
            self._linked[id(v)] = (v, places, "weight")
            v._link, v._seen = self, self.version
        self._scalars, self._pushed_scalars = {}, {}
        optimizer = model.optimizer
        if optimizer is None:
            return
        slots = layout_lib.slot_map(layout, optimizer)
        for v in optimizer.variables:
            if v.name in slots and isinstance(v, ShardedVariable):
                self._linked[id(v)] = (v, slots[v.name], "slot")
                v._link, v._seen = self, self.version
            elif v.name not in slots and v is not optimizer._iterations:
                self._scalars[v.name] = v

    def _push_optimizer_state(self, model):
        optimizer = model.optimizer
        if optimizer is None:
            return
        per_task = [{} for _ in self.cluster.shards]
        for v, places, kind in self._linked.values():
            if kind != "slot":
                continue
            value = v._local_array()
            for task, name, a, b in places:
                per_task[task][name] = value if a is None else value[a:b]
        iterations = int(optimizer._iterations._value)
        for state in per_task:
            state[optimizer._iterations.name] = np.asarray(
                iterations, optimizer._iterations.dtype)
        self.cluster.get([s.set_optimizer_state.remote(state)
                          for s, state in zip(self.cluster.shards,
                                              per_task)],
                         "set the optimizer state on the shards")
        self._push_scalars(force=True)

    # -- the driver's variables ----------------------------------------------
    def mark_dirty(self, variable):
        self._dirty[id(variable)] = variable

    def refresh(self):
        """Pull every stale variable of the driver: one round trip per
        shard."""
        if self.cluster is None:
            return
        self.sync()
        stale = [(v, places, kind) for v, places, kind in
                 self._linked.values()
                 if v._seen != self.version and id(v) not in self._dirty]
        if not stale:
            return
        keys = [[] for _ in self.cluster.shards]
        slots = [False] * len(self.cluster.shards)
        for v, places, kind in stale:
            for task, key, _, _ in places:
                if kind == "weight":
                    keys[task].append(key)
                else:
                    slots[task] = True
        refs = [s.pull.remote(k) for s, k in zip(self.cluster.shards, keys)
                if k]
        refs += [s.optimizer_state.remote() for s, want in
                 zip(self.cluster.shards, slots) if want]
        values = {}
        for part in self.cluster.get(refs, "pull the variables"):
            values.update(part)
        for v, places, _ in stale:
            array = v._local_array()
            for _, key, a, b in places:
                if a is None:
                    np.copyto(array, values[key])
                else:
                    array[a:b] = values[key]
            v._seen = self.version

    def _push_driver_writes(self):
        if self.cluster is None:
            return
        self._push_scalars()
        if not self._dirty:
            return
        self.sync()
        weights = [{} for _ in self.cluster.shards]
        slots = [{} for _ in self.cluster.shards]
        for v in self._dirty.values():
            _, places, kind = self._linked[id(v)]
            array = v._local_array()
            target = weights if kind == "weight" else slots
            for task, key, a, b in places:
                target[task][key] = array if a is None else array[a:b]
            v._seen = self.version
        refs = [s.assign.remote(w) for s, w in zip(self.cluster.shards,
                                                   weights) if w]
        refs += [s.set_optimizer_state.remote(o) for s, o in
                 zip(self.cluster.shards, slots) if o]
        self.cluster.get(refs, "write the driver's values to the shards")
        self._dirty = {}
        self._param_refs = self._pull_refs()

    def _push_scalars(self, force=False):
        """The learning rate and other optimizer scalars are the driver's:
        a change (a callback setting the rate) goes to every shard."""
        changed = {}
        for name, v in self._scalars.items():
            value = np.array(v._local_array() if isinstance(
                v, ShardedVariable) else v._value)
            old = self._pushed_scalars.get(name)
            if force or old is None or not np.array_equal(old, value):
                changed[name] = value
                self._pushed_scalars[name] = value
        if changed:
            self.cluster.get([s.set_optimizer_state.remote(changed)
                              for s in self.cluster.shards],
                             "set the optimizer scalars on the shards")

    def _pull_refs(self):
        return [s.pull.remote(keys) for s, keys in
                zip(self.cluster.shards, self.dense_keys)]

    def _advance(self, applied):
        """`applied` more updates reached the shards."""
        if not applied:
            return
        self.version += applied
        optimizer = self.model.optimizer
        if optimizer is not None:
            it = optimizer._iterations
            array = it._local_array() if isinstance(it, ShardedVariable) \
                else it._value
            array[...] = array + applied

    # -- sync -----------------------------------------------------------------
    def _sync_train(self, model, batch):
        cluster = self.cluster
        num_ps = len(cluster.shards)
        step = self.version + 1
        workers = self._free_for_step()
        calls = []
        for i, (sub, n) in zip(workers, _split(batch, len(workers))):
            if n:
                refs = cluster.workers[i].train.options(
                    num_returns=num_ps + 1).remote(sub, *self._param_refs)
                calls.append((i, refs, n))
        calls = self._first_to_finish(calls)
        total = sum(n for _, _, n in calls)
        weights = [n / total for _, _, n in calls]
        self._param_refs = [
            shard.apply_sync.remote(step, weights, self.dense_keys[k],
                                    *[refs[k] for _, refs, _ in calls])
            for k, shard in enumerate(cluster.shards)]
        stats = cluster.get([refs[-1] for _, refs, _ in calls],
                            f"finish training step {step}")
        self._advance(1)
        self._merge_states(stats)
        logs = self._logs(stats)
        if self.strategy.backup_workers:
            logs["late_replicas"] = float(self.late_replicas)
        return logs

    def _free_for_step(self):
        """The workers to give this step: all of them, but with backup
        workers those still busy with a step they were late for sit it
        out (at least `num_workers - backup_workers` take part)."""
        everyone = list(range(self.strategy.num_workers))
        late = self.__dict__.setdefault("_late", {})
        if not late:
            return everyone
        wanted = self.strategy.num_workers - self.strategy.backup_workers
        while True:
            done, _ = ray.wait(list(late.values()), num_returns=len(late),
                               timeout=0)
            for worker in [w for w, ref in late.items() if ref in done]:
                del late[worker]
            free = [w for w in everyone if w not in late]
            if len(free) >= wanted:
                return free
            ray.wait(list(late.values()), num_returns=1,
                     timeout=self.cluster.timeout)

    def _first_to_finish(self, calls):
        wanted = self.strategy.num_workers - self.strategy.backup_workers
        if len(calls) <= wanted:
            return calls
        by_stats = {refs[-1]: (i, refs, n) for i, refs, n in calls}
        ready, _ = ray.wait(list(by_stats), num_returns=wanted,
                            timeout=self.cluster.timeout)
        if len(ready) < wanted:
            raise TimeoutError(
                f"Only {len(ready)} of {wanted} replicas finished a step "
                f"within {self.cluster.timeout:g} s.")
        late = self.__dict__.setdefault("_late", {})
        for ref, (i, _, _) in by_stats.items():
            if ref not in ready:
                late[i] = ref
        self.late_replicas += len(calls) - wanted
        return sorted((by_stats[r] for r in ready), key=lambda c: c[0])

    # -- async and ssp -------------------------------------------------------
    def _async_train(self, model, batch):
        worker = self._free_worker()
        while worker is None:
            self._collect(block=True)
            worker = self._free_worker()
        self._seq[worker] += 1
        ref = self.cluster.workers[worker].train_async.remote(
            self._seq[worker], batch, self.dense_keys)
        self._inflight[ref] = worker
        self._collect(block=False)
        return self._logs(None)

    def _free_worker(self):
        busy = set(self._inflight.values())
        free = [w for w in range(self.strategy.num_workers) if w not in busy]
        if self.strategy.mode == "ssp":
            slowest = min(self._clock)
            free = [w for w in free
                    if self._clock[w] - slowest <= self.strategy.staleness]
            free.sort(key=lambda w: (self._clock[w], w))
        return free[0] if free else None

    def _collect(self, block):
        if not self._inflight:
            return
        ready, _ = ray.wait(list(self._inflight), num_returns=1,
                            timeout=self.cluster.timeout if block else 0)
        if block and not ready:
            raise TimeoutError(
                "No parameter-server worker finished a step within "
                f"{self.cluster.timeout:g} s.")
        for ref in ready:
            worker = self._inflight.pop(ref)
            stats = self.cluster.get(ref, "finish an async step")
            self._clock[worker] += 1
            self._advance(stats["applied"])
            self.dropped += stats["dropped"]
            self._merge_states([stats])

    # -- evaluate and predict ------------------------------------------------
    def _fan_out(self, kind, batch):
        refs = []
        for worker, (sub, n) in zip(self.cluster.workers,
                                    _split(batch, len(self.cluster.workers))):
            if n:
                method = worker.test if kind == "test" else worker.predict
                refs.append(method.remote(sub, *self._param_refs))
        return self.cluster.get(refs, f"run a {kind} step")

    # -- logs -----------------------------------------------------------------
    def _merge_states(self, stats):
        model = self.model
        variables = model.metrics_variables
        if stats and len(stats[0]["states"]) != len(variables):
            _build_metrics(model, self._last_batch)
            variables = model.metrics_variables
        for st in stats:
            if len(st["states"]) != len(variables):
                raise RuntimeError(
                    "The replicas' metrics do not match the model's: "
                    f"{len(st['states'])} metric variables against "
                    f"{len(variables)}.")
            for v, value in zip(variables, st["states"]):
                v.assign_add(value)

    def _logs(self, stats):
        logs = self.model.get_metrics_result()
        if stats and stats[0]["logs"] and set(stats[0]["logs"]) != set(logs):
            return self.reduce_logs([st["logs"] for st in stats])
        return logs


def _split(batch, n):
    """`[(sub_batch, size)]`: `batch` cut into `n` contiguous parts (the
    first ones one sample longer when it does not divide)."""
    leaves = [leaf for leaf in tree.flatten(batch) if leaf is not None]
    size = len(leaves[0]) if leaves else 0
    base, extra = divmod(size, n)
    out, start = [], 0
    for i in range(n):
        stop = start + base + (1 if i < extra else 0)
        out.append((tree.map_structure(
            lambda a, a0=start, a1=stop: None if a is None else a[a0:a1],
            batch), stop - start))
        start = stop
    return out


def _build_metrics(model, batch):
    """Build the driver's compiled metrics (their variables receive the
    replicas' states) from one sample of a batch."""
    x, y, _ = unpack_x_y_sample_weight(batch)
    one = tree.map_structure(lambda a: None if a is None else a[:1], x)
    y1 = tree.map_structure(lambda a: None if a is None else a[:1], y)
    with quiet_numpy():
        y_pred = model.predict_step((one,))
    for container in (model._compile_loss, model._compile_metrics):
        if container is not None and not container.built:
            container.build(y1, y_pred)


def _optimizer_blob(optimizer):
    if optimizer is None:
        return None
    return (optimizers.serialize(optimizer),
            dict(object_registration.get_custom_objects()))


def _check_rebuildable(blob):
    """Rebuild the model from its config here first: a model a worker
    cannot rebuild fails before any actor starts, with the reason."""

    def zeros(role, initializer, **kwargs):
        if role == "weight":
            initializer = np.zeros(tuple(kwargs["shape"]),
                                   kwargs.get("dtype") or "float32")
        return Variable(initializer, **kwargs)
    try:
        with weight_factory(zeros):
            serialization_lib.deserialize_keras_object(
                blob["config"], custom_objects=blob["custom_objects"])
    except Exception as error:
        raise ValueError(
            "The model cannot be rebuilt on a parameter-server worker from "
            "its config: give custom layers and models a `get_config()` "
            "that returns their constructor arguments and make their "
            "classes importable or registered "
            "(`@kerasish.saving.register_keras_serializable()`). "
            f"Rebuilding failed with {type(error).__name__}: {error}"
        ) from error
