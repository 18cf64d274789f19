"""`Shard`: one ps task's variables, their optimizer state and updates.

A shard holds plain `Variable`s (by key: the variable's path, with
`/part_K` for a part of a split variable) and a real optimizer built on
its trainable ones, so the update a shard applies is the optimizer's own
(slots, schedules, the exact deferred-row update of embedding tables).

Every update carries an id and is applied once:

* sync: `apply_sync(step, ...)` applies iff `step == version + 1`; an
  older step is a no-op (a retried task), a newer one a gap (an error);
* async and ssp: `push(worker, seq, ...)` applies iff `seq` is above the
  worker's high-water mark.

`log` keeps the ids applied, `digest()` a hash of the variables: the
evidence tests read from the shard itself.
"""
import hashlib
import os

import numpy as np

from kerasish import optimizers
from kerasish.backend.common.variable import Variable
from kerasish.backend.indexed_slices import IndexedSlices


class VersionGapError(RuntimeError):
    """A sync update skipped a step: the shard lost updates."""


class Shard:
    """The state of one ps task (wrapped as a Ray actor by the runtime).

    Args:
        index: The ps task index.
        specs: `[(key, path, value, trainable), ...]` in placement order.
        optimizer: `(config, custom_objects)` of the optimizer, or None.
        max_staleness: async: drop pushes computed on parameters more than
            this many versions old (None: keep all).
    """

    def __init__(self, index, specs, optimizer=None, max_staleness=None):
        self.index = index
        self.vars = {}
        self.trainable = []
        for key, path, value, trainable in specs:
            variable = Variable(np.array(value), trainable=trainable,
                                name="v")
            variable.path = key
            self.vars[key] = variable
            if trainable:
                self.trainable.append(key)
        self.optimizer = None
        if optimizer is not None and self.trainable:
            config, custom_objects = optimizer
            self.optimizer = optimizers.deserialize(
                config, custom_objects=custom_objects)
            self.optimizer.build([self.vars[k] for k in self.trainable])
        self.version = 0
        self.max_staleness = max_staleness
        self.hwm = {}
        self.log = []
        self.dropped = 0

    # -- reads ------------------------------------------------------------
    def ping(self):
        return os.getpid()

    def pull(self, keys):
        """`{key: array}` for `keys` (copies)."""
        return {k: self.vars[k].numpy() for k in keys}

    def pull_versioned(self, keys):
        return self.pull(keys), self.version

    def pull_rows(self, key, ids):
        """Rows `ids` of the table `key`, brought up to date first."""
        ids = np.asarray(ids)
        return np.array(self.vars[key]._rows_source(ids)[ids])

    def optimizer_state(self):
        """`{name: array}` of every optimizer variable."""
        if self.optimizer is None:
            return {}
        return {v.name: v.numpy() for v in self.optimizer.variables}

    def set_optimizer_state(self, state):
        if self.optimizer is None:
            return
        for v in self.optimizer.variables:
            if v.name in state:
                v.assign(state[v.name])

    def assign(self, values):
        """Write `{key: array}` (a driver-side write, not an update)."""
        for key, value in values.items():
            self.vars[key].assign(value)
        return self.version

    def status(self):
        return {"version": self.version, "log": list(self.log),
                "dropped": self.dropped, "hwm": dict(self.hwm),
                "iterations": None if self.optimizer is None else
                int(self.optimizer.iterations.numpy())}

    def digest(self):
        """sha256 over the variables' bytes, in key order."""
        h = hashlib.sha256()
        for key in sorted(self.vars):
            h.update(key.encode())
            h.update(np.ascontiguousarray(self.vars[key].numpy()).tobytes())
        return h.hexdigest()

    # -- updates ----------------------------------------------------------
    def apply_sync(self, step, weights, dense_keys, *parts):
        """Average the parts (one per replica, in replica order, weighted
        by `weights`), apply them as update `step`; returns the dense
        parameters `dense_keys` after it."""
        if step <= self.version:
            return self.pull(dense_keys)        # a retried step: no-op
        if step != self.version + 1:
            raise VersionGapError(
                f"ps shard {self.index} is at version {self.version} and "
                f"received update {step}: updates were lost.")
        self._apply(_average(parts, weights))
        self.version = step
        self.log.append(step)
        return self.pull(dense_keys)

    def push(self, worker, seq, pulled_version, part):
        """Apply one replica's update `(worker, seq)` on arrival (async);
        returns `(applied, version)`."""
        if seq <= self.hwm.get(worker, -1):
            return False, self.version          # a retried push
        self.hwm[worker] = seq
        if self.max_staleness is not None and \
                self.version - pulled_version > self.max_staleness:
            self.dropped += 1
            return False, self.version
        self._apply(_average([part], [1.0]))
        self.version += 1
        self.log.append((worker, seq))
        return True, self.version

    def _apply(self, update):
        grads, assigns = update
        keys = [k for k in self.trainable if k in grads]
        if keys and self.optimizer is not None:
            self.optimizer.apply([grads[k] for k in keys],
                                 [self.vars[k] for k in keys])
        for key, value in assigns.items():
            self.vars[key].assign(value)

    # -- checkpoints ------------------------------------------------------
    def save(self, path):
        """Write this shard's variables, optimizer state, version and
        high-water marks to `path` (a temporary name, then renamed)."""
        arrays = {f"var:{k}": v.numpy() for k, v in self.vars.items()}
        arrays.update({f"opt:{k}": v
                       for k, v in self.optimizer_state().items()})
        arrays["meta:version"] = np.asarray(self.version)
        arrays["meta:hwm"] = np.asarray(
            sorted(self.hwm.items()), dtype=np.int64).reshape(-1, 2)
        tmp = f"{path}.tmp-{os.getpid()}"
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return self.version

    def restore(self, path):
        with np.load(path, allow_pickle=False) as data:
            for name in data.files:
                kind, _, key = name.partition(":")
                if kind == "var":
                    self.vars[key].assign(data[name])
            self.set_optimizer_state({
                name[4:]: data[name] for name in data.files
                if name.startswith("opt:")})
            self.version = int(data["meta:version"])
            self.hwm = {int(w): int(s) for w, s in data["meta:hwm"]}
        return self.version


def _average(parts, weights):
    """`({key: gradient}, {key: value})`: the replicas' gradients and
    assigned values, each a weighted sum in replica order. Row gradients
    (`(ids, rows)`) stay rows: ids concatenated, rows weighted."""
    dense, rows, assigns = {}, {}, {}
    for part, weight in zip(parts, weights):
        w = np.float32(weight) if weight != 1.0 else None
        for key, g in part["dense"].items():
            g = g if w is None else g * w.astype(g.dtype)
            dense[key] = g if key not in dense else dense[key] + g
        for key, (ids, values, shape) in part["rows"].items():
            values = values if w is None else values * w.astype(values.dtype)
            rows.setdefault(key, ([], [], shape))
            rows[key][0].append(ids)
            rows[key][1].append(values)
        for key, value in part["assign"].items():
            value = value if w is None else value * w.astype(value.dtype)
            assigns[key] = value if key not in assigns else \
                assigns[key] + value
    grads = dict(dense)
    for key, (ids, values, shape) in rows.items():
        sliced = IndexedSlices(np.concatenate(ids), np.concatenate(values),
                               shape)
        # A replica that pushed it dense: add the rows densely.
        grads[key] = sliced + grads[key] if key in grads else sliced
    return grads, assigns
