"""Adam's grouped update of small variables (`FlatSlots`) gives the same
numbers as the update one variable at a time."""
import numpy as np
import pytest

import kerasish
from kerasish.optimizers import flat_slots
from kerasish.optimizers.flat_slots import FlatSlots

SHAPES = [(3,), (4, 5), (7,), (300, 80), (2, 2, 3)]   # one large variable


def _variables(dtypes=("float32",) * len(SHAPES)):
    rng = np.random.default_rng(0)
    return [kerasish.Variable(rng.standard_normal(shape).astype(dtype))
            for shape, dtype in zip(SHAPES, dtypes)]


def _gradients(variables, step):
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(v.shape).astype(v.dtype) for v in variables]


def _train(monkeypatch, small, dtypes=("float32",) * len(SHAPES), steps=5,
           between=None):
    monkeypatch.setattr(flat_slots, "SMALL", small)
    variables = _variables(dtypes)
    optimizer = kerasish.optimizers.Adam(learning_rate=0.01)
    for step in range(steps):
        optimizer.apply(_gradients(variables, step), variables)
        if between is not None:
            between(optimizer, step)
    return variables, optimizer


def _same(a, b):
    return all(np.array_equal(x.numpy(), y.numpy()) for x, y in zip(a, b))


def test_grouped_update_equals_one_variable_at_a_time(monkeypatch):
    grouped, opt = _train(monkeypatch, small=16384)
    single, opt_single = _train(monkeypatch, small=0)
    assert len(opt._flat_groups) == 1            # the four small ones
    assert "_flat_groups" not in opt_single.__dict__
    assert _same(grouped, single)
    assert _same(opt.variables, opt_single.variables)


def test_groups_are_per_dtype(monkeypatch):
    dtypes = ("float32", "float16", "float32", "float32", "float16")
    grouped, opt = _train(monkeypatch, small=16384, dtypes=dtypes)
    single, _ = _train(monkeypatch, small=0, dtypes=dtypes)
    assert len(opt._flat_groups) == 2
    assert [v.dtype for v in grouped] == [np.dtype(d) for d in dtypes]
    assert _same(grouped, single)


def test_slot_values_replaced_between_steps_are_used(monkeypatch):
    # As a stateless scope does: the slot's value is swapped for another
    # array; the group is laid out again from the current values.
    def swap(optimizer, step):
        if step == 1:
            m = optimizer._momentums[0]
            m._value = np.full(m.shape, 0.5, m.dtype)

    grouped, opt = _train(monkeypatch, small=16384, between=swap)
    single, _ = _train(monkeypatch, small=0, between=swap)
    assert _same(grouped, single)
    assert opt._flat_groups[next(iter(opt._flat_groups))].linked()


def test_slot_assign_writes_into_the_group(monkeypatch):
    def assign(optimizer, step):
        if step == 2:
            optimizer._velocities[2].assign(np.ones(SHAPES[2], "float32"))

    grouped, _ = _train(monkeypatch, small=16384, between=assign)
    single, _ = _train(monkeypatch, small=0, between=assign)
    assert _same(grouped, single)


def test_slot_arrays_held_elsewhere_are_not_moved(monkeypatch):
    # An estimator's variable store shares slot arrays between the
    # variables it creates for every batch: they must stay where they are.
    monkeypatch.setattr(flat_slots, "SMALL", 16384)
    variables = _variables()
    optimizer = kerasish.optimizers.Adam(learning_rate=0.01)
    optimizer.build(variables)
    held = [m._value for m in optimizer._momentums]
    for step in range(5):
        optimizer.apply(_gradients(variables, step), variables)
    single, _ = _train(monkeypatch, small=0)
    assert _same(variables, single)
    for array, m in zip(held, optimizer._momentums):
        assert m._value is array            # updated in place, as before
    assert not optimizer.__dict__.get("_flat_groups")


def test_groups_do_not_pile_up_when_variables_change(monkeypatch):
    monkeypatch.setattr(flat_slots, "SMALL", 16384)
    optimizer = kerasish.optimizers.Adam()
    first, second = _variables(), _variables()
    optimizer.build(first + second)
    for step in range(3):
        optimizer.apply(_gradients(first, step), first)
        optimizer.apply(_gradients(second, step), second)
    assert len(optimizer._flat_groups) == 1


def test_a_copied_optimizer_lays_its_group_out_again(monkeypatch):
    import copy

    def train(small, copy_at=2, steps=5):
        monkeypatch.setattr(flat_slots, "SMALL", small)
        variables = _variables()
        optimizer = kerasish.optimizers.Adam(learning_rate=0.01)
        for step in range(steps):
            if step == copy_at:         # the copy goes on, alone
                optimizer = copy.deepcopy(optimizer)
            optimizer.apply(_gradients(variables, step), variables)
        return variables, optimizer

    grouped, _ = train(16384)
    single, _ = train(0)
    assert _same(grouped, single)


def test_amsgrad_and_sparse_gradients_take_the_single_path(monkeypatch):
    monkeypatch.setattr(flat_slots, "SMALL", 16384)
    variables = _variables()
    optimizer = kerasish.optimizers.Adam(amsgrad=True)
    optimizer.apply(_gradients(variables, 0), variables)
    assert "_flat_groups" not in optimizer.__dict__


def test_flat_slots_layout():
    a, b = kerasish.Variable(np.zeros((2, 3))), kerasish.Variable(np.ones(4))
    ma = kerasish.Variable(np.arange(6.0).reshape(2, 3))
    mb = kerasish.Variable(np.arange(4.0) + 10)
    group = FlatSlots([a, b], [[ma, mb]])
    np.testing.assert_array_equal(group.slots[0],
                                  np.r_[np.arange(6.0), np.arange(4.0) + 10])
    assert ma._value.base is group.slots[0] and group.linked()
    g = group.gather([np.full((2, 3), 2.0), np.full(4, 3.0)])
    np.testing.assert_array_equal(g, [2.0] * 6 + [3.0] * 4)
    group.subtract(np.arange(10.0))
    np.testing.assert_array_equal(a.numpy(), -np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(b.numpy(), 1 - np.arange(6.0, 10.0))
    mb._value = mb._value.copy()
    assert not group.linked()


@pytest.mark.parametrize("size, small", [(10, True), (16384, True),
                                         (16385, False)])
def test_is_small(size, small):
    v = kerasish.Variable(np.zeros(size, "float32"))
    assert flat_slots.is_small(np.zeros(size, "float32"), v) is small
