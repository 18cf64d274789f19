"""Embedding: lookups, masks, row-sparse gradients, configs, bad input."""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend import GradientTape, IndexedSlices
from tests.layers.harness import run_layer_test


def test_embedding_layer_harness(tmp_path):
    run_layer_test(layers.Embedding, {"input_dim": 7, "output_dim": 3},
                   input_shape=(4, 5), input_dtype="int32",
                   expected_output_shape=(4, 5, 3),
                   expected_num_trainable_weights=1, tmp_path=tmp_path)


def test_lookup_values_and_any_integer_or_float_dtype():
    table = np.arange(12, dtype="float32").reshape(4, 3)
    layer = layers.Embedding(4, 3, weights=[table])
    for dtype in ("int8", "uint16", "int32", "int64", "float32"):
        ids = np.array([[3, 0], [1, 1]], dtype)
        np.testing.assert_array_equal(layer(ids).numpy(),
                                      table[ids.astype(int)])


def test_default_initializer_is_uniform_005():
    layer = layers.Embedding(2000, 8)
    layer.build()
    w = layer.embeddings.numpy()
    assert w.shape == (2000, 8) and np.abs(w).max() <= 0.05
    assert 0.027 < w.std() < 0.031    # uniform(-0.05, 0.05): 0.0289
    config = layer.get_config()["embeddings_initializer"]
    assert config["class_name"] == "RandomUniform"
    assert config["config"]["minval"] == -0.05


def test_mask_zero_emits_a_mask():
    layer = layers.Embedding(5, 2, mask_zero=True)
    out = layer(np.array([[1, 0, 3, 0]]))
    np.testing.assert_array_equal(out._keras_mask.numpy(),
                                  [[True, False, True, False]])
    assert layers.Embedding(5, 2)(np.array([[0, 1]]))._keras_mask is None


def test_gradient_to_the_table_is_row_sparse():
    layer = layers.Embedding(10000, 4)
    ids = np.array([[5], [9], [5]])
    with GradientTape() as tape:
        loss = kerasish.ops.sum(layer(ids) * 2.0)
    grad = tape.gradient(loss, layer.embeddings)
    assert isinstance(grad, IndexedSlices)
    assert grad.values.shape == (3, 4)
    dense = np.asarray(grad)
    np.testing.assert_array_equal(dense[5], [4.0] * 4)
    np.testing.assert_array_equal(dense[9], [2.0] * 4)
    assert np.count_nonzero(dense) == 8


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_sparse_update_equals_the_dense_update(optimizer):
    ids = np.array([[1], [3], [1]])
    y = np.ones((3, 1, 2), "float32")
    models = []
    for _ in range(2):
        kerasish.utils.set_random_seed(0)
        inp = kerasish.Input((1,), dtype="int32")
        models.append(kerasish.Model(inp, layers.Embedding(6, 2)(inp)))
    dense_table = models[1].layers[1].embeddings
    for m in models:
        m.compile(optimizer=optimizer, loss="mse")
    models[0].fit(ids, y, epochs=2, batch_size=3, verbose=0)
    # The reference: the same step with a dense gradient table.
    opt = kerasish.optimizers.get(optimizer)
    for _ in range(2):
        with GradientTape() as tape:
            out = models[1](ids)
            loss = kerasish.ops.mean(kerasish.ops.square(out - y))
        g = np.asarray(tape.gradient(loss, dense_table))
        opt.apply([g], [dense_table])
    np.testing.assert_allclose(models[0].layers[1].embeddings.numpy(),
                               dense_table.numpy(), rtol=1e-6, atol=1e-7)


def test_config_matches_keras_keys():
    config = layers.Embedding(10, 3).get_config()
    assert set(config) == {
        "name", "trainable", "dtype", "input_dim", "output_dim",
        "embeddings_initializer", "embeddings_regularizer",
        "activity_regularizer", "embeddings_constraint", "mask_zero",
        "quantization_config"}


def test_input_length_is_accepted_with_a_warning():
    with pytest.warns(UserWarning, match="input_length"):
        layer = layers.Embedding(10, 3, input_length=4)
    assert "input_length" not in layer.get_config()


@pytest.mark.parametrize("kwargs,match", [
    ({"input_dim": 0, "output_dim": 3}, "input_dim"),
    ({"input_dim": 5, "output_dim": -1}, "output_dim"),
    ({"input_dim": 2.5, "output_dim": 3}, "input_dim"),
    ({"input_dim": 5, "output_dim": True}, "output_dim")])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.Embedding(**kwargs)


def test_out_of_range_ids_raise():
    layer = layers.Embedding(4, 2)
    with pytest.raises(ValueError, match=r"outside \[0, 4\)"):
        layer(np.array([[4]]))
    with pytest.raises(ValueError, match="Embedding"):
        layer(np.array([[-1]]))


def test_weights_argument_checks_shape():
    with pytest.raises(ValueError, match="shape"):
        layers.Embedding(3, 2, weights=np.zeros((2, 2)))
