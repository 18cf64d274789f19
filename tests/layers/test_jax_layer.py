"""JaxLayer and FlaxLayer: forward through JAX, gradients from jax.vjp,
parameters and state as weights trained by kerasish optimizers."""
import re
import textwrap

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend.tape import GradientTape
from kerasish.saving import object_registration
from tests import peers

jax = peers.importorskip("jax")
jnp = jax.numpy


def run_docstring_example(cls):
    code = re.search(r"```python\n(.*?)```", cls.__doc__, re.S).group(1)
    exec(compile(textwrap.dedent(code), "<example>", "exec"),
         {"np": np, "kerasish": kerasish})


def mlp_call(params, inputs):
    hidden = jnp.tanh(inputs @ params["w1"] + params["b1"])
    return hidden @ params["w2"]


def mlp_init(rng, inputs):
    k1, k2 = jax.random.split(rng)
    return {"w1": jax.random.normal(k1, (inputs.shape[-1], 5)) * 0.5,
            "b1": jnp.zeros((5,)),
            "w2": jax.random.normal(k2, (5, 2)) * 0.5}


def test_docstring_example_runs():
    run_docstring_example(layers.JaxLayer)


def test_forward_and_gradients_equal_jax():
    layer = layers.JaxLayer(mlp_call, mlp_init)
    x = np.random.default_rng(0).standard_normal((3, 4)).astype("float32")
    out = layer(x)
    params = {k: jnp.asarray(v._value) for k, v in layer.params.items()}
    np.testing.assert_allclose(np.asarray(out), mlp_call(params, x),
                               rtol=1e-5, atol=1e-6)
    xv = kerasish.Variable(x)
    with GradientTape() as tape:
        loss = kerasish.ops.sum(kerasish.ops.square(layer(xv)))
    grads = tape.gradient(loss, [xv] + layer.trainable_weights)

    def jax_loss(x, params):
        return jnp.sum(mlp_call(params, x) ** 2)
    gx, gp = jax.grad(jax_loss, argnums=(0, 1))(jnp.asarray(x), params)
    expected = [gx] + jax.tree_util.tree_leaves(gp)
    for g, e in zip(grads, expected):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6)


def test_given_params_and_training_with_an_optimizer():
    params = mlp_init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    layer = layers.JaxLayer(mlp_call, params=params)
    assert layer.built and len(layer.trainable_weights) == 3
    model = kerasish.Sequential([kerasish.Input((3,)), layer])
    model.compile(kerasish.optimizers.Adam(0.05), "mse")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 3)).astype("float32")
    y = np.stack([x[:, 0] * x[:, 1], x[:, 2]], axis=1)
    history = model.fit(x, y, epochs=8, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.7 * history.history["loss"][0]


def stateful_call(params, state, rng, inputs, training):
    outputs = inputs @ params["w"]
    if training:
        keep = jax.random.bernoulli(rng, 0.5, outputs.shape)
        outputs = jnp.where(keep, outputs * 2, 0.0)
    return outputs, {"count": state["count"] + 1}


def stateful_init(rng, inputs, training):
    return ({"w": jax.random.normal(rng, (inputs.shape[-1], 2))},
            {"count": jnp.zeros((), "int32")})


def test_state_rng_and_training_arguments():
    layer = layers.JaxLayer(stateful_call, stateful_init, seed=3)
    x = np.ones((4, 3), "float32")
    inference = np.asarray(layer(x))
    assert [w.shape for w in layer.non_trainable_weights] == [()]
    assert int(np.asarray(layer.state["count"])) == 1
    np.testing.assert_array_equal(np.asarray(layer(x)), inference)
    dropped = np.asarray(layer(x, training=True))
    assert np.any(dropped == 0) and int(np.asarray(
        layer.state["count"])) == 3


def test_symbolic_call_does_not_update_state():
    layer = layers.JaxLayer(stateful_call, stateful_init)
    outputs = layer(kerasish.Input((3,)))
    assert tuple(outputs.shape) == (None, 2)
    assert int(np.asarray(layer.state["count"])) == 0


def test_pytree_inputs_and_outputs():
    def call_fn(params, inputs):
        return {"sum": inputs["a"] @ params + inputs["b"],
                "a": inputs["a"]}
    layer = layers.JaxLayer(call_fn, params=np.ones((2, 3), "float32"))
    out = layer({"a": np.ones((4, 2), "float32"),
                 "b": np.zeros((4, 3), "float32")})
    assert out["sum"].shape == (4, 3) and out["a"].shape == (4, 2)
    np.testing.assert_array_equal(np.asarray(out["sum"]), 2.0)


def test_config_round_trip_with_registered_functions():
    object_registration.register_keras_serializable("h13")(mlp_call)
    object_registration.register_keras_serializable("h13")(mlp_init)
    layer = layers.JaxLayer(mlp_call, mlp_init, name="jax_mlp")
    config = layer.get_config()
    assert list(config) == ["name", "trainable", "dtype", "call_fn",
                            "init_fn", "native_serialization_platforms"]
    clone = layers.JaxLayer.from_config(config)
    assert clone.call_fn is mlp_call and clone.init_fn is mlp_init


def test_weights_round_trip(tmp_path):
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 layers.JaxLayer(mlp_call, mlp_init)])
    path = str(tmp_path / "jax.weights.h5")
    model.save_weights(path)
    other = kerasish.Sequential([kerasish.Input((4,)),
                                 layers.JaxLayer(mlp_call, mlp_init)])
    other.load_weights(path)
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(other.predict(x, verbose=0),
                               model.predict(x, verbose=0))


def test_bad_functions():
    with pytest.raises(ValueError, match="Missing required argument in "
                       "`call_fn`: `inputs`"):
        layers.JaxLayer(lambda params: params)
    with pytest.raises(ValueError, match="Unsupported argument in "
                       "`call_fn`: `x`"):
        layers.JaxLayer(lambda inputs, x: x)
    with pytest.raises(ValueError, match="cannot all be `None`"):
        layers.JaxLayer(mlp_call)


# -- Flax ---------------------------------------------------------------------
def test_flax_docstring_example_runs():
    peers.importorskip("flax")
    run_docstring_example(layers.FlaxLayer)


def test_flax_module_with_batch_stats_and_dropout_trains():
    peers.importorskip("flax")
    import flax.linen as nn

    class Net(nn.Module):
        @nn.compact
        def __call__(self, inputs, training):
            x = nn.Dense(8)(inputs)
            x = nn.BatchNorm(use_running_average=not training)(x)
            x = nn.Dropout(0.2, deterministic=not training)(nn.relu(x))
            return nn.Dense(1)(x)

    layer = layers.FlaxLayer(Net())
    model = kerasish.Sequential([kerasish.Input((3,)), layer])
    assert [w.shape for w in layer.non_trainable_weights] == [(8,), (8,)]
    assert len(layer.trainable_weights) == 6
    model.compile(kerasish.optimizers.Adam(0.02), "mse")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((64, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    stats = np.asarray(layer.non_trainable_weights[0]).copy()
    history = model.fit(x, y, epochs=6, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert not np.allclose(np.asarray(layer.non_trainable_weights[0]), stats)
    variables = {"params": jax.tree_util.tree_map(
        lambda v: jnp.asarray(v._value), layer.params["params"]),
        "batch_stats": jax.tree_util.tree_map(
            lambda v: jnp.asarray(v._value), layer.state["batch_stats"])}
    expected = Net().apply(variables, x, training=False)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected,
                               rtol=1e-5, atol=1e-5)


def test_flax_given_variables_and_config():
    peers.importorskip("flax")
    import flax.linen as nn
    module = nn.Dense(2)
    variables = module.init(jax.random.PRNGKey(1), jnp.ones((1, 3)))
    layer = layers.FlaxLayer(module, variables=variables)
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(np.asarray(layer(x)),
                               module.apply(variables, x), rtol=1e-6)
    config = layer.get_config()
    assert "call_fn" not in config and "init_fn" not in config
    assert list(config)[-2:] == ["module", "method"]
