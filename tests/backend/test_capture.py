import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, Variable, ops
from kerasish.backend import shape as S
from kerasish.backend import capture as T
from kerasish.backend.tensor import Tensor


def t(value):
    return ops.convert_to_tensor(np.asarray(value, "float32"))


def _mlp(w, b):
    def f(x):
        return ops.sum(ops.relu(ops.matmul(x, w) + b))
    return f


def test_replay_matches_eager_and_reads_variables_live():
    w = Variable(np.arange(6, dtype="float32").reshape(3, 2) - 2)
    b = Variable([0.5, -1.0])
    f = _mlp(w, b)
    out, trace = T.capture(f, [t([[1.0, 2.0, 3.0]])])
    assert trace.escaped is None
    assert float(out) == float(f(t([[1.0, 2.0, 3.0]])))
    x = t([[0.5, -1.0, 2.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(trace.replay([x]).numpy(), f(x).numpy())
    w.assign(np.ones((3, 2), "float32"))        # the replay sees new weights
    np.testing.assert_array_equal(trace.replay([x]).numpy(), f(x).numpy())


def test_replay_records_on_the_tape_like_eager():
    w = Variable([[1.0, -2.0], [0.5, 3.0]])
    b = Variable([0.1, 0.2])
    f = _mlp(w, b)
    _, trace = T.capture(f, [t([[1.0, 1.0]])])
    x = t([[2.0, -1.0], [0.5, 0.25]])
    with GradientTape() as tape:
        eager = f(x)
    g_eager = tape.gradient(eager, [w, b])
    with GradientTape() as tape:
        replayed = trace.replay([x])
    g_replay = tape.gradient(replayed, [w, b])
    for a, c in zip(g_eager, g_replay):
        np.testing.assert_array_equal(a.numpy(), c.numpy())


def test_metadata_reads_do_not_escape():
    def f(x):
        n = len(x) + x.shape[-1] + x.ndim + x.size
        assert x.dtype == np.float32
        return x * float(n)
    _, trace = T.capture(f, [t([[1.0, 2.0]])])
    assert trace.escaped is None
    np.testing.assert_array_equal(trace.replay([t([[3.0, 4.0]])]).numpy(),
                                  [[3.0 * 7, 4.0 * 7]])


@pytest.mark.parametrize("read", [
    lambda x: float(ops.sum(x)),
    lambda x: np.asarray(x).sum(),
    lambda x: x.numpy().sum(),
    lambda x: bool(ops.sum(x) > 0),
    lambda x: x._value.sum(),
])
def test_data_read_by_python_escapes(read):
    def f(x):
        return x * read(x)
    out, trace = T.capture(f, [t([1.0, 2.0])])
    np.testing.assert_array_equal(out.numpy(), f(t([1.0, 2.0])).numpy())
    assert "read outside the primitives" in trace.escaped


def test_variable_read_or_write_escapes():
    v = Variable([1.0, 2.0])
    _, trace = T.capture(lambda x: x * np.asarray(v), [t([1.0, 1.0])])
    assert "read outside" in trace.escaped
    _, trace = T.capture(lambda x: (v.assign([3.0, 4.0]), x * v)[1],
                         [t([1.0, 1.0])])
    assert trace.escaped is not None
    _, trace = T.capture(lambda x: (v.assign_add([1.0, 1.0]), x)[1],
                         [t([1.0, 1.0])])
    assert trace.escaped is not None


def test_random_draws_are_replayed_from_their_generator():
    def f(x, gen):
        noisy = x + kerasish.random.normal((2,), seed=gen)
        return kerasish.random.dropout(noisy, 0.5, seed=gen)

    gen = kerasish.random.SeedGenerator(3)
    _, trace = T.capture(lambda x: f(x, gen), [t([1.0, 2.0])])
    assert trace.escaped is None
    twin = kerasish.random.SeedGenerator(3)
    f(t([1.0, 2.0]), twin)                        # the captured step
    for x in ([0.5, -1.0], [3.0, 4.0]):           # fresh draws each replay
        np.testing.assert_array_equal(trace.replay([t(x)]).numpy(),
                                      f(t(x), twin).numpy())
        with GradientTape():                      # also tensor by tensor
            np.testing.assert_array_equal(trace.replay([t(x)]).numpy(),
                                          f(t(x), twin).numpy())


def test_other_random_sources_escape():
    from kerasish.backend.random import make_rng
    _, trace = T.capture(
        lambda x: x + float(make_rng(None).random()), [t([0.0])])
    assert trace.escaped == "a random draw inside the step"
    _, trace = T.capture(lambda x: x + np.random.rand(), [t([0.0])])
    assert "global random state" in trace.escaped


def test_autocast_escapes():
    from kerasish.backend import autocast
    w = Variable([1.0, 2.0])

    def f(x):
        with autocast.scope("float16"):
            return x * w
    _, trace = T.capture(f, [t([1.0, 1.0])])
    assert "mixed-precision" in trace.escaped


def test_constants_lists_and_masks_are_replayed():
    def f(x):
        y = ops.concatenate([x, x * 2.0, ops.ones((1, 2))], axis=0)
        y._keras_mask = ops.greater(ops.sum(y, axis=-1), 2.0)
        return {"y": y, "rows": ops.sum(y, axis=-1)}
    _, trace = T.capture(f, [t([[1.0, 1.0]])])
    assert trace.escaped is None
    out = trace.replay([t([[0.5, 0.25]])])
    np.testing.assert_array_equal(out["y"].numpy(),
                                  [[0.5, 0.25], [1.0, 0.5], [1.0, 1.0]])
    np.testing.assert_array_equal(out["y"]._keras_mask.numpy(),
                                  [False, False, False])
    np.testing.assert_array_equal(out["rows"].numpy(), [0.75, 1.5, 2.0])


def test_nondiff_ops_run_again_at_replay():
    from kerasish.backend.primitive import nondiff

    @nondiff
    def checked(x):
        if (x < 0).any():
            raise ValueError("negative input")
        return x

    _, trace = T.capture(lambda x: checked(x) * 2.0, [t([1.0])])
    assert trace.escaped is None
    np.testing.assert_array_equal(trace.replay([t([4.0])]).numpy(), [8.0])
    with pytest.raises(ValueError, match="negative input"):
        trace.replay([t([-1.0])])


def test_effects_write_at_every_replay_in_their_place():
    # An effect (like BatchNormalization's moving statistics) is recorded
    # with its arguments; each replay writes again, from its own values,
    # after the ops before it and before the ops after it.
    total = Variable([0.0], trainable=False)
    w = Variable([2.0])

    @T.traced_effect
    def accumulate(variable, value):
        variable.assign(variable._value + np.asarray(value._value))

    def f(x):
        h = x * w
        accumulate(total, ops.sum(h))
        return ops.sum(h * total)

    out, trace = T.capture(f, [t([1.0, 2.0])])
    assert trace.escaped is None
    assert total.numpy().tolist() == [6.0] and float(out) == 36.0
    # array program (no tape): 6 + 2 * (3 + 4) = 20, then 14 * 20
    assert float(trace.replay([t([3.0, 4.0])])) == 280.0
    assert total.numpy().tolist() == [20.0]
    out, grads = trace.replay_with_gradients([t([1.0, 1.0])], [w])
    assert total.numpy().tolist() == [24.0]
    assert float(out) == 96.0 and grads[0].numpy().tolist() == [48.0]
    with GradientTape() as tape:       # tensor-level replay under a tape
        out = trace.replay([t([1.0, 1.0])])
    assert total.numpy().tolist() == [28.0] and float(out) == 4.0 * 28.0
    assert tape.gradient(out, w).numpy().tolist() == [2.0 * 28.0]
    assert accumulate.effect is not None


def test_guard_is_removed_after_capture_even_on_error():
    original = Tensor.__dict__["_value"]

    def boom(x):
        assert Tensor.__dict__["_value"] is not original
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        T.capture(boom, [t([1.0])])
    assert Tensor.__dict__["_value"] is original
    assert T.active_tracer() is None
    assert Tensor.__dict__["shape"].fget is not None


def test_replay_checks_the_number_of_inputs():
    _, trace = T.capture(lambda x: x * 2.0, [t([1.0])])
    with pytest.raises(ValueError, match="takes 1 inputs. Received: 2"):
        trace.replay([t([1.0]), t([2.0])])


def test_replay_with_gradients_equals_the_tape():
    table = Variable(np.arange(12, dtype="float32").reshape(6, 2) / 10)
    w = Variable([[1.0, -2.0], [0.5, 3.0]])
    frozen = Variable([0.5, 0.25], trainable=False)
    unused = Variable([1.0])

    def f(ids, x):
        rows = S.take(table, ids, axis=0)                 # IndexedSlices
        h = ops.matmul(x + rows, w) * frozen
        h = h + ops.matmul(x, w)                           # w used twice
        return h, ops.mean(ops.square(h))

    ids = ops.convert_to_tensor(np.array([0, 3, 3]))
    x = t(np.ones((3, 2)))
    _, trace = T.capture(f, [ids, x])
    assert trace.escaped is None
    ids2 = ops.convert_to_tensor(np.array([5, 1, 5]))
    x2 = t([[0.5, -1.0], [2.0, 0.0], [1.0, 1.0]])
    sources = [table, w, frozen, unused]
    with GradientTape() as tape:
        h, loss = f(ids2, x2)
    expected = tape.gradient(loss, sources)
    (h_r, loss_r), grads = trace.replay_with_gradients([ids2, x2], sources)
    np.testing.assert_array_equal(h_r.numpy(), h.numpy())
    assert float(loss_r) == float(loss)
    assert grads[2] is None and grads[3] is None
    assert expected[2] is None and expected[3] is None
    np.testing.assert_array_equal(np.asarray(grads[0].to_dense()),
                                  np.asarray(expected[0].to_dense()))
    np.testing.assert_array_equal(grads[1].numpy(), expected[1].numpy())


def test_replay_with_gradients_refuses_to_bypass_a_tape():
    w = Variable([2.0])
    _, trace = T.capture(lambda x: ops.sum(x * w), [t([1.0])])
    with GradientTape():
        with pytest.raises(RuntimeError, match="bypasses the tapes"):
            trace.replay_with_gradients([t([1.0])], [w])
    with GradientTape() as tape:       # the tensor-level replay records
        out = trace.replay([t([3.0])])
    assert tape.gradient(out, w).numpy().tolist() == [3.0]
