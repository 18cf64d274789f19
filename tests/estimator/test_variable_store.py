"""VariableStore: reuse by name, errors, sandbox, checkpoints."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.backend.common import naming
from kerasish.estimator.variable_store import (VariableStore,
                                               read_checkpoint,
                                               write_checkpoint)


def call(store, fn):
    with store.scope():
        return fn()


def dense_call(x=np.ones((2, 3), "float32")):
    layer = keras.layers.Dense(4)
    return layer, layer(x)


def test_new_objects_share_variables_by_path():
    store = VariableStore()
    first, _ = call(store, dense_call)
    first.kernel.assign(np.full((3, 4), 2.0))
    second, out = call(store, dense_call)
    assert second is not first and second.name == first.name == "dense"
    assert second.kernel._value is first.kernel._value
    np.testing.assert_allclose(out.numpy(), np.full((2, 4), 6.0))


def test_names_restart_in_each_call_and_outside_names_are_kept():
    keras.layers.Dense(1)          # takes "dense" outside
    store = VariableStore()
    inside, _ = call(store, dense_call)
    assert inside.name == "dense"
    assert keras.layers.Dense(1).name == "dense_1"
    assert naming.current_path() == ""


def test_shape_and_dtype_mismatch_errors():
    store = VariableStore()
    call(store, lambda: keras.Variable(np.zeros(3), name="v"))
    with pytest.raises(ValueError, match="share variable v, but specified "
                                         r"shape \(4,\) and found shape"):
        call(store, lambda: keras.Variable(np.zeros(4), shape=(4,),
                                           name="v"))
    with pytest.raises(ValueError, match="specified dtype int32"):
        call(store, lambda: keras.Variable(np.zeros(3), shape=(3,),
                                           dtype="int32", name="v"))


def test_two_variables_with_one_name_in_a_call_is_an_error():
    store = VariableStore()

    def twice():
        keras.layers.Dense(1, name="same")(np.ones((1, 2), "float32"))
        keras.layers.Dense(1, name="same")(np.ones((1, 2), "float32"))
    with pytest.raises(ValueError, match="two variables named 'same/"):
        call(store, twice)


def test_sandbox_undoes_changes_and_keeps_new_variables():
    store = VariableStore()
    layer, _ = call(store, dense_call)
    before = layer.kernel.numpy()
    with store.sandbox():
        layer.kernel.assign(np.zeros((3, 4)))
        fresh = call(store, lambda: keras.Variable(np.ones(2), name="new"))
        fresh.assign([5.0, 5.0])
    np.testing.assert_array_equal(layer.kernel.numpy(), before)
    np.testing.assert_array_equal(store.value("new"), [1.0, 1.0])


def test_save_restore_pending_and_local(tmp_path):
    store = VariableStore()
    layer, _ = call(store, dense_call)
    metric = call(store, lambda: keras.metrics.Mean(name="m"))
    store.mark_local(metric.variables)
    assert store.names() == ["dense/bias", "dense/kernel"]
    path = str(tmp_path / "ckpt.weights.h5")
    layer.kernel.assign(np.full((3, 4), 3.0))
    store.save(path, {"global_step": 9})
    values = read_checkpoint(path)
    assert sorted(values) == ["dense/bias", "dense/kernel"]
    fresh = VariableStore()
    assert fresh.restore(path) == ["dense/bias", "dense/kernel"]
    again, _ = call(fresh, dense_call)   # created after the restore
    np.testing.assert_array_equal(again.kernel.numpy(), np.full((3, 4), 3.))


def test_restore_checks_shapes_and_missing_variables(tmp_path):
    path = str(tmp_path / "c.weights.h5")
    write_checkpoint(path, {"dense/kernel": np.zeros((5, 4))})
    store = VariableStore()
    call(store, dense_call)
    with pytest.raises(ValueError, match="lacks variables.*dense/bias"):
        store.restore(path)
    with pytest.raises(ValueError, match=r"shape \(3, 4\) but the "
                                         r"checkpoint holds shape \(5, 4\)"):
        store.restore(path, paths=lambda name: True)
    write_checkpoint(path, {}, None)
    import h5py
    with h5py.File(path, "w"):
        pass
    with pytest.raises(ValueError, match="not an Estimator checkpoint"):
        read_checkpoint(path)


def test_adopt_and_memo():
    store = VariableStore()
    outside = keras.Variable(np.ones(2), name="outside")
    store.adopt([outside])
    assert "outside" in store and store.variable("outside") is outside
    made = []
    assert store.memo("k", lambda: made.append(1) or "v") == "v"
    assert store.memo("k", lambda: made.append(1) or "w") == "v"
    assert made == [1]
