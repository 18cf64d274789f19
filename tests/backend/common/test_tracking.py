"""Attribute tracking (`kerasish.backend.common.tracking`): what a
subclassed layer holds, at any depth and however it got there, is tracked
as Keras 3 does.
Expected weight counts are Keras 3.15's for the same classes."""
import numpy as np
import pytest

import kerasish
from kerasish import layers


def dense(units):
    layer = layers.Dense(units)
    layer.build((None, 4))
    return layer


class Holder(layers.Layer):
    """Runs `body(self)` after `super().__init__()`."""

    def __init__(self, body):
        super().__init__()
        body(self)

    def call(self, x):
        return x


def shapes(layer):
    return [tuple(w.shape) for w in layer.weights]


@pytest.mark.parametrize("body", [
    lambda s: setattr(s, "c", [[dense(2)], [dense(3)]]),
    lambda s: setattr(s, "c", [{"a": dense(2)}, {"b": dense(3)}]),
    lambda s: setattr(s, "c", {"a": [dense(2)], "b": [dense(3)]}),
    lambda s: setattr(s, "c", ([dense(2)], [dense(3)])),
    lambda s: setattr(s, "c", {"a": {"x": dense(2)}, "b": {"y": dense(3)}}),
])
def test_layers_in_nested_containers_are_tracked(body):
    assert shapes(Holder(body)) == [(4, 2), (2,), (4, 3), (3,)]


def test_nested_layers_train():
    class Blocks(kerasish.Model):
        def __init__(self):
            super().__init__()
            self.stages = [[layers.Dense(3)], {"out": layers.Dense(1)}]

        def call(self, x):
            return self.stages[1]["out"](self.stages[0][0](x))

    model = Blocks()
    model.compile("sgd", "mse")
    x = np.ones((4, 2), "float32")
    model(x)
    before = [w.numpy().copy() for w in model.trainable_weights]
    assert len(before) == 4
    model.fit(x, np.zeros((4, 1)), epochs=1, verbose=0)
    after = [w.numpy() for w in model.trainable_weights]
    assert all(not np.array_equal(a, b) for a, b in zip(before, after))


def test_additions_after_assignment_are_tracked():
    def iadd(s):
        s.c = [dense(2)]
        s.c += [dense(3)]
    assert shapes(Holder(iadd)) == [(4, 2), (2,), (4, 3), (3,)]

    def append_list(s):
        s.c = []
        s.c.append([dense(3)])
        s.c[0].append(dense(2))
    assert shapes(Holder(append_list)) == [(4, 3), (3,), (4, 2), (2,)]

    def update(s):
        s.c = {}
        s.c.update(a=[dense(2)])
        s.c.setdefault("b", dense(3))
    assert shapes(Holder(update)) == [(4, 2), (2,), (4, 3), (3,)]

    def variables(s):
        s.c = [kerasish.Variable(np.ones(2, "float32")),
               [kerasish.Variable(np.ones(3, "float32"))]]
    assert shapes(Holder(variables)) == [(2,), (3,)]


@pytest.mark.parametrize("remove", [
    lambda c: c.pop(),
    lambda c: c.remove(c[1]),
    lambda c: c.__delitem__(1),
    lambda c: c.__setitem__(1, dense(5)),
])
def test_removed_list_items_are_untracked(remove):
    def body(s):
        s.c = [dense(2), dense(3)]
        remove(s.c)
    kept = [(4, 2), (2,)]
    layer = Holder(body)
    assert shapes(layer)[:2] == kept and (4, 3) not in shapes(layer)


def test_removed_dict_values_and_cleared_containers_are_untracked():
    def body(s):
        s.c = {"a": dense(2), "b": dense(3)}
        s.c.pop("b")
        s.d = [dense(5)]
        s.d.clear()
        s.e = {"x": dense(6)}
        del s.e["x"]
    assert shapes(Holder(body)) == [(4, 2), (2,)]


def test_attributes_assigned_before_super_init_are_tracked():
    class Early(layers.Layer):
        def __init__(self):
            self.inner = layers.Dense(2)
            self.scale = kerasish.Variable(np.ones(2, "float32"))
            super().__init__()

        def call(self, x):
            return self.inner(x) * self.scale

    layer = Early()
    layer(np.ones((1, 3), "float32"))
    # Keras's order: the layer's own variable, then the sublayer's.
    assert [w.path for w in layer.weights] == [
        "variable", "early/dense/kernel", "early/dense/bias"]

    class EarlyModel(kerasish.Model):
        def __init__(self):
            self.inner = layers.Dense(1)
            super().__init__()

        def call(self, x):
            return self.inner(x)

    model = EarlyModel()
    model.compile("sgd", "mse")
    x = np.ones((4, 3), "float32")
    model(x)
    kernel = model.inner.kernel.numpy().copy()
    model.fit(x, np.zeros((4, 1)), epochs=1, verbose=0)
    assert len(model.trainable_weights) == 2
    assert not np.array_equal(model.inner.kernel.numpy(), kernel)


def test_reassigning_a_tracked_list_keeps_its_identity():
    def body(s):
        s.c = [dense(2)]
        alias = s.c
        s.c += [dense(3)]
        s.same = alias is s.c
    assert Holder(body).same
