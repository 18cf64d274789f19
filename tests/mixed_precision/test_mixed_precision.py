"""Mixed precision end to end: float16 compute with float32 variables,
against Keras 3.15.1 (JAX) outputs in
tests/fixtures/quantization/mixed_reference.npz (make_mixed_reference.py).
"""
import os

import numpy as np
import pytest

import kerasish
from kerasish import layers

REF = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                           "quantization", "mixed_reference.npz"))

MAKERS = {
    "dense": lambda: layers.Dense(4, activation="gelu"),
    "conv2d": lambda: layers.Conv2D(3, 3, padding="same"),
    "lstm": lambda: layers.LSTM(3, return_sequences=True),
    "bn": lambda: layers.BatchNormalization(),
    "ln": lambda: layers.LayerNormalization(),
    "emb": lambda: layers.Embedding(10, 3),
    "mha": lambda: layers.MultiHeadAttention(2, 3),
}


@pytest.fixture
def mixed_float16():
    kerasish.config.set_dtype_policy("mixed_float16")
    yield
    kerasish.config.set_dtype_policy(None)


@pytest.mark.parametrize("key", sorted(MAKERS))
def test_layer_outputs_match_keras(key, mixed_float16):
    layer = MAKERS[key]()
    x = REF[f"{key}_x"]
    args = (x, x) if key == "mha" else (x,)
    layer(*args)
    count = len(layer.get_weights())
    layer.set_weights([REF[f"{key}_w{i}"] for i in range(count)])
    y = layer(*args)
    assert y.dtype == np.float16
    assert all(w.dtype == np.float32 for w in layer.weights)
    np.testing.assert_allclose(y.numpy().astype("float32"), REF[f"{key}_y"],
                               rtol=1e-2, atol=1e-2)


def test_fit_matches_keras_with_automatic_loss_scaling(mixed_float16):
    inputs = kerasish.Input((6,))
    h = layers.Dense(8, activation="relu")(inputs)
    h = layers.BatchNormalization()(h)
    outputs = layers.Dense(3, activation="softmax", dtype="float32")(h)
    model = kerasish.Model(inputs, outputs)
    model.set_weights([REF[f"fit_w{i}"] for i in range(8)])
    model.compile(optimizer=kerasish.optimizers.SGD(0.1),
                  loss="sparse_categorical_crossentropy")
    assert isinstance(model.optimizer,
                      kerasish.mixed_precision.LossScaleOptimizer)
    history = model.fit(REF["fit_x"], REF["fit_y"], batch_size=4, epochs=2,
                        shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], REF["fit_loss"],
                               rtol=1e-3)
    np.testing.assert_allclose(model.layers[1].kernel.numpy(),
                               REF["fit_kernel"], atol=2e-3)
    assert model.layers[1].kernel.dtype == np.float32
    # Overflowing steps are skipped and halve the scale, as in Keras.
    assert float(model.optimizer.dynamic_scale) == float(REF["fit_scale"])
    assert int(model.optimizer.iterations) == int(REF["fit_iterations"])


def test_gradients_reach_float32_variables_in_float32(mixed_float16):
    layer = layers.Dense(3)
    x = np.ones((2, 4), "float32")
    with kerasish.GradientTape() as tape:
        y = layer(x)
        loss = kerasish.ops.sum(kerasish.ops.cast(y, "float32"))
    grads = tape.gradient(loss, layer.trainable_weights)
    assert y.dtype == np.float16
    assert [g.dtype for g in grads] == [np.float32, np.float32]
    np.testing.assert_allclose(grads[0].numpy(), np.full((4, 3), 2.0))


def test_autocast_rules(mixed_float16):
    x = np.ones((2, 3), "float32")
    # A float32 layer inside a mixed model reads its variables uncast.
    inner = layers.Dense(2, dtype="float32")
    outer = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(3),
                                 inner])
    assert outer(x).dtype == np.float32
    # Variables created with autocast=False are never cast.
    norm = layers.BatchNormalization()
    norm(x, training=True)
    assert norm.moving_mean.dtype == np.float32
    assert norm(x).dtype == np.float16
    # Outside a layer call nothing is cast.
    assert (layers.Dense(2)(x) + 0).dtype == np.float16
    assert kerasish.ops.convert_to_tensor(inner.kernel).dtype == np.float32


def test_compile_config_keeps_the_optimizer_as_given(mixed_float16):
    # As Keras: `optimizer` is wrapped, the compile config (and so a saved
    # file's) holds the Adam the user passed; compiling again wraps again.
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(2)])
    model.compile("adam", "mse")
    assert isinstance(model.optimizer, kerasish.optimizers.LossScaleOptimizer)
    assert model.get_compile_config()["optimizer"]["class_name"] == "Adam"
    clone = kerasish.models.clone_model(model)
    clone.compile_from_config(model.get_compile_config())
    assert isinstance(clone.optimizer, kerasish.optimizers.LossScaleOptimizer)


def test_compile_wraps_only_mixed_float16_models(mixed_float16):
    model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(1)])
    model.compile("sgd", "mse", auto_scale_loss=False)
    assert not isinstance(model.optimizer,
                          kerasish.optimizers.LossScaleOptimizer)
    kerasish.config.set_dtype_policy("float32")
    model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(1)])
    model.compile("sgd", "mse")
    assert not isinstance(model.optimizer,
                          kerasish.optimizers.LossScaleOptimizer)


def test_loss_scale_optimizer_matches_keras_dynamic_scaling():
    # Keras 3.15.1 (JAX, stateless_apply) on the same gradients printed
    # (dynamic_scale, step_counter, inner iterations, variable) per step.
    expected = [
        (8.0, 1, 1, [0.900001, -2.099999]),
        (4.0, 0, 1, [0.900001, -2.099999]),
        (2.0, 0, 1, [0.900001, -2.099999]),
        (2.0, 1, 2, [0.803484, -2.188435]),
        (4.0, 0, 3, [0.716728, -2.277829]),
        (4.0, 1, 4, [0.6311, -2.329322]),
    ]
    w = kerasish.Variable(np.array([1.0, -2.0], "float32"))
    opt = kerasish.mixed_precision.LossScaleOptimizer(
        kerasish.optimizers.Adam(0.1), initial_scale=8.0,
        dynamic_growth_steps=2)
    grads = [[8.0, 4.0], [np.inf, 1.0], [2.0, np.nan], [4.0, 4.0],
             [1.0, 2.0], [3.0, -3.0]]
    for g, (scale, counter, iterations, value) in zip(grads, expected):
        opt.apply([np.array(g, "float32")], [w])
        assert float(opt.dynamic_scale) == scale
        assert int(opt.step_counter) == counter
        assert int(opt.iterations) == iterations
        np.testing.assert_allclose(w.numpy(), value, atol=1e-6)


def test_mixed_bfloat16_trains_with_float32_variables():
    pytest.importorskip("ml_dtypes")
    kerasish.config.set_dtype_policy("mixed_bfloat16")
    try:
        model = kerasish.Sequential([kerasish.Input((4,)),
                                     layers.Dense(8, activation="relu"),
                                     layers.Dense(1, dtype="float32")])
        assert model.layers[0].compute_dtype == "bfloat16"
        x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
        y = x.sum(axis=1, keepdims=True)
        model.compile(kerasish.optimizers.Adam(0.05), "mse")
        history = model.fit(x, y, epochs=5, batch_size=8, verbose=0)
    finally:
        kerasish.config.set_dtype_policy(None)
    losses = history.history["loss"]
    assert losses[-1] < losses[0]
    assert all(w.dtype == np.float32 for w in model.weights)


def test_mixed_bfloat16_layers_compute_in_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    kerasish.config.set_dtype_policy("mixed_bfloat16")
    try:
        dense = layers.Dense(3)
        x = np.random.default_rng(1).normal(size=(2, 5)).astype("float32")
        y = dense(x)
    finally:
        kerasish.config.set_dtype_policy(None)
    assert y.dtype == ml_dtypes.bfloat16
    bf16 = ml_dtypes.bfloat16
    kernel = dense.kernel.numpy().astype(bf16).astype("float32")
    expected = (x.astype(bf16).astype("float32") @ kernel).astype(bf16)
    np.testing.assert_array_equal(np.asarray(y), expected)


def test_mixed_bfloat16_conv_pool_einsum_and_attention_stay_bfloat16():
    # Keras 3.15 gives bfloat16 outputs for all of these; numpy's GEMM
    # returns float32 for bfloat16 operands and max-pooling needs a
    # bfloat16-aware fill value.
    rng = np.random.default_rng(0)
    x4 = rng.normal(size=(2, 6, 6, 3)).astype("float32")
    x3 = rng.normal(size=(2, 6, 4)).astype("float32")
    kerasish.config.set_dtype_policy("mixed_bfloat16")
    try:
        conv = layers.Conv2D(4, 3, activation="relu")
        outputs = {
            "conv": conv(x4),
            "conv_nobias": layers.Conv2D(4, 3, use_bias=False)(x4),
            "conv_t": layers.Conv2DTranspose(2, 3, strides=2)(x4),
            "separable": layers.SeparableConv2D(2, 3)(x4),
            "max_pool": layers.MaxPooling2D(padding="same")(x4),
            "avg_pool": layers.AveragePooling2D(2)(x4),
            "einsum": layers.EinsumDense("abc,cd->abd", (6, 2))(x3),
            "mha": layers.MultiHeadAttention(2, 3)(x3, x3),
        }
    finally:
        kerasish.config.set_dtype_policy(None)
    for name, out in outputs.items():
        assert out.dtype == "bfloat16", name
    bf16 = pytest.importorskip("ml_dtypes").bfloat16
    kernel = conv.kernel.numpy().astype(bf16).astype("float32")
    reference = kerasish.ops.relu(kerasish.ops.conv(
        x4.astype(bf16).astype("float32"), kernel)).numpy() + 0
    np.testing.assert_allclose(outputs["conv"].numpy().astype("float32"),
                               reference, rtol=1e-2, atol=1e-2)
