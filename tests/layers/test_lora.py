"""LoRA on Dense, EinsumDense, Embedding and the convolutions: weights,
the merged kernel, gradients, training, weights files, configs, errors."""
import h5py
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend import GradientTape

X2 = np.random.default_rng(1).normal(size=(4, 6)).astype("float32")
X3 = np.random.default_rng(2).normal(size=(4, 7, 3)).astype("float32")
X4 = np.random.default_rng(3).normal(size=(4, 6, 6, 3)).astype("float32")
IDS = np.random.default_rng(4).integers(0, 10, size=(4, 5))


def _models():
    """(name, model, inputs) -- the cases run against Keras 3.15."""
    return {
        "dense": (X2, [kerasish.Input((6,)),
                       layers.Dense(3, lora_rank=2, lora_alpha=8)]),
        "einsum": (X3, [kerasish.Input((7, 3)), layers.EinsumDense(
            "abc,cd->abd", (7, 4), bias_axes="d", lora_rank=2,
            lora_alpha=6)]),
        "emb": (IDS, [kerasish.Input((5,), dtype="int32"),
                      layers.Embedding(10, 4, lora_rank=3, lora_alpha=6)]),
        "conv2d": (X4, [kerasish.Input((6, 6, 3)), layers.Conv2D(
            5, 3, padding="same", lora_rank=2, lora_alpha=1)]),
    }


def _set_weights(model, seed=0, scale=0.3):
    rng = np.random.default_rng(seed)
    for w in model.weights:
        w.assign(rng.normal(0, scale, tuple(w.shape)).astype(w.dtype))


# Loss of 3 full-batch SGD(0.1) steps from `_set_weights` weights towards
# targets `normal(size=out.shape)` of `default_rng(9)`: Keras 3.15 (JAX).
KERAS_LOSSES = {
    "dense": [1.2812049388885498, 1.2600399255752563, 1.2415590286254883],
    "einsum": [1.4575096368789673, 1.299466848373413, 1.2181116342544556],
    "emb": [0.9617794156074524, 0.9588109850883484, 0.9559236764907837],
    "conv2d": [2.814168691635132, 2.786628007888794, 2.7611095905303955],
}


@pytest.mark.parametrize("name", sorted(KERAS_LOSSES))
def test_training_matches_keras_and_freezes_the_base_weight(name):
    x, stack = _models()[name]
    model = kerasish.Sequential(stack)
    _set_weights(model)
    layer = model.layers[0]
    base = getattr(layer, f"_{layer._lora_base}").numpy()
    y = np.random.default_rng(9).normal(
        size=model.predict(x, verbose=0).shape).astype("float32")
    model.compile(kerasish.optimizers.SGD(0.1), "mse")
    history = model.fit(x, y, epochs=3, batch_size=4, shuffle=False,
                        verbose=0)
    np.testing.assert_allclose(history.history["loss"], KERAS_LOSSES[name],
                               rtol=1e-5)
    np.testing.assert_array_equal(
        getattr(layer, f"_{layer._lora_base}").numpy(), base)


def test_weights_order_names_and_trainability_are_keras():
    layer = layers.Dense(3, lora_rank=2)
    layer.build((None, 6))
    assert [(w.path, w.shape, w.trainable) for w in layer.weights] == [
        ("dense/kernel", (6, 3), False), ("dense/bias", (3,), True),
        ("dense/lora_kernel_a", (6, 2), True),
        ("dense/lora_kernel_b", (2, 3), True)]
    assert [w.name for w in layer.non_trainable_weights] == ["kernel"]
    assert [w.dtype for w in layer.weights[2:]] == ["float32", "float32"]
    emb = layers.Embedding(10, 4, lora_rank=3)
    emb.build()
    assert [w.shape for w in emb.weights] == [(10, 4), (10, 3), (3, 4)]
    conv = layers.Conv2D(5, (3, 2), lora_rank=2)
    conv.build((None, 8, 8, 3))
    assert [w.shape for w in conv.trainable_weights] == [
        (5,), (3, 2, 3, 2), (2, 5)]


def test_merged_kernel_is_base_plus_scaled_low_rank_update():
    layer = layers.EinsumDense("ab,bc->ac", 3, lora_rank=2, lora_alpha=6)
    layer.build((None, 4))
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(4, 2)), rng.normal(size=(2, 3))
    layer.lora_kernel_a.assign(a)
    layer.lora_kernel_b.assign(b)
    expected = layer._kernel.numpy() + 3.0 * a @ b
    np.testing.assert_allclose(layer.kernel.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(layer(X2[:, :4]).numpy(),
                               X2[:, :4] @ expected, rtol=1e-5, atol=1e-6)


def test_new_adapters_leave_outputs_unchanged():
    layer = layers.Conv1D(4, 3)
    before = layer(X3).numpy()
    layer.enable_lora(2)
    np.testing.assert_array_equal(layer(X3).numpy(), before)


def test_adapter_gradients_are_the_hand_derived_ones():
    layer = layers.Dense(3, use_bias=False, lora_rank=2)
    layer.build((None, 6))
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(6, 2)), rng.normal(size=(2, 3))
    layer.lora_kernel_a.assign(a)
    layer.lora_kernel_b.assign(b)
    upstream = rng.normal(size=(4, 3)).astype("float32")
    with GradientTape() as tape:
        loss = kerasish.ops.sum(layer(X2) * upstream)
    grads = tape.gradient(loss, layer.trainable_weights)
    kernel_grad = X2.T @ upstream          # d loss / d merged kernel
    np.testing.assert_allclose(grads[0].numpy(), kernel_grad @ b.T,
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[1].numpy(), a.T @ kernel_grad,
                               rtol=1e-4, atol=1e-5)


def test_embedding_adapter_gradient_reaches_looked_up_rows_only():
    layer = layers.Embedding(10, 4, lora_rank=2)
    layer.build()
    layer.lora_embeddings_b.assign(np.ones((2, 4), "float32"))
    with GradientTape() as tape:
        loss = kerasish.ops.sum(layer(np.array([[1, 3, 3]])))
    grad_a = kerasish.ops.convert_to_numpy(
        tape.gradient(loss, layer.lora_embeddings_a))
    expected = np.zeros((10, 2), "float32")
    expected[1], expected[3] = 4.0, 8.0    # rows x count x sum over B
    np.testing.assert_allclose(grad_a, expected)


def test_weights_file_holds_the_merged_kernel_only(tmp_path):
    model = kerasish.Sequential([kerasish.Input((6,)),
                                 layers.Dense(3, lora_rank=2)])
    _set_weights(model)
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    with h5py.File(path) as f:
        assert sorted(f["layers/dense/vars"]) == ["0", "1"]
        np.testing.assert_allclose(f["layers/dense/vars/0"][()],
                                   model.layers[0].kernel.numpy())
    plain = kerasish.Sequential([kerasish.Input((6,)), layers.Dense(3)])
    plain.load_weights(path)
    np.testing.assert_allclose(plain.predict(X2, verbose=0),
                               model.predict(X2, verbose=0), rtol=1e-6)
    model.load_weights(path)     # base gets the merged kernel, adapters 0
    layer = model.layers[0]
    assert not layer.lora_kernel_a.numpy().any()
    np.testing.assert_allclose(layer._kernel.numpy(),
                               plain.layers[0].kernel.numpy())


def test_keras_file_round_trip_keeps_lora_and_outputs(tmp_path):
    model = kerasish.Sequential([kerasish.Input((7, 3)),
                                 layers.Conv1D(4, 3, lora_rank=2,
                                               lora_alpha=4)])
    _set_weights(model)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    layer = loaded.layers[0]
    assert layer.lora_enabled and (layer.lora_rank, layer.lora_alpha) == (
        2, 4)
    config = layer.get_config()
    assert (config["lora_rank"], config["lora_alpha"]) == (2, 4)
    np.testing.assert_allclose(loaded.predict(X3, verbose=0),
                               model.predict(X3, verbose=0), rtol=1e-5,
                               atol=1e-6)


def test_built_dense_and_embedding_drop_lora_alpha_as_keras():
    # Keras's Dense/Embedding build call `enable_lora(rank)`; EinsumDense
    # and the convolutions pass `lora_alpha` on.
    dense = layers.Dense(3, lora_rank=2, lora_alpha=8)
    assert dense.lora_alpha == 8
    dense.build((None, 4))
    assert dense.lora_alpha == 2
    conv = layers.Conv1D(3, 2, lora_rank=2, lora_alpha=8)
    conv.build((None, 5, 2))
    assert conv.lora_alpha == 8
    later = layers.Dense(3)
    later.build((None, 4))
    later.enable_lora(4, lora_alpha=2, a_initializer="ones")
    assert later.lora_alpha == 2 and later.get_config()["lora_alpha"] == 2
    assert (later.lora_kernel_a.numpy() == 1).all()
    assert "lora_rank" not in layers.Dense(3).get_config()


def test_only_trainable_weights_are_regularized():
    layer = layers.Dense(3, kernel_regularizer="l2", lora_rank=2)
    layer.build((None, 2))
    layer.lora_kernel_b.assign(np.ones((2, 3), "float32"))
    expected = 0.01 * sum(float((w.numpy() ** 2).sum())
                          for w in layer.weights[2:])
    assert len(layer.losses) == 2     # the adapters, not the frozen kernel
    np.testing.assert_allclose(sum(float(l) for l in layer.losses),
                               expected, rtol=1e-6)


@pytest.mark.parametrize("make, match", [
    (lambda: layers.Dense(3), "isn't yet built"),
    (lambda: _built(layers.Dense(3, kernel_constraint="non_neg")),
     "kernel_constraint"),
    (lambda: _built(layers.Embedding(4, 2, embeddings_constraint="non_neg")),
     "embeddings_constraint"),
    (lambda: _built(layers.Dense(3, lora_rank=1)), "already enabled"),
    (lambda: _quantized(layers.Dense(3)), "quantized"),
])
def test_enable_lora_refusals(make, match):
    layer = make()
    with pytest.raises(ValueError, match=match):
        layer.enable_lora(2)


def test_invalid_rank_names_the_argument():
    with pytest.raises(ValueError, match="lora_rank=0"):
        layers.Dense(3, lora_rank=0)


def _built(layer):
    layer.build((None, 4)) if not isinstance(layer, layers.Embedding) \
        else layer.build()
    return layer


def _quantized(layer):
    _built(layer).quantize("int8")
    return layer


def test_quantizing_a_lora_layer_is_refused_not_silently_unmerged():
    layer = _built(layers.Dense(3, lora_rank=2))
    with pytest.raises(ValueError, match="LoRA enabled"):
        layer.quantize("int8")
    assert layer.quantization_mode is None and layer.lora_enabled
