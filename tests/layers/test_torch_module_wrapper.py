"""TorchModuleWrapper: forward through torch, gradients from torch
autograd, parameters trained by kerasish optimizers, saving."""
import re

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend.tape import GradientTape
from tests import peers

torch = peers.importorskip("torch")


def mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(),
                               torch.nn.Linear(5, 2))


def test_docstring_example_runs():
    source = layers.TorchModuleWrapper.__doc__
    code = re.search(r"```python\n(.*?)```", source, re.S).group(1)
    exec(compile(_dedent(code), "<example>", "exec"),
         {"np": np, "kerasish": kerasish})


def _dedent(code):
    import textwrap
    return textwrap.dedent(code)


def test_forward_matches_torch_and_variables_share_memory():
    module = mlp()
    layer = layers.TorchModuleWrapper(module)
    x = np.random.default_rng(0).standard_normal((3, 4)).astype("float32")
    expected = module(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(np.asarray(layer(x)), expected, rtol=1e-6)
    assert [w.path for w in layer.weights] == [
        "torch_module_wrapper/0_weight", "torch_module_wrapper/0_bias",
        "torch_module_wrapper/2_weight", "torch_module_wrapper/2_bias"]
    layer.weights[1].assign(np.ones(5, "float32"))
    np.testing.assert_array_equal(module[0].bias.detach().numpy(), 1.0)


def test_gradients_equal_torch_autograd():
    module = mlp()
    layer = layers.TorchModuleWrapper(module)
    x = np.random.default_rng(1).standard_normal((3, 4)).astype("float32")
    xv = kerasish.Variable(x)
    with GradientTape() as tape:
        loss = kerasish.ops.sum(kerasish.ops.square(layer(xv)))
    grads = tape.gradient(loss, [xv] + layer.trainable_weights)
    xt = torch.from_numpy(x).requires_grad_()
    (module(xt) ** 2).sum().backward()
    expected = [xt.grad] + [p.grad for p in module.parameters()]
    for g, e in zip(grads, expected):
        np.testing.assert_allclose(np.asarray(g), e.numpy(), rtol=1e-5,
                                   atol=1e-6)


def test_kerasish_optimizer_trains_the_module():
    module = mlp()
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 layers.TorchModuleWrapper(module)])
    model.compile(kerasish.optimizers.Adam(0.05), "mse")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((64, 4)).astype("float32")
    y = np.stack([x[:, 0] - x[:, 1], x[:, 2]], axis=1)
    before = module[0].weight.detach().numpy().copy()
    history = model.fit(x, y, epochs=5, batch_size=16, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.5 * losses[0]
    assert not np.allclose(module[0].weight.detach().numpy(), before)
    np.testing.assert_allclose(model.predict(x, verbose=0),
                               module(torch.from_numpy(x)).detach().numpy(),
                               rtol=1e-5, atol=1e-6)


def test_several_outputs_and_keyword_arguments():
    class Split(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(3, 4)

        def forward(self, x, scale=1.0):
            y = self.linear(x) * scale
            return y[:, :1], y.sum(dim=1).long()

    layer = layers.TorchModuleWrapper(Split())
    x = np.ones((2, 3), "float32")
    first, second = layer(x, scale=2.0)
    assert first.shape == (2, 1) and second.shape == (2,)
    assert second.dtype == np.int64
    xv = kerasish.Variable(x)
    with GradientTape() as tape:
        loss = kerasish.ops.sum(layer(xv, scale=2.0)[0])
    grad = tape.gradient(loss, xv)
    expected = 2.0 * layer.module.linear.weight.detach().numpy()[0]
    np.testing.assert_allclose(np.asarray(grad), np.tile(expected, (2, 1)),
                               rtol=1e-6)


def test_training_flag_switches_module_mode_and_batch_norm_state_saves(
        tmp_path):
    module = torch.nn.Sequential(torch.nn.Linear(3, 3),
                                 torch.nn.BatchNorm1d(3), torch.nn.Dropout(0.5))
    layer = layers.TorchModuleWrapper(module)
    x = np.random.default_rng(3).standard_normal((8, 3)).astype("float32")
    layer(x, training=True)
    assert module.training
    first = np.asarray(layer(x, training=False))
    assert not module.training
    np.testing.assert_array_equal(np.asarray(layer(x, training=False)), first)
    model = kerasish.Sequential([kerasish.Input((3,)), layer])
    path = str(tmp_path / "torch.weights.h5")
    model.save_weights(path)
    fresh = torch.nn.Sequential(torch.nn.Linear(3, 3),
                                torch.nn.BatchNorm1d(3), torch.nn.Dropout(0.5))
    other = kerasish.Sequential([kerasish.Input((3,)),
                                 layers.TorchModuleWrapper(fresh)])
    other.load_weights(path)
    np.testing.assert_array_equal(fresh[1].running_mean.numpy(),
                                  module[1].running_mean.numpy())
    np.testing.assert_allclose(np.asarray(other.layers[0](x, training=False)),
                               first, rtol=1e-6)


def test_config_round_trip_needs_unsafe_mode():
    layer = layers.TorchModuleWrapper(mlp(), output_shape=(None, 2))
    config = layer.get_config()
    assert list(config) == ["name", "trainable", "dtype", "module",
                            "output_shape"]
    with pytest.raises(ValueError, match="arbitrary code execution"):
        layers.TorchModuleWrapper.from_config(config)
    clone = layers.TorchModuleWrapper.from_config(config, safe_mode=False)
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(np.asarray(clone(x)), np.asarray(layer(x)))
    assert layer.compute_output_shape((None, 4)) == (None, 2)


def test_symbolic_call_in_a_functional_model():
    inputs = kerasish.Input((4,))
    outputs = layers.Dense(2)(layers.TorchModuleWrapper(mlp())(inputs))
    assert tuple(outputs.shape) == (None, 2)
    model = kerasish.Model(inputs, outputs)
    assert model.predict(np.ones((3, 4), "float32"), verbose=0).shape == \
        (3, 2)


def test_bad_modules():
    with pytest.raises(ValueError, match="torch.nn.Module"):
        layers.TorchModuleWrapper(lambda x: x)
    with pytest.raises(ValueError, match="uninitialized LazyModule"):
        layers.TorchModuleWrapper(torch.nn.LazyLinear(3))
