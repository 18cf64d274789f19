"""Pooling layers: the standard layer checks, hand-derived values, masks
and bad input. (Keras parity: test_conv_reference.py.)"""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test

HARNESS_CASES = [
    (layers.MaxPooling1D, dict(pool_size=3, strides=2, padding="same"),
     (2, 7, 3), (2, 4, 3)),
    (layers.MaxPooling2D, dict(), (2, 5, 4, 3), (2, 2, 2, 3)),
    (layers.MaxPooling3D, dict(pool_size=2, strides=1,
                               data_format="channels_first"),
     (1, 2, 3, 4, 3), (1, 2, 2, 3, 2)),
    (layers.AveragePooling1D, dict(pool_size=2), (2, 5, 3), (2, 2, 3)),
    (layers.AveragePooling2D, dict(pool_size=(2, 3), strides=1,
                                   padding="same"),
     (2, 4, 5, 2), (2, 4, 5, 2)),
    (layers.AveragePooling3D, dict(pool_size=2, padding="same"),
     (1, 3, 4, 5, 2), (1, 2, 2, 3, 2)),
    (layers.GlobalMaxPooling1D, dict(), (2, 5, 3), (2, 3)),
    (layers.GlobalMaxPooling2D, dict(keepdims=True), (2, 4, 5, 3),
     (2, 1, 1, 3)),
    (layers.GlobalMaxPooling3D, dict(data_format="channels_first"),
     (1, 3, 2, 3, 4), (1, 3)),
    (layers.GlobalAveragePooling1D, dict(data_format="channels_first",
                                         keepdims=True),
     (2, 3, 5), (2, 3, 1)),
    (layers.GlobalAveragePooling2D, dict(), (2, 4, 5, 3), (2, 3)),
    (layers.GlobalAveragePooling3D, dict(keepdims=True), (1, 2, 3, 4, 2),
     (1, 1, 1, 1, 2)),
    (layers.AdaptiveAveragePooling1D, dict(output_size=3), (2, 7, 2),
     (2, 3, 2)),
    (layers.AdaptiveMaxPooling1D, dict(output_size=(4,)), (2, 9, 2),
     (2, 4, 2)),
    (layers.AdaptiveAveragePooling2D, dict(output_size=(2, 3)),
     (2, 5, 7, 2), (2, 2, 3, 2)),
    (layers.AdaptiveMaxPooling2D, dict(output_size=2,
                                       data_format="channels_first"),
     (2, 3, 5, 4), (2, 3, 2, 2)),
    (layers.AdaptiveAveragePooling3D, dict(output_size=2), (1, 3, 4, 5, 2),
     (1, 2, 2, 2, 2)),
    (layers.AdaptiveMaxPooling3D, dict(output_size=(1, 2, 3)),
     (1, 3, 4, 5, 2), (1, 1, 2, 3, 2)),
]


@pytest.mark.parametrize("cls, kwargs, shape, out_shape", HARNESS_CASES,
                         ids=[c[0].__name__ for c in HARNESS_CASES])
def test_pooling_layer_harness(cls, kwargs, shape, out_shape):
    run_layer_test(cls, kwargs, input_shape=shape,
                   expected_output_shape=out_shape,
                   expected_num_trainable_weights=0)


def test_max_and_average_pooling_hand_computed():
    x = np.array([1, 5, 2, 8, 3], "float32").reshape(1, 5, 1)
    np.testing.assert_array_equal(layers.MaxPooling1D()(x).numpy().ravel(),
                                  [5, 8])
    np.testing.assert_array_equal(
        layers.MaxPooling1D(padding="same")(x).numpy().ravel(), [5, 8, 3])
    # "same": the last window covers only the 3 (padding not counted).
    np.testing.assert_array_equal(
        layers.AveragePooling1D(2, padding="same")(x).numpy().ravel(),
        [3, 5, 3])
    np.testing.assert_allclose(
        layers.AveragePooling1D(3, strides=1, padding="same")(x).numpy()
        .ravel(), [3, 8 / 3, 5, 13 / 3, 5.5], rtol=1e-6)


def test_global_pooling_hand_computed():
    x = np.array([[[1, -2], [3, 4], [-5, 0]]], "float32")
    np.testing.assert_array_equal(layers.GlobalMaxPooling1D()(x).numpy(),
                                  [[3, 4]])
    np.testing.assert_allclose(layers.GlobalAveragePooling1D()(x).numpy(),
                               [[-1 / 3, 2 / 3]], rtol=1e-6)


def test_global_average_pooling1d_averages_unmasked_steps():
    x = np.array([[[1.0], [3.0], [100.0]], [[2.0], [4.0], [6.0]]],
                 "float32")
    mask = np.array([[True, True, False], [True, True, True]])
    y = layers.GlobalAveragePooling1D()(x, mask=mask).numpy()
    np.testing.assert_allclose(y, [[2.0], [4.0]])
    inputs = kerasish.Input((3,), dtype="int32")
    emb = layers.Embedding(10, 2, mask_zero=True)
    pooled = layers.GlobalAveragePooling1D()(emb(inputs))
    model = kerasish.Model(inputs, pooled)
    ids = np.array([[1, 2, 0]])
    table = emb.get_weights()[0]
    np.testing.assert_allclose(model.predict(ids, verbose=0),
                               table[[1, 2]].mean(axis=0, keepdims=True),
                               rtol=1e-6)


def test_pooling_config_follows_keras():
    config = layers.MaxPooling2D(3, padding="same").get_config()
    assert {k: config[k] for k in ("pool_size", "padding", "strides",
                                   "data_format")} == {
        "pool_size": (3, 3), "padding": "same", "strides": (3, 3),
        "data_format": "channels_last"}
    assert layers.MaxPool2D is layers.MaxPooling2D
    assert layers.GlobalAvgPool3D is layers.GlobalAveragePooling3D


BAD = [
    (lambda: layers.MaxPooling2D(0), "pool_size"),
    (lambda: layers.MaxPooling2D((2, 2, 2)), "pool_size"),
    (lambda: layers.AveragePooling1D(2, strides=0), "strides"),
    (lambda: layers.MaxPooling1D(padding="causal"), "padding"),
    (lambda: layers.GlobalMaxPooling2D(keepdims="yes"), "keepdims"),
]


@pytest.mark.parametrize("make, message", BAD)
def test_bad_constructor_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_adaptive_pooling_hand_computed():
    # Windows [floor(i L / o), ceil((i + 1) L / o)) on L = 5, o = 3:
    # [0, 2), [1, 4), [3, 5).
    x = np.array([1, 5, 2, 8, 3], "float32").reshape(1, 5, 1)
    np.testing.assert_allclose(
        layers.AdaptiveAveragePooling1D(3)(x).numpy().ravel(),
        [3, 5, 5.5])
    np.testing.assert_array_equal(
        layers.AdaptiveMaxPooling1D(3)(x).numpy().ravel(), [5, 8, 8])
    # More outputs than inputs: windows overlap and repeat entries.
    np.testing.assert_array_equal(
        layers.AdaptiveMaxPooling1D(7)(x).numpy().ravel(),
        [1, 5, 5, 2, 8, 8, 3])


def test_adaptive_pooling_bad_output_size():
    with pytest.raises(TypeError, match="output_size"):
        layers.AdaptiveMaxPooling2D((2, 2, 2))
    with pytest.raises(ValueError, match="length 1"):
        layers.AdaptiveAveragePooling1D((2, 2))
    with pytest.raises(ValueError, match="positive"):
        layers.AdaptiveAveragePooling3D(0)


def test_pool_larger_than_input_and_wrong_rank():
    with pytest.raises(ValueError, match=r"'max_pooling2d' \(MaxPooling2D\)"
                                         r".*zero or negative"):
        layers.MaxPooling2D(3)(np.ones((1, 2, 2, 1), "float32"))
    with pytest.raises(ValueError, match="zero or negative"):
        layers.AveragePooling1D(4)(kerasish.Input((3, 2)))
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        layers.MaxPooling2D()(np.ones((1, 4, 4), "float32"))
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.GlobalAveragePooling1D()(np.ones((1, 4, 4, 1), "float32"))


def test_masked_global_average_ignores_nan_and_inf_at_padded_steps():
    # As Keras (`where`, not a product with the mask): a non-finite value
    # at a masked step reaches neither the output nor the gradient.
    layer = layers.GlobalAveragePooling1D()
    x = kerasish.Variable(np.array([[[1.0, 2.0], [np.inf, np.nan]]],
                                   "float32"))
    mask = np.array([[True, False]])
    with kerasish.GradientTape() as tape:
        y = layer(x, mask=mask)
        total = kerasish.ops.sum(y)
    np.testing.assert_array_equal(kerasish.ops.convert_to_numpy(y),
                                  [[1.0, 2.0]])
    grad = kerasish.ops.convert_to_numpy(tape.gradient(total, x))
    np.testing.assert_array_equal(grad, [[[1.0, 1.0], [0.0, 0.0]]])
