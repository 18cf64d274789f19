"""keras.distribution on kerasish's single CPU device.

Reprs, defaults and error messages were checked against real Keras 3.15.1
(jax backend, one CPU device).
"""
import os
from unittest import mock

import numpy as np
import pytest

import kerasish
from kerasish import distribution as D

KERAS_NAMES = ["DataParallel", "DeviceMesh", "LayoutMap", "ModelParallel",
               "TensorLayout", "distribute_tensor", "distribution",
               "get_device_count", "initialize", "list_devices",
               "set_distribution"]


def test_namespace_and_devices():
    assert all(hasattr(D, n) for n in KERAS_NAMES)
    assert "distribution" in dir(kerasish)
    assert D.list_devices() == ["cpu:0"] == D.list_devices("CPU")
    assert D.get_device_count() == 1 == D.get_device_count("cpu")
    with pytest.raises(ValueError, match="CPU only.*device_type='gpu'"):
        D.list_devices("gpu")


def test_initialize_single_process_only():
    D.initialize()
    D.initialize(job_addresses="10.0.0.1:1234", num_processes=1,
                 process_id=0)
    with pytest.raises(ValueError, match="parameter-server runtime"):
        D.initialize(num_processes=2, process_id=0)
    with mock.patch.dict(os.environ, {
            "KERAS_DISTRIBUTION_JOB_ADDRESSES": "a:1,b:2"}):
        with pytest.raises(ValueError, match="single process"):
            D.initialize()


def test_mesh_and_layout_as_keras():
    mesh = D.DeviceMesh((1,), ["batch"])
    assert repr(mesh) == "<DeviceMesh shape=(1,), axis_names=['batch']>"
    layout = D.TensorLayout(("batch", None), mesh)
    assert repr(layout) == ("<TensorLayout axes=('batch', None), "
                            "device_mesh=<DeviceMesh shape=(1,), "
                            "axis_names=['batch']>>")
    with pytest.raises(ValueError, match="cannot be empty"):
        D.DeviceMesh((), [])
    with pytest.raises(ValueError, match="should have same size"):
        D.DeviceMesh((1,), ["a", "b"])
    with pytest.raises(ValueError, match="does not match the number of"):
        D.DeviceMesh((2,), ["batch"])
    with pytest.raises(ValueError, match="Invalid axis names for Layout"):
        D.TensorLayout(("model",), mesh)
    late = D.TensorLayout(("batch",))
    late.device_mesh = mesh
    with pytest.raises(ValueError, match="Cannot override device mesh"):
        late.device_mesh = mesh


def test_layout_map_lookup():
    mesh = D.DeviceMesh((1, 1), ["batch", "model"])
    layout_map = D.LayoutMap(mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    layout_map[".*dense.*bias"] = ("model",)
    assert layout_map["dense_1/kernel"].axes == (None, "model")
    assert layout_map["m/dense_2/bias"].device_mesh is mesh
    assert layout_map["m/conv/kernel"] is None
    assert len(layout_map) == 2
    layout_map[".*_1/kernel"] = (None, None)
    with pytest.raises(ValueError, match="matches multiple layout"):
        layout_map["dense_1/kernel"]
    del layout_map[".*_1/kernel"]
    with pytest.raises(ValueError, match="already exist in the LayoutMap"):
        layout_map[".*dense.*bias"] = ("model",)
    with pytest.raises(ValueError, match="should be a TensorLayout type"):
        layout_map["x"] = "model"


def test_data_and_model_parallel_layouts():
    dp = D.DataParallel()
    assert repr(dp) == ("<DataParallel device_mesh=<DeviceMesh shape=(1,), "
                        "axis_names=['batch']>>")
    assert dp.get_data_layout((8, 3)).axes == ("batch", None)
    v = kerasish.Variable(np.ones((2, 3)))
    assert dp.get_variable_layout(v).axes == (None, None)
    assert dp.get_tensor_layout("x") is None
    assert dp.num_processes == 1 and dp.data_shard_id == 0
    with pytest.warns(UserWarning, match="Expect the input mesh to be 1D"):
        D.DataParallel(device_mesh=D.DeviceMesh((1, 1), ["b", "m"]))
    with pytest.raises(ValueError, match="instance of `DeviceMesh`"):
        D.DataParallel(device_mesh="mesh")
    mesh = D.DeviceMesh((1, 1), ["data", "model"])
    layout_map = D.LayoutMap(mesh)
    layout_map[".*kernel"] = (None, "model")
    mp = D.ModelParallel(layout_map=layout_map)
    assert mp.batch_dim_name == "data" and mp.num_model_replicas == 1
    assert mp.get_tensor_layout("a/kernel").axes == (None, "model")
    with pytest.raises(ValueError, match="must specify a layout_map"):
        D.ModelParallel()
    with pytest.raises(ValueError, match="must be a `LayoutMap`"):
        D.ModelParallel(layout_map={})


def test_global_setting_scope_and_clear_session():
    dp = D.DataParallel()
    assert D.distribution() is None
    with dp.scope():
        assert D.distribution() is dp
    assert D.distribution() is None
    D.set_distribution(dp)
    kerasish.backend.clear_session()
    assert D.distribution() is None


def test_distribute_tensor():
    mesh = D.DeviceMesh((1,), ["batch"])
    layout = D.TensorLayout(("batch", None), mesh)
    out = D.distribute_tensor(np.arange(6.0).reshape(3, 2), layout)
    np.testing.assert_array_equal(np.asarray(out),
                                  np.arange(6.0).reshape(3, 2))
    symbolic = kerasish.KerasTensor((None, 2))
    assert D.distribute_tensor(symbolic, layout) is symbolic
    other = D.TensorLayout(("batch",), D.DeviceMesh(
        (2,), ["batch"], devices=["cpu:0", "cpu:1"]))
    with pytest.raises(ValueError, match=r"devices \['cpu:1'\]"):
        D.distribute_tensor(np.ones(2), other)


def _fit(distribution):
    kerasish.utils.set_random_seed(3)
    x = np.random.default_rng(0).normal(size=(16, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(4),
                                 kerasish.layers.Dense(1)])
    model.compile("adam", "mse")
    model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    return model.get_weights()


@pytest.mark.parametrize("kind", ["data", "model"])
def test_training_under_a_distribution_computes_the_same(kind):
    reference = _fit(None)
    if kind == "data":
        dist = D.DataParallel()
    else:
        layout_map = D.LayoutMap(D.DeviceMesh((1, 1), ["batch", "model"]))
        layout_map[".*kernel"] = (None, "model")
        dist = D.ModelParallel(layout_map=layout_map)
    with dist.scope():
        weights = _fit(dist)
    for a, b in zip(reference, weights):
        np.testing.assert_array_equal(a, b)
