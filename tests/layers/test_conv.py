"""Convolution layers: the standard layer checks, hand-derived values,
weight layouts and bad input. (Keras parity: test_conv_reference.py.)"""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test

HARNESS_CASES = [
    (layers.Conv1D, dict(filters=3, kernel_size=3), (2, 7, 2), (2, 5, 3), 2),
    (layers.Conv1D, dict(filters=4, kernel_size=2, padding="causal",
                         dilation_rate=2, groups=2, activation="relu"),
     (2, 6, 4), (2, 6, 4), 2),
    (layers.Conv2D, dict(filters=4, kernel_size=3, strides=2,
                         padding="same", activation="relu"),
     (2, 7, 6, 3), (2, 4, 3, 4), 2),
    (layers.Conv2D, dict(filters=2, kernel_size=(2, 3), use_bias=False,
                         data_format="channels_first"),
     (2, 3, 5, 6), (2, 2, 4, 4), 1),
    (layers.Conv3D, dict(filters=2, kernel_size=2, dilation_rate=(1, 2, 1)),
     (1, 3, 5, 4, 2), (1, 2, 3, 3, 2), 2),
    (layers.Conv1DTranspose, dict(filters=3, kernel_size=3, strides=2,
                                  padding="same"), (2, 4, 2), (2, 8, 3), 2),
    (layers.Conv2DTranspose, dict(filters=2, kernel_size=3, strides=2,
                                  output_padding=1),
     (2, 3, 2, 3), (2, 8, 6, 2), 2),
    (layers.Conv3DTranspose, dict(filters=2, kernel_size=2,
                                  data_format="channels_first"),
     (1, 2, 2, 3, 2), (1, 2, 3, 4, 3), 2),
    (layers.DepthwiseConv1D, dict(kernel_size=3, depth_multiplier=2),
     (2, 6, 3), (2, 4, 6), 2),
    (layers.DepthwiseConv2D, dict(kernel_size=2, strides=2, padding="same",
                                  activation="relu"),
     (2, 5, 4, 3), (2, 3, 2, 3), 2),
    (layers.SeparableConv1D, dict(filters=4, kernel_size=3,
                                  padding="same"), (2, 5, 3), (2, 5, 4), 3),
    (layers.SeparableConv2D, dict(filters=3, kernel_size=2,
                                  depth_multiplier=2, use_bias=False,
                                  data_format="channels_first"),
     (2, 2, 4, 5), (2, 3, 3, 4), 2),
]


@pytest.mark.parametrize("cls, kwargs, shape, out_shape, n_weights",
                         HARNESS_CASES,
                         ids=[c[0].__name__ for c in HARNESS_CASES])
def test_conv_layer_harness(cls, kwargs, shape, out_shape, n_weights,
                            tmp_path):
    run_layer_test(cls, kwargs, input_shape=shape,
                   expected_output_shape=out_shape,
                   expected_num_trainable_weights=n_weights,
                   expected_num_non_trainable_weights=0, tmp_path=tmp_path)


def test_conv2d_hand_computed_values():
    layer = layers.Conv2D(1, 2, activation="relu")
    x = np.arange(9, dtype="float32").reshape(1, 3, 3, 1)
    layer.build(x.shape)
    layer.set_weights([np.array([1, 0, 0, -1], "float32").reshape(2, 2, 1,
                                                                   1),
                       np.array([3.0], "float32")])
    # Each output is x[i, j] - x[i+1, j+1] + 3 = -4 + 3, then relu.
    np.testing.assert_array_equal(layer(x).numpy().ravel(), [0, 0, 0, 0])
    layer.set_weights([np.array([0, 1, 1, 0], "float32").reshape(2, 2, 1,
                                                                   1),
                       np.array([0.5], "float32")])
    np.testing.assert_array_equal(layer(x).numpy()[0, :, :, 0],
                                  [[4.5, 6.5], [10.5, 12.5]])


def test_grouped_conv_keeps_groups_apart():
    layer = layers.Conv1D(2, 1, groups=2, use_bias=False)
    layer.build((None, 3, 2))
    layer.set_weights([np.array([[[2.0, 3.0]]], "float32")])
    x = np.array([[[1.0, 10.0]]], "float32")
    np.testing.assert_array_equal(layer(x).numpy(), [[[2.0, 30.0]]])


def test_causal_conv1d_never_looks_ahead():
    layer = layers.Conv1D(1, 3, padding="causal", dilation_rate=2)
    x = np.zeros((1, 9, 1), "float32")
    before = layer(x).numpy()
    x[0, 6, 0] = 1.0
    after = layer(x).numpy()
    changed = np.nonzero(before[0, :, 0] != after[0, :, 0])[0]
    assert changed.min() >= 6


def test_depthwise_output_channel_order():
    # Output channel c * depth_multiplier + m comes from input channel c.
    layer = layers.DepthwiseConv1D(1, depth_multiplier=2, use_bias=False)
    layer.build((None, 1, 2))
    layer.set_weights([np.array([[[1.0, 2.0], [3.0, 4.0]]], "float32")])
    y = layer(np.array([[[10.0, 100.0]]], "float32")).numpy()
    np.testing.assert_array_equal(y.ravel(), [10, 20, 300, 400])


def test_weight_paths_and_shapes_follow_keras():
    model = kerasish.Sequential([
        kerasish.Input((8, 8, 3)),
        layers.Conv2D(4, 3),
        layers.SeparableConv2D(5, 3, depth_multiplier=2),
        layers.Conv2DTranspose(2, 2)])
    assert [(w.path, tuple(w.shape)) for w in model.weights] == [
        ("sequential/conv2d/kernel", (3, 3, 3, 4)),
        ("sequential/conv2d/bias", (4,)),
        ("sequential/separable_conv2d/depthwise_kernel", (3, 3, 4, 2)),
        ("sequential/separable_conv2d/pointwise_kernel", (1, 1, 8, 5)),
        ("sequential/separable_conv2d/bias", (5,)),
        ("sequential/conv2d_transpose/kernel", (2, 2, 2, 5)),
        ("sequential/conv2d_transpose/bias", (2,))]


def test_aliases_are_the_same_classes():
    assert layers.Convolution2D is layers.Conv2D
    assert layers.Convolution3DTranspose is layers.Conv3DTranspose
    assert layers.SeparableConvolution1D is layers.SeparableConv1D
    config = kerasish.saving.serialize_keras_object(layers.Conv1D(2, 3))
    assert config["class_name"] == "Conv1D"
    config["class_name"] = "Convolution1D"
    assert type(kerasish.saving.deserialize_keras_object(config)) is \
        layers.Conv1D


def test_regularizers_and_constraints_apply():
    layer = layers.Conv2D(2, 2, kernel_regularizer="l2",
                          kernel_constraint="non_neg",
                          activity_regularizer="l1")
    layer(np.ones((1, 3, 3, 1), "float32"))
    assert len(layer.losses) == 2
    assert layer.kernel.constraint is not None


def test_channels_first_equals_transposed_channels_last():
    x = np.random.default_rng(0).standard_normal((2, 6, 5, 3)).astype(
        "float32")
    last = layers.Conv2D(4, 3, strides=2, padding="same")
    first = layers.Conv2D(4, 3, strides=2, padding="same",
                          data_format="channels_first")
    y_last = last(x).numpy()
    first(np.moveaxis(x, -1, 1))
    first.set_weights(last.get_weights())
    np.testing.assert_allclose(first(np.moveaxis(x, -1, 1)).numpy(),
                               np.moveaxis(y_last, -1, 1), atol=1e-6)


BAD_ARGS = [
    (lambda: layers.Conv2D(0, 3), "filters=0"),
    (lambda: layers.Conv2D(4, (3, 3, 3)), "kernel_size"),
    (lambda: layers.Conv2D(4, 0), "kernel_size"),
    (lambda: layers.Conv2D(4, 3, padding="full"), "padding"),
    (lambda: layers.Conv2D(4, 3, padding="causal"), "padding"),
    (lambda: layers.Conv2D(4, 3, strides=2, dilation_rate=2),
     "strides > 1.*dilation_rate > 1"),
    (lambda: layers.Conv2D(4, 3, groups=3), "groups=3, filters=4"),
    (lambda: layers.Conv2D(4, 3, data_format="nhwc"), "data_format"),
    (lambda: layers.Conv2DTranspose(2, 3, strides=2, output_padding=2),
     "output_padding"),
    (lambda: layers.DepthwiseConv2D(3, depth_multiplier=0),
     "depth_multiplier=0"),
    (lambda: layers.SeparableConv2D(-1, 3), "filters=-1"),
    (lambda: layers.Conv1D(2, 3, dilation_rate=-1), "dilation_rate"),
]


@pytest.mark.parametrize("make, message", BAD_ARGS)
def test_bad_constructor_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_wrong_input_rank_names_the_layer():
    with pytest.raises(ValueError, match="conv2d.*min_ndim=4"):
        layers.Conv2D(2, 3)(np.ones((2, 5, 5), "float32"))
    with pytest.raises(ValueError, match=r"'conv1d' \(Conv1D\).*rank 3"):
        layers.Conv1D(2, 3)(np.ones((2, 5, 5, 1), "float32"))
    for layer, shape in [(layers.Conv1DTranspose(2, 3), (None, 8, 8, 3)),
                         (layers.Conv2D(2, 3), (None, 8, 3)),
                         (layers.Conv3DTranspose(2, 3), (None, 4, 4, 3))]:
        with pytest.raises(ValueError, match=r"expects inputs of rank"):
            layer.compute_output_shape(shape)


def test_kernel_larger_than_input_with_valid_padding():
    with pytest.raises(ValueError, match=r"'conv2d' \(Conv2D\).*zero or "
                                         r"negative.*\(1, 2, 2, 1\)"):
        layers.Conv2D(2, 3)(np.ones((1, 2, 2, 1), "float32"))
    with pytest.raises(ValueError, match="zero or negative"):
        layers.DepthwiseConv2D(5)(kerasish.Input((3, 3, 2)))
    # "same" padding accepts it.
    assert layers.Conv2D(2, 3, padding="same")(
        np.ones((1, 2, 2, 1), "float32")).shape == (1, 2, 2, 2)


def test_groups_must_divide_input_channels():
    with pytest.raises(ValueError, match="groups=2, but the input has 3 "
                                         "channels"):
        layers.Conv2D(4, 1, groups=2)(np.ones((1, 2, 2, 3), "float32"))


def test_channels_change_after_build_is_rejected():
    layer = layers.Conv1D(2, 1)
    layer(np.ones((1, 3, 2), "float32"))
    with pytest.raises(ValueError, match="axis -1 of input shape to have "
                                         "value 2"):
        layer(np.ones((1, 3, 5), "float32"))


def test_unknown_channels_are_rejected():
    with pytest.raises(ValueError, match="known channel dimension"):
        layers.Conv2D(2, 3).build((None, 5, 5, None))


@pytest.mark.parametrize("make", [
    lambda **kw: layers.DepthwiseConv2D(3, **kw),
    lambda **kw: layers.SeparableConv2D(4, 3, **kw)])
def test_depthwise_and_separable_take_strides_with_dilation(make):
    # Keras accepts the pair here (only plain and transposed convolutions
    # refuse it): the output is the dilated stride-1 result, subsampled.
    x = np.random.default_rng(0).normal(size=(1, 9, 9, 2)).astype("float32")
    strided = make(strides=2, dilation_rate=2)
    dense = make(dilation_rate=2)
    strided.build(x.shape)
    dense.build(x.shape)
    dense.set_weights(strided.get_weights())
    np.testing.assert_allclose(
        kerasish.ops.convert_to_numpy(strided(x)),
        kerasish.ops.convert_to_numpy(dense(x))[:, ::2, ::2], rtol=1e-5,
        atol=1e-6)
