"""Starting and stopping Ray, the shard actors and the worker actors.

`address=None` starts Ray in this process (no dashboard) unless it is
already running; `"auto"` or `"ray://host:port"` joins a running cluster
(`ray start --head`). Whatever was started here is stopped by `close()`,
on error and at exit.
"""
import atexit
import contextlib
import os
import socket
import weakref

import ray

from kerasish.distribute.ps.shard import Shard
from kerasish.distribute.ps.worker import Worker

_OPEN = weakref.WeakSet()
_CONNECT_TIMEOUT = 10.0     # seconds to reach a cluster's address


def _close_all():
    for cluster in list(_OPEN):
        cluster.close()


atexit.register(_close_all)


def _import_path():
    """PYTHONPATH for local workers: the folder this kerasish is in first."""
    here = os.path.abspath(__file__)
    for _ in range(4):      # kerasish/distribute/ps/cluster.py
        here = os.path.dirname(here)
    rest = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join([here] + ([rest] if rest else []))


def _probe(address, timeout):
    """Fail fast (within `timeout` seconds) on an address nothing
    listens on, instead of Ray's long retries."""
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(
            "`address` must be None, 'auto', 'host:port' or "
            f"'ray://host:port'. Received: address={address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise ConnectionError(
            f"Cannot reach the Ray cluster at address={address!r} within "
            f"{timeout:g} s ({error}). Start it with `ray start --head` "
            "or pass address=None to run Ray in this process.") from None


class Cluster:
    """The actors of one parameter-server run."""

    def __init__(self, address, timeout, actor_options):
        self.timeout = timeout
        self.actor_options = dict(actor_options)
        self.owns_ray = False
        self.shards = []
        self.workers = []
        self._connect(address)
        _OPEN.add(self)

    def _connect(self, address):
        if ray.is_initialized():
            return
        if address is None:
            # Only this machine's actors talk to it: loopback only.
            # "local": a new instance even if a cluster runs on this
            # machine (plain `ray.init()` would join that one). Its
            # workers import this kerasish, installed or not.
            ray.init(address="local", include_dashboard=False,
                     log_to_driver=False, configure_logging=False,
                     runtime_env={"env_vars": {"PYTHONPATH": _import_path()}})
            self.owns_ray = True
            return
        if address != "auto":
            _probe(address, min(self.timeout, _CONNECT_TIMEOUT))
        try:
            ray.init(address=address, log_to_driver=False,
                     configure_logging=False)
        except ConnectionError as error:
            raise ConnectionError(
                f"Cannot join the Ray cluster at address={address!r}: "
                f"{error}") from None
        self.owns_ray = True

    def start(self, specs, optimizer, max_staleness, blob):
        options = dict(self.actor_options, max_restarts=0)
        shard_cls = ray.remote(Shard)
        worker_cls = ray.remote(Worker)
        self.shards = [shard_cls.options(**options).remote(
            k, spec, optimizer, max_staleness)
            for k, spec in enumerate(specs)]
        self.get([s.ping.remote() for s in self.shards], "start the shards")
        self.workers = [worker_cls.options(**options).remote(
            i, blob, self.shards) for i in range(blob["num_workers"])]
        self.get([w.ping.remote() for w in self.workers],
                 "start the workers")

    def get(self, refs, what):
        """`ray.get` bounded by the timeout, with an error naming what
        was waited for."""
        try:
            return ray.get(refs, timeout=self.timeout)
        except ray.exceptions.GetTimeoutError:
            raise TimeoutError(
                f"The parameter-server runtime waited {self.timeout:g} s to "
                f"{what} and gave up.") from None
        except ray.exceptions.RayTaskError as error:
            cause = error.as_instanceof_cause()
            raise cause from None

    def close(self):
        for actor in self.workers + self.shards:
            with contextlib.suppress(Exception):     # already gone
                ray.kill(actor)
        self.workers, self.shards = [], []
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()
        self.owns_ray = False
        _OPEN.discard(self)
