"""replica_device_setter: TF1's placement, against TF 2.15's devices
(tests/fixtures/make_tf1_reference.py, device_placement)."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import train
from kerasish.train import VariableOp

CONST = dict(shape=(), type="Const")


def place(device_fn, ops):
    return [device_fn(op) for op in ops]


def basic_ops():
    # TF's order: get_or_create_global_step, a, a constant, b, an add, e.
    return [VariableOp("global_step", (), "int64"), VariableOp("a", (2, 3)),
            VariableOp("c", **CONST), VariableOp("b", (4,)),
            VariableOp("d", (), type="AddV2"), VariableOp("e", ())]


def test_round_robin_over_ps_tasks():
    assert place(train.replica_device_setter(ps_tasks=3), basic_ops()) == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:worker", "/job:ps/task:2",
        "/job:worker", "/job:ps/task:0"]


def test_cluster_gives_the_number_of_tasks():
    cluster = {"ps": ["p0:1", "p1:1"], "worker": ["w0:1"]}
    assert place(train.replica_device_setter(cluster=cluster),
                 basic_ops()) == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:worker", "/job:ps/task:0",
        "/job:worker", "/job:ps/task:1"]

    class Spec:
        def as_dict(self):
            return cluster
    assert train.replica_device_setter(cluster=Spec())(
        VariableOp("a", ())) == "/job:ps/task:0"


def test_worker_and_ps_devices_with_fields():
    device_fn = train.replica_device_setter(
        ps_tasks=2, worker_device="/job:worker/task:1",
        ps_device="/job:ps/device:CPU:0")
    assert place(device_fn, basic_ops()) == [
        "/job:ps/task:0/device:CPU:0", "/job:ps/task:1/device:CPU:0",
        "/job:worker/task:1", "/job:ps/task:0/device:CPU:0",
        "/job:worker/task:1", "/job:ps/task:1/device:CPU:0"]


def merged_ops():
    return [VariableOp("a", (2,), device="/device:GPU:1"),
            VariableOp("c", device="/device:GPU:1", **CONST),
            VariableOp("b", (2,), device="/job:other"),
            VariableOp("f", (2,), device="/job:ps/task:7"),
            VariableOp("g", (2,))]


def test_an_ops_own_device_is_merged_and_spends_its_turn():
    # f's own task wins, but its round-robin turn is spent (g gets 0).
    assert place(train.replica_device_setter(ps_tasks=2), merged_ops()) == [
        "/job:ps/task:0/device:GPU:1", "/job:worker/device:GPU:1",
        "/job:other", "/job:ps/task:7", "/job:ps/task:0"]


def test_merge_devices_false_keeps_a_set_device(caplog):
    device_fn = train.replica_device_setter(ps_tasks=2, merge_devices=False)
    assert place(device_fn, merged_ops()) == [
        "/device:GPU:1", "/device:GPU:1", "/job:other", "/job:ps/task:7",
        "/job:ps/task:0"]


def test_no_ps_task_gives_none():
    assert train.replica_device_setter(ps_tasks=0) is None
    assert train.replica_device_setter(cluster={"worker": ["w:1"]}) is None


def test_custom_strategy_and_ps_ops():
    device_fn = train.replica_device_setter(ps_tasks=4,
                                            ps_strategy=lambda op: 3)
    assert place(device_fn, [VariableOp(n, (2,)) for n in "abc"]) == \
        ["/job:ps/task:3"] * 3
    device_fn = train.replica_device_setter(ps_tasks=2, ps_ops=["Const"])
    assert place(device_fn, basic_ops()) == [
        "/job:worker", "/job:worker", "/job:ps/task:0", "/job:worker",
        "/job:worker", "/job:worker"]
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        train.replica_device_setter(ps_tasks=2, ps_strategy=3)


def test_partitioned_variable_parts_take_turns():
    parts = [VariableOp(f"emb/part_{i}", (4 if i == 0 else 3, 2))
             for i in range(3)] + [VariableOp("q", (2,))]
    assert place(train.replica_device_setter(ps_tasks=2), parts) == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:0",
        "/job:ps/task:1"]


def test_kerasish_variables_are_placed_by_path():
    layer = keras.layers.Dense(2, name="dense")
    layer.build((None, 3))
    device_fn = train.replica_device_setter(ps_tasks=2)
    assert [device_fn(v) for v in layer.weights] == [
        "/job:ps/task:0", "/job:ps/task:1"]
    assert train.ps_task_assignments(layer.weights, 3) == [0, 1]
    with pytest.raises(ValueError, match="Received: op=3"):
        device_fn(3)


def test_greedy_load_balancing_by_bytes():
    sizes = [(1000,), (10,), (10,), (300, 2), (4,)]
    ops = [VariableOp(f"v{i}", s, "float32") for i, s in enumerate(sizes)]
    strategy = train.GreedyLoadBalancingStrategy(
        3, train.byte_size_load_fn)
    device_fn = train.replica_device_setter(ps_tasks=3,
                                            ps_strategy=strategy)
    # Least-loaded task, the lowest index among equal loads.
    assert place(device_fn, ops) == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:2",
        "/job:ps/task:1", "/job:ps/task:2"]
    assert train.ps_task_assignments(
        [(op.name, op.shape, op.dtype) for op in ops], 3,
        train.byte_size_load_fn) == [0, 1, 2, 1, 2]
    assert train.byte_size_load_fn(VariableOp("t", (3, 5), "int64")) == 120
    assert train.byte_size_load_fn(
        VariableOp("s", (), "float16")) == 2
    with pytest.raises(ValueError, match="fully defined shape"):
        train.byte_size_load_fn(VariableOp("u", (None, 2)))


def test_assignments_are_a_pure_function_of_the_variables():
    specs = [("a", (2,), "float32"), ("b", (3,), "float32"),
             ("c", (4,), "float32")]
    assert train.ps_task_assignments(specs, 2) == [0, 1, 0]
    assert train.ps_task_assignments(specs, 2) == [0, 1, 0]
    with pytest.raises(ValueError, match="ps_tasks=0"):
        train.ps_task_assignments(specs, 0)


def test_device_strings_parse_legacy_forms():
    device_fn = train.replica_device_setter(ps_tasks=2)
    assert device_fn(VariableOp("a", (1,), device="/gpu:1")) == \
        "/job:ps/task:0/device:GPU:1"
    assert device_fn(VariableOp("b", (1,), device="/job:ps/replica:2")) == \
        "/job:ps/replica:2/task:1"
    with pytest.raises(ValueError, match="Unknown attribute: 'bogus'"):
        device_fn(VariableOp("c", (1,), device="/bogus"))
    np.testing.assert_equal(train.STANDARD_PS_OPS[:2],
                            ("Variable", "VariableV2"))
