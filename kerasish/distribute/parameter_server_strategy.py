"""`ParameterServerStrategy`: train on ps shards and workers (Ray actors).

    strategy = kerasish.distribute.ParameterServerStrategy(
        num_workers=3, num_ps=2)
    with strategy.scope():
        model = ...              # its variables are placed on the shards
        model.compile(...)
    model.fit(x, y, batch_size=96)    # 32 samples per worker and step

The script is otherwise unchanged: callbacks, the progress bar, History,
`evaluate`, `predict` and saving work as locally, and `sync` mode gives
the numbers of a local run with the same `batch_size`. Ray is imported
when the strategy is made (`pip install "kerasish[distributed]"`).
"""
import contextlib

import numpy as np

from kerasish.distribute import partitioners as partitioners_lib
from kerasish.distribute.placement import make_ps_strategy
from kerasish.distribute.sharded_variable import ShardedVariable
from kerasish.distribute.strategy import Strategy
from kerasish.backend.common.variable import weight_factory

_MODES = ("sync", "async", "ssp")


class ParameterServerStrategy(Strategy):
    """Variables on parameter-server shards, steps on worker replicas.

    Args:
        num_workers: Number of worker replicas. Defaults to 2.
        num_ps: Number of ps shards. Defaults to 1.
        mode: `"sync"` (the default: every step averages the replicas'
            gradients, in replica order, and applies them once),
            `"async"` (each replica's update is applied on arrival) or
            `"ssp"` (async, no replica more than `staleness` steps ahead
            of the slowest).
        staleness: `"ssp"`: the largest clock gap (required). `"async"`:
            drop updates computed on parameters more than this many
            updates old (`None`, the default, keeps all). Not allowed
            with `"sync"`.
        backup_workers: `"sync"`: apply the first `num_workers -
            backup_workers` replicas to finish each step and drop the
            others (TF1's `SyncReplicasOptimizer` with
            `replicas_to_aggregate < total_num_replicas`). Defaults to 0.
        variable_partitioner: A partitioner (`kerasish.distribute.
            partitioners`) splitting large variables by rows over the
            shards, or None (the default).
        placement: `"round_robin"` (the default; TF1's
            `replica_device_setter` order), `"greedy"` (least bytes
            first, TF1's `GreedyLoadBalancingStrategy`) or a callable
            `placement(variable) -> task`.
        address: None (the default) runs Ray in this process; `"auto"`,
            `"host:port"` or `"ray://host:port"` joins a running cluster.
        sparse_embeddings: Pull `Embedding` tables by the rows a batch
            reads and push row gradients (the default, `True`), or move
            them whole like other variables.
        timeout: Seconds any wait may take before a clear error.
            Defaults to 300.
        actor_options: Ray actor options for the shards and workers.
            Defaults to `{"num_cpus": 0}`.

    Example:

    >>> import kerasish
    >>> kerasish.distribute.ParameterServerStrategy(
    ...     num_workers=2, mode="sync", staleness=2)
    Traceback (most recent call last):
    ...
    ValueError: `staleness` bounds the "async" and "ssp" modes; "sync" mode has none. Received: mode='sync', staleness=2
    """

    def __init__(self, num_workers=2, num_ps=1, mode="sync", staleness=None,
                 backup_workers=0, variable_partitioner=None,
                 placement="round_robin", address=None,
                 sparse_embeddings=True, timeout=300.0, actor_options=None):
        self.num_workers = _positive_int("num_workers", num_workers)
        self.num_ps = _positive_int("num_ps", num_ps)
        self.mode = _checked_mode(mode, staleness)
        self.staleness = staleness
        self.backup_workers = _checked_backup(backup_workers, num_workers,
                                              mode)
        self.variable_partitioner = variable_partitioner
        self._ps_strategy = make_ps_strategy(placement, self.num_ps)
        self.placement = placement
        if address is not None and not isinstance(address, str):
            raise ValueError("`address` must be None or a string. "
                             f"Received: address={address!r}")
        self.address = address
        self.sparse_embeddings = bool(sparse_embeddings)
        if not timeout or timeout <= 0:
            raise ValueError("`timeout` must be a positive number of "
                             f"seconds. Received: timeout={timeout!r}")
        self.timeout = float(timeout)
        self.actor_options = {"num_cpus": 0} if actor_options is None \
            else dict(actor_options)
        self._created = 0
        # lazy: optional dependency (Ray), imported when a strategy is made
        from kerasish.distribute.ps.runtime import ParameterServerRuntime
        super().__init__(ParameterServerRuntime(self))

    @contextlib.contextmanager
    def scope(self):
        """Variables made in the block live on the shards; models compiled
        in it train through this strategy."""
        with super().scope(), weight_factory(self._make_variable):
            yield self

    @property
    def num_replicas_in_sync(self):
        """Replicas whose gradients each update averages (1 when each
        replica updates on its own)."""
        if self.mode == "sync":
            return self.num_workers - self.backup_workers
        return 1

    def shutdown(self):
        """Stop the actors (and Ray, when this strategy started it)."""
        self.runtime.shutdown()

    def _make_variable(self, role, initializer, **kwargs):
        if role != "weight":
            return ShardedVariable(initializer, **kwargs)
        variable = ShardedVariable(initializer, **kwargs)
        parts = partitioners_lib.partition_count(
            self.variable_partitioner, variable.shape, variable.dtype)
        ranges = partitioners_lib.row_ranges(variable.shape[0], parts) \
            if parts > 1 else [(0, variable.shape[0] if variable.shape
                                else 0)]
        variable.parts = [
            (a, b, int(self._ps_strategy(
                (((b - a),) + tuple(variable.shape[1:]), variable.dtype))))
            for a, b in ranges]
        variable.creation_index = self._created
        self._created += 1
        return variable


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or value < 1:
        raise ValueError(f"`{name}` must be a positive int. "
                         f"Received: {name}={value!r}")
    return int(value)


def _checked_mode(mode, staleness):
    if mode not in _MODES:
        raise ValueError(f"`mode` must be one of {_MODES}. "
                         f"Received: mode={mode!r}")
    if mode == "sync" and staleness is not None:
        raise ValueError(
            '`staleness` bounds the "async" and "ssp" modes; "sync" mode '
            f"has none. Received: mode={mode!r}, staleness={staleness!r}")
    if mode == "ssp" and staleness is None:
        raise ValueError(
            '`mode="ssp"` needs `staleness`, the largest number of steps a '
            "worker may run ahead of the slowest. Received: staleness=None")
    if staleness is not None and (
            isinstance(staleness, bool) or
            not isinstance(staleness, (int, np.integer)) or staleness < 0):
        raise ValueError("`staleness` must be an int >= 0. "
                         f"Received: staleness={staleness!r}")
    return mode


def _checked_backup(backup_workers, num_workers, mode):
    if isinstance(backup_workers, bool) or not isinstance(
            backup_workers, (int, np.integer)) or backup_workers < 0:
        raise ValueError("`backup_workers` must be an int >= 0. "
                         f"Received: backup_workers={backup_workers!r}")
    if backup_workers and mode != "sync":
        raise ValueError(
            '`backup_workers` applies to mode="sync" only. Received: '
            f"mode={mode!r}, backup_workers={backup_workers}")
    if backup_workers >= num_workers:
        raise ValueError(
            "`backup_workers` must be smaller than `num_workers` (at least "
            "one replica's gradients make each step). Received: "
            f"backup_workers={backup_workers}, num_workers={num_workers}")
    return int(backup_workers)
