"""Top-level scopes: name_scope, device, RematScope/remat, SymbolicScope,
StatelessScope and Layer.stateless_call (reference values from Keras 3.15.1
on JAX, running the same script: tests/engine/test_scopes.py's model)."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.backend.common import scopes


# -- name_scope ---------------------------------------------------------------
def test_name_scope_paths_as_keras():
    with keras.name_scope("a"):
        with keras.name_scope("a"):
            assert keras.Variable(1.0).path == "a/a/variable"
        with keras.name_scope("b", override_parent="x/y"):
            assert keras.Variable(1.0, name="w").path == "x/y/b/w"
            dense = keras.layers.Dense(2)
            dense.build((None, 3))
            assert dense.kernel.path == "x/y/b/dense/kernel"
        named = keras.layers.Dense(2, name="dd")
        named.build((None, 3))
        assert named.kernel.path == "a/dd/kernel"
    assert keras.Variable(1.0, name="v").path == "v"


def test_name_scope_arguments_and_deduplication():
    scope = keras.name_scope("q")
    assert (scope.name, scope.caller, scope.deduplicate,
            scope.override_parent) == ("q", None, True, None)
    with pytest.raises(ValueError, match="cannot contain character `/`. "
                                         "Received: name=a/b"):
        keras.name_scope("a/b")
    owner = object()
    with keras.name_scope("blk", caller=owner):
        with keras.name_scope("blk", caller=owner):
            assert keras.Variable(1.0, name="w").path == "blk/w"


def test_clear_session_empties_name_scopes():
    keras.name_scope("left_open").__enter__()
    keras.backend.clear_session(free_memory=False)
    assert keras.Variable(1.0, name="w").path == "w"


# -- device, remat, symbolic --------------------------------------------------
@pytest.mark.parametrize("name", ["cpu", "cpu:0", "CPU:1"])
def test_device_accepts_cpu(name):
    with keras.device(name):
        x = keras.ops.ones((2,))
    assert x.shape == (2,)


@pytest.mark.parametrize("name", ["gpu:0", "tpu", "cpu:x", 3])
def test_device_rejects_other_devices(name):
    with pytest.raises(ValueError, match="runs on the CPU only. Received: "
                                         "device_name="):
        keras.device(name)


def test_remat_scope_records_mode_and_computes_normally():
    assert scopes.get_current_remat_mode() is None
    x = np.ones((2, 3), "float32")
    layer = keras.layers.Dense(2, kernel_initializer="ones")
    with keras.RematScope(mode="list_of_layers", layer_names=["d"]) as s:
        assert scopes.get_current_remat_mode() is s
        with keras.RematScope(mode=None):
            assert scopes.get_current_remat_mode().mode is None
        y = layer(x)
    assert (s.mode, s.output_size_threshold, s.layer_names) == \
        ("list_of_layers", 1024, ["d"])
    np.testing.assert_allclose(y, np.full((2, 2), 3.0))
    with pytest.raises(ValueError, match="Invalid mode 'some'"):
        keras.RematScope(mode="some")


def test_remat_keeps_values_and_gradients():
    layer = keras.layers.Dense(3, activation="tanh", dtype="float64")
    x = np.random.default_rng(0).normal(size=(4, 2)).astype("float64")
    fn = keras.remat(layer)
    np.testing.assert_allclose(fn(x), layer(x))
    keras.utils.check_grads(fn, [x], variables=layer.trainable_variables)
    with pytest.raises(TypeError, match="expects a callable"):
        keras.remat(3)


def test_symbolic_scope_suppresses_state_updates():
    bn = keras.layers.BatchNormalization()
    x = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
    bn(x)
    with keras.SymbolicScope():
        assert scopes.in_symbolic_scope()
        bn(x, training=True)
    assert not scopes.in_symbolic_scope()
    np.testing.assert_array_equal(bn.moving_mean, np.zeros(3))


# -- StatelessScope -----------------------------------------------------------
def test_stateless_scope_substitutes_and_collects_values():
    v = keras.Variable([1.0, 2.0])
    w = keras.Variable([7.0])
    with keras.StatelessScope([(v, np.zeros(2))]) as scope:
        np.testing.assert_array_equal(v.numpy(), [0.0, 0.0])
        v.assign_add([5.0, 5.0])
        w.assign([9.0])      # not in the mapping: updated in the scope only
        np.testing.assert_array_equal(w.numpy(), [9.0])
        np.testing.assert_array_equal(
            scope.get_current_value(v).numpy(), [5.0, 5.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(w.numpy(), [7.0])
    np.testing.assert_array_equal(scope.get_current_value(v).numpy(),
                                  [5.0, 5.0])
    np.testing.assert_array_equal(scope.get_current_value(w).numpy(), [9.0])
    assert scope.get_current_value(keras.Variable(0.0)) is None


def test_stateless_scope_add_update_nested_scopes_and_losses():
    v = keras.Variable([1.0])
    with keras.StatelessScope([(v, [2.0])], collect_losses=True) as outer:
        with keras.StatelessScope([(v, [3.0])]) as inner:
            inner.add_update((v, [4.0]))
        np.testing.assert_array_equal(v.numpy(), [2.0])
        outer.add_loss(1.5)
    assert inner.get_current_value(v).numpy().tolist() == [4.0]
    assert outer.get_current_value(v).numpy().tolist() == [2.0]
    assert outer.losses == [1.5] and outer.collect_losses
    assert v.numpy().tolist() == [1.0]


def test_stateless_scope_validates_mapping():
    v = keras.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="all keys in argument `mapping` "
                                         "must be Variable instances"):
        keras.StatelessScope([(np.ones(2), np.ones(2))])
    with pytest.raises(ValueError, match="with shape \\(3,\\)"):
        keras.StatelessScope([(v, np.ones(3))])


def test_stateless_scope_restores_variables_on_error():
    v = keras.Variable([1.0])
    with pytest.raises(RuntimeError):
        with keras.StatelessScope([(v, [5.0])]):
            raise RuntimeError("boom")
    assert v.numpy().tolist() == [1.0]
    assert not scopes.in_stateless_scope()


def _stateful_model():
    return keras.Sequential([
        keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones"),
        keras.layers.BatchNormalization(),
        keras.layers.ActivityRegularization(l1=0.1)])


def test_stateless_call_matches_keras():
    x = (np.arange(24, dtype="float32").reshape(8, 3) / 10) ** 2
    model = _stateful_model()
    tv = [np.full(v.shape, 0.5, "float32")
          for v in model.trainable_variables]
    ntv = [np.full(v.shape, 0.25, "float32")
           for v in model.non_trainable_variables]
    out, new_ntv, losses = model.stateless_call(
        tv, ntv, x, training=True, return_losses=True)
    np.testing.assert_allclose(np.asarray(out)[:2],
                               [[-0.04619] * 2, [-0.0003] * 2], atol=1e-5)
    np.testing.assert_allclose([np.asarray(v) for v in new_ntv],
                               [[0.27953] * 2, [0.30757] * 2], atol=1e-5)
    np.testing.assert_allclose([float(loss) for loss in losses], [0.10232],
                               atol=1e-5)
    # Nothing changed on the model, and no loss was left behind.
    assert [v.numpy().tolist() for v in model.non_trainable_variables] == \
        [[0.0, 0.0], [1.0, 1.0]]
    assert model.layers[0].kernel.numpy().tolist() == [[1.0, 1.0]] * 3
    out, new_ntv = model.stateless_call(tv, ntv, x)
    np.testing.assert_allclose(np.asarray(out)[:2],
                               [[0.77445] * 2, [0.999] * 2], atol=1e-5)
    assert model.losses == []


def test_stateless_call_gradients_are_those_of_the_given_values():
    layer = keras.layers.Dense(1, kernel_initializer="zeros")
    x = np.array([[1.0, 2.0]], "float32")
    layer(x)
    kernel = np.array([[3.0], [4.0]], "float32")
    with keras.GradientTape() as tape:
        out, _ = layer.stateless_call([kernel, np.zeros(1)], [], x)
        loss = keras.ops.sum(out * out)
    grad = tape.gradient(loss, layer.kernel)
    # d(out^2)/dkernel = 2 * out * x with out = 11.
    np.testing.assert_allclose(grad, [[22.0], [44.0]])
    assert layer.kernel.numpy().tolist() == [[0.0], [0.0]]


def test_stateless_call_argument_errors():
    layer = keras.layers.Dense(1)
    with pytest.raises(ValueError, match="Dense must be built"):
        layer.stateless_call([], [], np.ones((1, 2)))
    layer(np.ones((1, 2)))
    with pytest.raises(ValueError, match="Argument `trainable_variables` must"
                                         " be a list .* Received list with "
                                         "length 1, but expected 2"):
        layer.stateless_call([np.ones((2, 1))], [], np.ones((1, 2)))
    with pytest.raises(ValueError, match="`non_trainable_variables`.*length "
                                         "1, but expected 0"):
        layer.stateless_call([np.ones((2, 1)), np.ones(1)], [np.ones(1)],
                             np.ones((1, 2)))
