import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, Variable, ops


def test_gradient_of_reused_variable():
    x = Variable(3.0)
    with GradientTape() as tape:
        y = x * x + x
    assert float(tape.gradient(y, x)) == 7.0


def test_sources_as_list_tuple_and_dict():
    a, b = Variable([1.0, 2.0]), Variable([3.0])
    with GradientTape(persistent=True) as tape:
        y = ops.sum(a * 2.0) + ops.sum(b * b)
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_allclose(ga.numpy(), [2, 2])
    np.testing.assert_allclose(gb.numpy(), [6])
    g = tape.gradient(y, {"a": a, "b": b})
    assert set(g) == {"a", "b"}
    assert isinstance(tape.gradient(y, (a,)), tuple)


def test_unconnected_source_gives_none_or_zero():
    a, b = Variable(1.0), Variable(2.0)
    with GradientTape(persistent=True) as tape:
        y = a * 3.0
    assert tape.gradient(y, b) is None
    assert float(tape.gradient(y, b, unconnected_gradients="zero")) == 0


def test_non_persistent_tape_can_be_used_once():
    x = Variable(1.0)
    with GradientTape() as tape:
        y = x * 2
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)


def test_constants_need_watch_and_intermediates_are_sources():
    c = ops.convert_to_tensor([1.0, 2.0])
    with GradientTape(persistent=True) as tape:
        tape.watch(c)
        h = c * c
        y = ops.sum(h * 3.0)
    np.testing.assert_allclose(tape.gradient(y, c).numpy(), [6, 12])
    np.testing.assert_allclose(tape.gradient(y, h).numpy(), [3, 3])


def test_unwatched_constant_has_no_gradient():
    c = ops.convert_to_tensor([1.0])
    with GradientTape() as tape:
        y = c * 2
    assert tape.gradient(y, c) is None


def test_non_trainable_variable_is_not_watched_automatically():
    v = Variable(1.0, trainable=False)
    with GradientTape() as tape:
        y = v * 2
    assert tape.gradient(y, v) is None


def test_output_gradients_and_nonscalar_target():
    x = Variable([1.0, 2.0])
    with GradientTape(persistent=True) as tape:
        y = x * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2, 4])
    g = tape.gradient(y, x, output_gradients=np.array([1.0, 0.5]))
    np.testing.assert_allclose(g.numpy(), [2, 2])


def test_nested_tapes_record_independently():
    x = Variable(2.0)
    with GradientTape() as outer:
        with GradientTape() as inner:
            y = x * x
        gy = inner.gradient(y, x)
        z = y * 3.0
    assert float(gy) == 4.0
    assert float(outer.gradient(z, x)) == 12.0


def test_stop_recording_and_stop_gradient():
    x = Variable(2.0)
    with GradientTape() as tape:
        with tape.stop_recording():
            a = x * 5
        b = ops.stop_gradient(x * 5) * x
        y = a + b
    assert float(tape.gradient(y, x)) == 10.0


def test_long_chain_has_no_recursion_limit():
    x = Variable(1.0)
    with GradientTape() as tape:
        y = x
        for _ in range(5000):
            y = y * 1.0001
    assert abs(float(tape.gradient(y, x)) - 1.0001 ** 5000) < 1e-2


def test_no_graph_kept_outside_a_tape():
    import gc
    import weakref
    x = Variable([1.0, 2.0])
    y = x * 2
    ref = weakref.ref(y)
    del y
    gc.collect()
    assert ref() is None


def test_watched_variables_and_int_sources():
    v = Variable(1.0)
    with GradientTape() as tape:
        y = v * 2
    assert tape.watched_variables() == [v]
    iv = Variable([1, 2], dtype="int32")
    with GradientTape() as tape:
        tape.watch(iv)
        z = ops.cast(iv, "float32") * 2
    assert tape.gradient(z, iv) is None


def test_watch_rejects_non_tensors():
    with GradientTape() as tape:
        with pytest.raises(ValueError, match="expects tensors"):
            tape.watch("nope")


def test_ops_on_a_list_of_tensors_keep_their_gradients():
    # `loss + ops.sum(model.losses)`: the list is stacked differentiably,
    # as Keras's backends do (the gradient of each tensor survives).
    a, b = kerasish.Variable(2.0), kerasish.Variable(3.0)
    with kerasish.GradientTape() as tape:
        total = kerasish.ops.sum([a * a, b * b]) + kerasish.ops.mean(
            kerasish.ops.convert_to_tensor([[a, 1.0]]))
    grads = tape.gradient(total, [a, b])
    assert float(total) == 13.0 + 1.5
    assert [float(g) for g in grads] == [4.5, 6.0]


def test_second_order_gradients_raise_instead_of_silently_missing():
    # TF differentiates an inner tape's gradient again; kerasish's VJPs are
    # plain numpy, so it says so rather than returning None (a WGAN-GP
    # would otherwise train without its penalty).
    v = kerasish.Variable(2.0)
    with GradientTape() as outer:
        with GradientTape() as inner:
            y = v * v * v
        dy = inner.gradient(y, v)
        penalty = dy * dy
    assert float(dy) == 12.0
    with pytest.raises(NotImplementedError, match="second-order"):
        outer.gradient(penalty, v)
    with GradientTape() as outer:
        with GradientTape() as inner:
            y = v * v * v
        dy = inner.gradient(y, v)
        loss = ops.stop_gradient(dy) * v + y
    assert float(outer.gradient(loss, v)) == 24.0    # 12 + 3 * v**2
    # An inner gradient of values the outer tape does not track is fine.
    x = kerasish.ops.convert_to_tensor(3.0)
    with GradientTape() as outer:
        with GradientTape() as inner:
            inner.watch(x)
            z = x * x
        dz = inner.gradient(z, x)
        out = v * dz
    assert float(outer.gradient(out, v)) == 6.0
