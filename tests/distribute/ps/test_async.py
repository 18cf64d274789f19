"""async and ssp modes: every update applied exactly once (the shards'
own logs), bounded staleness, and backup workers in sync mode."""
import time

import numpy as np
import pytest

import kerasish
from tests.distribute.ps.test_sync import data, mlp, twins

pytestmark = pytest.mark.timeout(120)


def applied_ids(status):
    return [tuple(i) for i in status["log"]]


@pytest.mark.parametrize("mode,staleness", [("async", None), ("ssp", 1)])
def test_every_batch_applied_exactly_once(strategies, mode, staleness):
    x, y = data(120)
    strategy = strategies(num_workers=3, num_ps=2, mode=mode,
                          staleness=staleness)
    local, remote = twins(mlp, strategy)
    h_local = local.fit(x, y, batch_size=10, epochs=2, verbose=0,
                        shuffle=False)
    h_remote = remote.fit(x, y, batch_size=10, epochs=2, verbose=0,
                          shuffle=False)
    batches = 24
    for status in strategy.runtime.shard_status():
        ids = applied_ids(status)
        # Each (worker, seq) once, and one per batch: a runtime retrying
        # without ids would apply some twice and fail here.
        assert len(ids) == len(set(ids)) == batches
        assert status["iterations"] == batches
        per_worker = {}
        for worker, seq in ids:
            per_worker.setdefault(worker, []).append(seq)
        for seqs in per_worker.values():
            assert seqs == list(range(1, len(seqs) + 1))
    assert int(remote.optimizer.iterations.numpy()) == batches
    # Stale gradients change the path, not where it goes.
    assert abs(h_remote.history["loss"][-1] -
               h_local.history["loss"][-1]) < 0.1


def test_ssp_never_exceeds_its_staleness(strategies):
    x, y = data(120)
    staleness = 1
    strategy = strategies(num_workers=3, num_ps=1, mode="ssp",
                          staleness=staleness)
    strategy._inject = {"delay": {0: 0.03}}     # worker 0 is slow
    with strategy.scope():
        model = mlp()
    model.fit(x, y, batch_size=10, epochs=1, verbose=0)
    (status,) = strategy.runtime.shard_status()
    done = {0: 0, 1: 0, 2: 0}
    for worker, seq in applied_ids(status):
        # Clock seq - 1 started only while every other worker had
        # finished at least seq - 1 - staleness steps.
        for other, count in done.items():
            if other != worker:
                assert count >= seq - 1 - staleness, (worker, seq, done)
        done[worker] = seq
    assert sum(done.values()) == 12 and min(done.values()) >= 1


def test_async_staleness_drops_old_updates(strategies):
    x, y = data(120)
    strategy = strategies(num_workers=3, num_ps=1, mode="async",
                          staleness=0)
    strategy._inject = {"delay": {0: 0.02}}
    with strategy.scope():
        model = mlp()
    model.fit(x, y, batch_size=10, epochs=1, verbose=0)
    (status,) = strategy.runtime.shard_status()
    assert status["dropped"] >= 1
    assert status["dropped"] + len(status["log"]) == 12
    assert int(model.optimizer.iterations.numpy()) == len(status["log"])


def test_backup_worker_does_not_wait_for_the_slow_one(strategies):
    x, y = data(96)
    slow = 0.4
    strategy = strategies(num_workers=3, num_ps=1, backup_workers=1)
    strategy._inject = {"delay": {2: slow}}
    with strategy.scope():
        model = mlp()
    model.fit(x[:24], y[:24], batch_size=24, epochs=1, verbose=0)
    start = time.perf_counter()
    history = model.fit(x, y, batch_size=24, epochs=1, verbose=0)
    elapsed = time.perf_counter() - start
    assert elapsed < 4 * slow       # four steps at the slow pace: 1.6 s
    assert history.history["late_replicas"][-1] >= 1
    (status,) = strategy.runtime.shard_status()
    assert status["log"] == list(range(1, status["version"] + 1))
