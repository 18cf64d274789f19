"""`replica_device_setter`: TF1's placement of variables on ps tasks.

Only the placement rule, as TF 1.x / `tf.compat.v1` decides it: a device
function maps each op to a device string. Ops whose type is in `ps_ops`
(variables, by default) go to the `ps` job, the task chosen by
`ps_strategy` (round-robin in creation order unless given; TF's contrib
`GreedyLoadBalancingStrategy` with `byte_size_load_fn` balances bytes);
every other op goes to `worker_device`. A device already set on the op is
merged in (its fields win) or, with `merge_devices=False`, kept as is.

Without a graph, the "op" is a `VariableOp(name, shape, dtype)` (or a
kerasish `Variable`, read as one). The runtime places a model's variables
with `ps_task_assignments`, a pure function of their names, shapes, dtypes
and creation order. As in TF, optimizer slots are not placed by the
device function (TF creates them colocated with their variable): they
live on their variable's task.
"""
import collections
import re

import numpy as np

from kerasish.distribute.placement import (  # noqa: F401 - re-exported
    GreedyLoadBalancingStrategy, RoundRobinStrategy, byte_size_load_fn)

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable",
                   "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2",
                   "MutableDenseHashTable", "MutableDenseHashTableV2",
                   "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp",
                   "ResourceConditionalAccumulator",
                   "DecisionTreeResource")


class VariableOp(collections.namedtuple(
        "VariableOp", ("name", "shape", "dtype", "type", "device"))):
    """What a device function places: a variable's name, shape, dtype, op
    type (TF2's `"VarHandleOp"` by default) and requested device.

    Example:

    >>> VariableOp("dense/kernel", (3, 2), "float32").type
    'VarHandleOp'
    """

    __slots__ = ()

    def __new__(cls, name, shape, dtype="float32", type="VarHandleOp",
                device=""):
        return super().__new__(cls, name, tuple(shape), np.dtype(dtype).name
                               if dtype != "bfloat16" else dtype, type,
                               device or "")


def as_op(op):
    """A `VariableOp` for a kerasish `Variable` (by its path); other ops
    (anything with `type` and `device`) are returned unchanged."""
    if hasattr(op, "type") and hasattr(op, "device"):
        return op
    if hasattr(op, "path") and hasattr(op, "shape"):
        return VariableOp(op.path, op.shape, op.dtype)
    raise ValueError("A device function places ops: expected a VariableOp "
                     f"or a Variable. Received: op={op!r}")


# -- device strings ----------------------------------------------------------
_FIELDS = ("job", "replica", "task", "device_type", "device_index")


def _parse(spec):
    """TF's `DeviceSpec.from_string`: `/job:ps/task:1/device:CPU:0`
    (legacy `/cpu:0` and `/gpu:1` too) to a dict of the set fields."""
    out = {}
    for part in (spec or "").split("/"):
        if not part:
            continue
        key, _, rest = part.partition(":")
        low = key.lower()
        if low in ("job", "replica", "task") and rest:
            out[low] = rest if low == "job" else int(rest)
        elif low == "device":
            kind, _, index = rest.partition(":")
            out["device_type"] = kind.upper()
            if index and index != "*":
                out["device_index"] = int(index)
        elif low in ("cpu", "gpu") and re.fullmatch(r"\d+|\*", rest):
            out["device_type"] = low.upper()
            if rest != "*":
                out["device_index"] = int(rest)
        else:
            raise ValueError(f"Unknown attribute: '{part}' in '{spec}'. "
                             "Expected a device string such as "
                             "'/job:ps/task:0/device:CPU:0'.")
    return out


def _to_string(fields):
    out = ""
    for key in ("job", "replica", "task"):
        if key in fields:
            out += f"/{key}:{fields[key]}"
    if "device_type" in fields:
        out += f"/device:{fields['device_type']}:" + str(
            fields.get("device_index", "*"))
    return out


# -- strategies ------------------------------------------------------------
# TF1's ps strategies are the parameter-server runtime's placement rules:
# one implementation (kerasish/distribute/placement.py) for both.
_RoundRobinStrategy = RoundRobinStrategy


# -- the device function -----------------------------------------------------
class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices,
                 ps_ops, ps_strategy):
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op):
        """The device string of `op`."""
        op = as_op(op)
        if not self._merge_devices and op.device:
            return op.device
        current = _parse(op.device)
        if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
            ps = _parse(self._ps_device)
            if ps.get("job") and current.get("job") in (None, ps["job"]):
                # Asked even when the op's own task wins below: the
                # round-robin turn is spent, as in TF.
                ps["task"] = self._ps_strategy(op)
            return _to_string({**ps, **current})
        return _to_string({**_parse(self._worker_device), **current})


def replica_device_setter(ps_tasks=0, ps_device="/job:ps",
                          worker_device="/job:worker", merge_devices=True,
                          cluster=None, ps_ops=None, ps_strategy=None):
    """A device function placing variables on ps tasks (TF1's).

    Args:
        ps_tasks: Number of ps tasks (ignored with `cluster`). Defaults
            to 0.
        ps_device: Device of the ps job (`""`: no ps job). Defaults to
            `"/job:ps"`.
        worker_device: Device of the other ops. Defaults to
            `"/job:worker"`.
        merge_devices: Merge an op's own device into the choice (its
            fields win); False keeps a set device unchanged. Defaults to
            True.
        cluster: `{"ps": [...], "worker": [...]}` or an object with
            `as_dict()` (a `ClusterSpec`); the ps job's size gives
            `ps_tasks`.
        ps_ops: Op types placed on ps (default `STANDARD_PS_OPS`).
        ps_strategy: `fn(op) -> task index` (default: round-robin in
            creation order).

    Returns:
        `device_fn(op) -> str`, or None when there is no ps task (as TF).

    Example:

    >>> device_fn = replica_device_setter(ps_tasks=2)
    >>> [device_fn(VariableOp(name, (2,))) for name in "abc"]
    ['/job:ps/task:0', '/job:ps/task:1', '/job:ps/task:0']
    >>> device_fn(VariableOp("c", (), type="Const"))
    '/job:worker'
    """
    if cluster is not None:
        spec = cluster.as_dict() if hasattr(cluster, "as_dict") else cluster
        if not isinstance(spec, dict):
            raise TypeError("cluster must be a dictionary or a ClusterSpec. "
                            f"Received: cluster={cluster!r}")
        job = _parse(ps_device).get("job")
        if not spec.get(job):
            return None
        ps_tasks = len(spec[job])
    if not ps_tasks:
        return None
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    ps_ops = list(STANDARD_PS_OPS) if ps_ops is None else list(ps_ops)
    return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device,
                                 merge_devices, ps_ops,
                                 ps_strategy).device_function


def ps_task_assignments(variables, ps_tasks, load_fn=None):
    """The ps task of each variable, in creation order: round-robin, or
    greedy by `load_fn` (`GreedyLoadBalancingStrategy`). A pure function of
    the variables' names, shapes, dtypes and order.

    Args:
        variables: `VariableOp`s, `Variable`s or `(name, shape, dtype)`
            tuples, in creation order (slots excluded: they follow their
            variable).
        ps_tasks: Number of ps tasks (positive).
        load_fn: None for round-robin, else e.g. `byte_size_load_fn`.

    Returns:
        A list of task indices.

    Example:

    >>> variables = [("w", (1000,), "float32"), ("b", (10,), "float32"),
    ...              ("v", (10,), "float32")]
    >>> ps_task_assignments(variables, 2, byte_size_load_fn)
    [0, 1, 1]
    >>> ps_task_assignments(variables, 2)
    [0, 1, 0]
    """
    if not isinstance(ps_tasks, int) or ps_tasks < 1:
        raise ValueError("ps_task_assignments expected a positive number of "
                         f"ps tasks. Received: ps_tasks={ps_tasks!r}")
    strategy = _RoundRobinStrategy(ps_tasks) if load_fn is None else \
        GreedyLoadBalancingStrategy(ps_tasks, load_fn)
    ops = [VariableOp(*v) if isinstance(v, tuple) and not
           isinstance(v, VariableOp) else as_op(v) for v in variables]
    return [strategy(op) for op in ops]
