"""MultiOptimizer / OptimizerMap and keras.optimizers.legacy, as Keras 3.15.

Reference values and fixtures/multi_optimizer.keras come from
fixtures/make_multi_optimizer.py run with real Keras 3.15.1 (jax).
"""
import os

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import optimizers as O

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures",
                       "multi_optimizer.keras")
# Keras: enc kernel (all columns equal), enc bias, head kernel, head bias.
KERAS_ENC_KERNEL_ROWS = [0.9674023, 0.9664575, 0.9656606]
KERAS_ENC_BIAS = 0.01647499
KERAS_HEAD_KERNEL = -0.56593883
KERAS_HEAD_BIAS = 0.28224993
KERAS_ADAM_KERNEL_MOMENTUM_ROWS = [1.1727738, 1.1308646, 1.0889554]
KERAS_PATHS = [
    "multi_optimizer/iteration", "multi_optimizer/learning_rate",
    "adam/iteration", "adam/learning_rate", "adam/enc_kernel_momentum",
    "adam/enc_kernel_velocity", "adam/enc_bias_momentum",
    "adam/enc_bias_velocity", "sgd/iteration", "sgd/learning_rate",
    "sgd/head_kernel_momentum", "sgd/head_bias_momentum"]


def _data():
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
    y = np.sin(np.arange(8, dtype="float32")).reshape(8, 1)
    return x, y


def _model_and_optimizer():
    inp = kerasish.Input((3,))
    h = kerasish.layers.Dense(4, name="enc", kernel_initializer="ones",
                              bias_initializer="zeros")(inp)
    out = kerasish.layers.Dense(1, name="head", kernel_initializer="ones",
                                bias_initializer="zeros")(h)
    model = kerasish.Model(inp, out)
    opt = O.MultiOptimizer(O.OptimizerMap(O.SGD(0.01, momentum=0.9),
                                          {"enc/.*": O.Adam(0.01)}))
    model.compile(optimizer=opt, loss="mse")
    return model, opt


def _trained():
    model, opt = _model_and_optimizer()
    x, y = _data()
    model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return model, opt


def test_training_matches_keras():
    model, opt = _trained()
    kernel, bias, head, head_bias = model.get_weights()
    rows = np.broadcast_to(np.array(KERAS_ENC_KERNEL_ROWS)[:, None], (3, 4))
    np.testing.assert_allclose(kernel, rows, rtol=1e-5)
    np.testing.assert_allclose(bias, KERAS_ENC_BIAS, rtol=1e-4)
    np.testing.assert_allclose(head, KERAS_HEAD_KERNEL, rtol=1e-5)
    np.testing.assert_allclose(head_bias, KERAS_HEAD_BIAS, rtol=1e-5)
    assert [v.path for v in opt.variables] == KERAS_PATHS
    momentum = np.broadcast_to(
        np.array(KERAS_ADAM_KERNEL_MOMENTUM_ROWS)[:, None], (3, 4))
    np.testing.assert_allclose(opt.variables[4].numpy(), momentum, rtol=1e-5)
    assert [int(o.iterations.numpy()) for o in opt.optimizers] == [4, 4]
    assert int(opt.iterations.numpy()) == 4


def test_weights_file_layout_and_keras_file_loads(tmp_path):
    model, opt = _trained()
    path = os.path.join(tmp_path, "m.weights.h5")
    model.save_weights(path)
    with h5py.File(path) as f:
        names = []
        f["optimizer"].visit(names.append)
    assert "optimizers/adam/vars/5" in names
    assert "optimizers/sgd/vars/3" in names
    assert "vars/11" in names and "vars/12" not in names
    loaded = kerasish.models.load_model(FIXTURE)
    for ours, theirs in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5)
    loaded_opt = loaded.optimizer
    assert type(loaded_opt) is O.MultiOptimizer
    for ours, theirs in zip(opt.variables, loaded_opt.variables):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5)


def test_save_load_resumes_identically(tmp_path):
    model, _ = _trained()
    path = os.path.join(tmp_path, "m.keras")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    x, y = _data()
    for m in (model, loaded):
        m.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    for a, b in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_optimizer_map_lookup_and_errors():
    adam, sgd, rms = O.Adam(), O.SGD(), O.RMSprop()
    opt_map = O.OptimizerMap(rms)
    opt_map["encoder/layer_0/dense"] = adam
    opt_map["encoder/.*"] = sgd
    assert opt_map["encoder/layer_0/dense"] is adam
    assert opt_map["encoder/layer_0/attention/query"] is sgd
    assert opt_map["decoder"] is rms and opt_map.default_optimizer is rms
    assert len(opt_map) == 2 and list(opt_map) == ["encoder/layer_0/dense",
                                                   "encoder/.*"]
    opt_map["enc.*"] = O.Adam()
    with pytest.raises(ValueError, match="Multiple optimizers assigned"):
        opt_map["encoder/x"]
    del opt_map["enc.*"]
    with pytest.raises(ValueError, match="already exists"):
        opt_map["encoder/.*"] = adam
    with pytest.raises(ValueError, match="key must be a string"):
        opt_map[3] = adam
    with pytest.raises(ValueError, match="cannot be LossScaleOptimizer"):
        opt_map["x"] = O.LossScaleOptimizer(O.SGD())
    with pytest.raises(ValueError, match="cannot be MultiOptimizer"):
        opt_map["x"] = O.MultiOptimizer(O.OptimizerMap(O.SGD()))
    with pytest.raises(TypeError, match="default_optimizer must be"):
        O.OptimizerMap("sgd")
    with pytest.raises(TypeError, match="optimizer_map must be a dict"):
        O.OptimizerMap(O.SGD(), [("a", O.Adam())])


def test_callable_selector_and_learning_rate_errors():
    adam, sgd = O.Adam(0.1), O.SGD(0.1)
    opt = O.MultiOptimizer(lambda v: adam if "kernel" in v.path else sgd,
                           loss_scale_factor=2.0)
    kernel = kerasish.Variable(np.ones((2, 2)), name="kernel")
    bias = kerasish.Variable(np.ones(2), name="bias")
    grads = [np.ones((2, 2), "float32"), np.ones(2, "float32")]
    opt.apply(grads, [kernel, bias])
    assert opt.optimizers == [adam, sgd]
    assert adam.loss_scale_factor == 2.0 and sgd.loss_scale_factor == 2.0
    # Each inner optimizer unscales its gradients: SGD moves by lr * g / 2.
    np.testing.assert_allclose(bias.numpy(), 1 - 0.1 * 0.5)
    np.testing.assert_allclose(kernel.numpy(), 1 - 0.1, rtol=1e-5)
    with pytest.raises(AttributeError, match="cannot be accessed"):
        opt.learning_rate
    with pytest.raises(AttributeError, match="cannot be set"):
        opt.learning_rate = 0.1
    with pytest.raises(ValueError, match="one-to-one"):
        opt.apply(grads[:1], [kernel])
    bad = O.MultiOptimizer(lambda v: "sgd")
    with pytest.raises(ValueError, match="is not an Optimizer instance"):
        bad.build([kernel])


def test_set_weights_and_config_round_trip():
    _, opt = _trained()
    weights = opt.get_weights()
    assert len(weights) == len(KERAS_PATHS)
    zeros = [np.zeros_like(w) for w in weights]
    opt.set_weights(zeros)
    assert all(not np.any(v.numpy()) for v in opt.optimizers[0].variables)
    config = kerasish.saving.serialize_keras_object(opt)
    clone = kerasish.saving.deserialize_keras_object(config)
    assert kerasish.saving.serialize_keras_object(clone) == config
    assert [type(o).__name__ for o in clone.optimizers] == ["Adam", "SGD"]


@pytest.mark.parametrize("name", ["Adagrad", "Adam", "Ftrl", "Optimizer",
                                  "RMSprop", "SGD"])
def test_legacy_optimizers_raise_as_keras(name):
    cls = getattr(O.legacy, name)
    with pytest.raises(ImportError,
                       match="`keras.optimizers.legacy` is not supported"):
        cls(learning_rate=0.1)
