"""ReversibleEmbedding: values against Keras 3.15.1 with the same weights
(tests/fixtures/h13/make_reference.py), weights, config, masks, gradients."""
import os

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.utils import check_grads
from tests.layers.harness import run_layer_test

REF = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                           "h13", "reference.npz"))


def close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-5,
                               atol=1e-6)


@pytest.mark.parametrize("case, kwargs", [
    ("rev_tied", {}),
    ("rev_untied", {"tie_weights": False, "logit_soft_cap": 2.0})])
def test_values_match_keras(case, kwargs):
    layer = layers.ReversibleEmbedding(7, 4, **kwargs)
    layer(REF[f"{case}/ids"])
    layer.set_weights([REF[f"{case}/w{i}"]
                       for i in range(len(layer.weights))])
    close(layer(REF[f"{case}/ids"]), REF[f"{case}/embedded"])
    close(layer(REF[f"{case}/hidden"], reverse=True), REF[f"{case}/logits"])


def test_tied_reverse_is_the_transposed_table():
    layer = layers.ReversibleEmbedding(5, 3)
    hidden = np.arange(6, dtype="float32").reshape(2, 3) / 10
    layer(np.array([0]))
    table = np.asarray(layer.embeddings)
    close(layer(hidden, reverse=True), hidden @ table.T)


def test_weights_and_config_as_keras():
    layer = layers.ReversibleEmbedding(7, 4, tie_weights=False,
                                       mask_zero=True)
    layer(np.array([[0, 1, 2]]))
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("reversible_embedding/embeddings", (7, 4)),
        ("reversible_embedding/reverse_embeddings", (4, 7))]
    assert list(layer.get_config()) == [
        "name", "trainable", "dtype", "input_dim", "output_dim",
        "embeddings_initializer", "embeddings_regularizer",
        "activity_regularizer", "embeddings_constraint", "mask_zero",
        "quantization_config", "tie_weights", "reverse_dtype",
        "logit_soft_cap"]
    clone = layers.ReversibleEmbedding.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


@pytest.mark.parametrize("tie_weights", [True, False])
def test_layer_harness(tie_weights, tmp_path):
    run_layer_test(layers.ReversibleEmbedding,
                   {"input_dim": 6, "output_dim": 3,
                    "tie_weights": tie_weights},
                   input_shape=(2, 4), input_dtype="int32",
                   expected_output_shape=(2, 4, 3),
                   expected_num_trainable_weights=1 if tie_weights else 2,
                   grad_wrt_input=False, tmp_path=tmp_path,
                   # An untied lookup leaves `reverse_embeddings` without a
                   # gradient (the optimizer warns); training is covered by
                   # the language-model test.
                   run_training=tie_weights)


@pytest.mark.parametrize("tie_weights", [True, False])
def test_reverse_gradients_float64(tie_weights):
    layer = layers.ReversibleEmbedding(5, 3, tie_weights=tie_weights,
                                       logit_soft_cap=1.5, dtype="float64")
    layer(np.array([1]))
    hidden = np.random.default_rng(0).standard_normal((2, 4, 3))
    check_grads(lambda h: layer(h, reverse=True), [hidden],
                variables=layer.trainable_weights)


def test_mask_on_lookup_only():
    layer = layers.ReversibleEmbedding(7, 4, mask_zero=True)
    hidden = layer(np.array([[0, 1, 2]]))
    np.testing.assert_array_equal(np.asarray(hidden._keras_mask),
                                  [[False, True, True]])
    assert layer(hidden, reverse=True)._keras_mask is None


def test_reverse_dtype_and_soft_cap():
    layer = layers.ReversibleEmbedding(7, 4, reverse_dtype="float16",
                                       logit_soft_cap=0.5)
    logits = layer(np.ones((1, 2, 4), "float32") * 10, reverse=True)
    assert logits.dtype == np.float16
    assert np.all(np.abs(np.asarray(logits, "float32")) <= 0.5)


def test_language_model_trains_through_both_directions():
    tokens = kerasish.Input((5,), dtype="int32")
    embed = layers.ReversibleEmbedding(11, 8)
    logits = embed(layers.Dense(8)(embed(tokens)), reverse=True)
    model = kerasish.Model(tokens, logits)
    assert tuple(logits.shape) == (None, 5, 11)
    model.compile("adam", kerasish.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    ids = np.random.default_rng(0).integers(0, 11, size=(32, 5))
    history = model.fit(ids, ids, epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="logit_soft_cap=0"):
        layers.ReversibleEmbedding(5, 3, logit_soft_cap=0)
    with pytest.raises(ValueError, match="input_dim=0"):
        layers.ReversibleEmbedding(0, 3)
    layer = layers.ReversibleEmbedding(5, 3)
    with pytest.raises(ValueError, match="output_dim=3"):
        layer(np.ones((2, 4), "float32"), reverse=True)
