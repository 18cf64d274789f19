"""GroupQueryAttention: values against Keras 3.15.1 with the same weights
(tests/fixtures/h13/make_reference.py), weights, config, masks, gradients."""
import os

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.saving import serialization_lib
from kerasish.utils import check_grads

REF = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                           "h13", "reference.npz"))


def close(actual, expected, atol=1e-5):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-5,
                               atol=atol)


def keras_layer(case, **kwargs):
    r = {n[len(case) + 1:]: REF[n] for n in REF.files
         if n.startswith(case + "/")}
    layer = layers.GroupQueryAttention(head_dim=3, num_query_heads=4,
                                       num_key_value_heads=2, **kwargs)
    layer(r["q"], r["v"], r["k"])
    layer.set_weights([r[f"w{i}"] for i in range(len(layer.weights))])
    return layer, r


@pytest.mark.parametrize("case, kwargs", [
    ("gqa", {}), ("gqa_gate", {"use_gate": True, "use_bias": False})])
def test_values_match_keras(case, kwargs):
    layer, r = keras_layer(case, **kwargs)
    q, v, k = r["q"], r["v"], r["k"]
    close(layer(q, v, k), r["out"])
    out, scores = layer(q, v, k, return_attention_scores=True)
    close(out, r["out_scores"])
    close(scores, r["scores"])
    close(layer(q, v, k, use_causal_mask=True), r["causal"])
    close(layer(q, v, k, attention_mask=r["amask"]), r["masked"])
    close(layer(q, q), r["self_attention"])


def test_query_and_value_masks_match_keras():
    # A masked query row is fully masked: uniform weights (Keras's fused
    # path), not zeros.
    layer, r = keras_layer("gqa")
    out = layer(r["q"], r["v"], r["k"], query_mask=r["qmask"],
                value_mask=r["vmask"], use_causal_mask=True)
    close(out, r["qv_masked"])


def test_keras_masks_of_the_inputs_are_used():
    layer, r = keras_layer("gqa")
    q = kerasish.ops.convert_to_tensor(r["q"])
    v = kerasish.ops.convert_to_tensor(r["v"])
    q._keras_mask = kerasish.ops.convert_to_tensor(r["qmask"])
    v._keras_mask = kerasish.ops.convert_to_tensor(r["vmask"])
    explicit = layer(r["q"], r["v"], query_mask=r["qmask"],
                     value_mask=r["vmask"])
    close(layer(q, v), np.asarray(explicit))


def test_weights_shapes_names_and_config_as_keras():
    layer = layers.GroupQueryAttention(4, 4, 2, use_gate=True)
    layer(np.ones((2, 3, 8), "float32"), np.ones((2, 5, 8), "float32"))
    assert layer.name == "grouped_query_attention"
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("grouped_query_attention/query/kernel", (8, 4, 4)),
        ("grouped_query_attention/query/bias", (4, 4)),
        ("grouped_query_attention/key/kernel", (8, 2, 4)),
        ("grouped_query_attention/key/bias", (2, 4)),
        ("grouped_query_attention/gate/kernel", (8, 4, 4)),
        ("grouped_query_attention/gate/bias", (4, 4)),
        ("grouped_query_attention/value/kernel", (8, 2, 4)),
        ("grouped_query_attention/value/bias", (2, 4)),
        ("grouped_query_attention/attention_output/kernel", (4, 4, 8)),
        ("grouped_query_attention/attention_output/bias", (8,))]
    config = serialization_lib.serialize_keras_object(layer)
    assert (config["module"], config["class_name"]) == (
        "keras.layers", "GroupQueryAttention")
    assert list(config["config"]) == [
        "name", "trainable", "dtype", "head_dim", "num_query_heads",
        "num_key_value_heads", "use_bias", "use_gate", "sliding_window",
        "dropout", "kernel_initializer", "bias_initializer",
        "kernel_regularizer", "bias_regularizer", "activity_regularizer",
        "kernel_constraint", "bias_constraint", "seed"]
    clone = serialization_lib.deserialize_keras_object(config)
    assert isinstance(clone, layers.GroupQueryAttention)
    assert clone.get_config() == layer.get_config()


def test_save_and_reload_round_trip(tmp_path):
    inputs = kerasish.Input((5, 8))
    out = layers.GroupQueryAttention(2, 4, 1)(inputs, inputs,
                                             use_causal_mask=True)
    model = kerasish.Model(inputs, out)
    x = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(
        "float32")
    path = str(tmp_path / "gqa.keras")
    model.save(path)
    again = kerasish.saving.load_model(path)
    close(again.predict(x, verbose=0), model.predict(x, verbose=0))


def test_gradients_float64():
    layer = layers.GroupQueryAttention(2, 4, 2, dtype="float64")
    rng = np.random.default_rng(0)
    q, v = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4))
    layer(q, v)
    mask = rng.random((2, 3, 5)) > 0.3

    def fused(q, v):
        return layer(q, v, attention_mask=mask)

    def with_scores(q, v):
        return layer(q, v, attention_mask=mask,
                     return_attention_scores=True)[0]
    check_grads(fused, [q, v], variables=layer.trainable_weights)
    check_grads(with_scores, [q, v], variables=layer.trainable_weights)


def test_multi_query_and_multi_head_extremes_train():
    x = np.random.default_rng(1).standard_normal((8, 4, 6)).astype(
        "float32")
    for kv_heads in (1, 4):
        inputs = kerasish.Input((4, 6))
        out = layers.GroupQueryAttention(3, 4, kv_heads, dropout=0.1,
                                         seed=1)(inputs, inputs)
        model = kerasish.Model(inputs, out)
        model.compile("sgd", "mse")
        history = model.fit(x, x, epochs=2, verbose=0)
        assert np.isfinite(history.history["loss"]).all()


def test_dropout_only_in_training():
    layer = layers.GroupQueryAttention(2, 2, 1, dropout=0.5, seed=3)
    x = np.random.default_rng(2).standard_normal((2, 4, 4)).astype(
        "float32")
    inference = np.asarray(layer(x, x))
    assert np.allclose(np.asarray(layer(x, x)), inference)
    assert not np.allclose(np.asarray(layer(x, x, training=True)),
                           inference)


def test_sliding_window_restricts_scores():
    layer = layers.GroupQueryAttention(2, 2, 1, sliding_window=2)
    x = np.ones((1, 5, 4), "float32")
    _, scores = layer(x, x, return_attention_scores=True)
    rows, cols = np.indices((5, 5))
    assert np.all(np.asarray(scores)[0, :, np.abs(rows - cols) >= 2] == 0)


def test_symbolic_shapes():
    q, v = kerasish.Input((3, 8)), kerasish.Input((5, 8))
    out, scores = layers.GroupQueryAttention(4, 4, 2)(
        q, v, return_attention_scores=True)
    assert tuple(out.shape) == (None, 3, 8)
    assert tuple(scores.shape) == (None, 4, 3, 5)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_key_value_heads": 3}, "must be divisible by"),
    ({"head_dim": 0}, "Received: head_dim=0"),
    ({"num_query_heads": 2.5}, "num_query_heads=2.5"),
    ({"sliding_window": -1}, "sliding_window=-1"),
    ({"flash_attention": True, "dropout": 0.2}, "Dropout is not supported"),
])
def test_bad_arguments(kwargs, message):
    args = dict(head_dim=2, num_query_heads=4, num_key_value_heads=2)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        layers.GroupQueryAttention(**args)


def test_flash_attention_true_raises_on_call():
    layer = layers.GroupQueryAttention(2, 2, 1, flash_attention=True)
    x = np.ones((1, 3, 4), "float32")
    with pytest.raises(ValueError, match="Flash attention is not supported"):
        layer(x, x)
    with pytest.raises(ValueError, match="Returning attention scores"):
        layer(x, x, return_attention_scores=True)


def test_compute_output_shape_checks_dims():
    layer = layers.GroupQueryAttention(2, 2, 1)
    assert layer.compute_output_shape((2, 3, 4), (2, 5, 4)) == (2, 3, 4)
    with pytest.raises(ValueError, match="last dimension"):
        layer.compute_output_shape((2, 3, 4), (2, 5, 6))
    with pytest.raises(ValueError, match="except the last one"):
        layer.compute_output_shape((2, 3, 4), (2, 5, 4), (2, 6, 4))
