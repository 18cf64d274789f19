"""Reshaping layers: the standard layer checks, hand-derived values and bad
input. (Keras parity of values and configs: test_conv_reference.py.)"""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test

HARNESS_CASES = [
    (layers.Flatten, dict(data_format="channels_first"), (2, 3, 4, 2),
     (2, 24)),
    (layers.Reshape, dict(target_shape=(-1, 3)), (2, 4, 3), (2, 4, 3)),
    (layers.Permute, dict(dims=(3, 1, 2)), (2, 3, 4, 5), (2, 5, 3, 4)),
    (layers.RepeatVector, dict(n=4), (2, 3), (2, 4, 3)),
    (layers.Cropping1D, dict(cropping=2), (2, 6, 3), (2, 2, 3)),
    (layers.Cropping2D, dict(cropping=(1, 2)), (2, 5, 6, 3), (2, 3, 2, 3)),
    (layers.Cropping3D, dict(cropping=((0, 1), (1, 0), (2, 1))),
     (1, 3, 3, 4, 2), (1, 2, 2, 1, 2)),
    (layers.ZeroPadding1D, dict(padding=(0, 2),
                                data_format="channels_first"),
     (2, 3, 4), (2, 3, 6)),
    (layers.ZeroPadding2D, dict(padding=2), (2, 2, 3, 1), (2, 6, 7, 1)),
    (layers.ZeroPadding3D, dict(padding=(1, 0, 2)), (1, 2, 2, 2, 3),
     (1, 4, 2, 6, 3)),
    (layers.UpSampling1D, dict(size=2), (2, 3, 2), (2, 6, 2)),
    (layers.UpSampling2D, dict(size=(2, 3)), (2, 2, 3, 2), (2, 4, 9, 2)),
    (layers.UpSampling2D, dict(interpolation="bilinear",
                               data_format="channels_first"),
     (2, 2, 3, 4), (2, 2, 6, 8)),
    (layers.UpSampling2D, dict(size=3, interpolation="bicubic"),
     (1, 3, 4, 2), (1, 9, 12, 2)),
    (layers.UpSampling3D, dict(size=(2, 1, 2)), (1, 2, 3, 2, 2),
     (1, 4, 3, 4, 2)),
]


@pytest.mark.parametrize("cls, kwargs, shape, out_shape", HARNESS_CASES,
                         ids=[c[0].__name__ for c in HARNESS_CASES])
def test_reshaping_layer_harness(cls, kwargs, shape, out_shape):
    run_layer_test(cls, kwargs, input_shape=shape,
                   expected_output_shape=out_shape,
                   expected_num_trainable_weights=0)


def test_hand_computed_values():
    x = np.arange(6, dtype="float32").reshape(1, 2, 3)
    np.testing.assert_array_equal(layers.Permute((2, 1))(x).numpy(),
                                  x.transpose(0, 2, 1))
    np.testing.assert_array_equal(
        layers.Cropping1D((1, 0))(x.reshape(1, 3, 2)).numpy(),
        [[[2, 3], [4, 5]]])
    np.testing.assert_array_equal(
        layers.UpSampling1D(2)(x).numpy()[0, :, 0], [0, 0, 3, 3])
    y = layers.ZeroPadding2D(((1, 0), (0, 1)))(x.reshape(1, 2, 3, 1))
    np.testing.assert_array_equal(y.numpy()[0, :, :, 0],
                                  [[0, 0, 0, 0], [0, 1, 2, 0], [3, 4, 5, 0]])
    up = layers.UpSampling2D((1, 2))(x.reshape(1, 2, 3, 1)).numpy()
    np.testing.assert_array_equal(up[0, 0, :, 0], [0, 0, 1, 1, 2, 2])


def test_bilinear_upsampling_hand_computed():
    # Half-pixel centres: outputs sample the input at -0.25, 0.25, 0.75,
    # 1.25; the first and last fall outside and take the edge value.
    x = np.array([0.0, 4.0], "float32").reshape(1, 1, 2, 1)
    y = layers.UpSampling2D((1, 2), interpolation="bilinear")(x)
    np.testing.assert_allclose(y.numpy().ravel(), [0, 1, 3, 4])


def test_reshape_review_against_keras():
    assert layers.Reshape([2, 6]).get_config()["target_shape"] == (2, 6)
    assert layers.Reshape((-1, 2)).compute_output_shape((None, None, 4)) \
        == (None, None, 2)
    assert layers.Flatten()(np.ones((3,), "float32")).shape == (3, 1)
    x = kerasish.Input((3, 4))
    assert layers.Reshape((-1,))(x).shape == (None, 12)


BAD = [
    (lambda: layers.Permute((1, 3)), ValueError, "consecutive"),
    (lambda: layers.RepeatVector(0), ValueError, "n=0"),
    (lambda: layers.RepeatVector(2.0), TypeError, "integer value for `n`"),
    (lambda: layers.Cropping1D(-1), ValueError, "cropping"),
    (lambda: layers.Cropping2D((1, 2, 3)), ValueError,
     "should have 2 elements"),
    (lambda: layers.Cropping3D(-2), ValueError, "cannot be negative"),
    (lambda: layers.ZeroPadding2D("same"), ValueError, "padding"),
    (lambda: layers.ZeroPadding3D(((1, 1), (1, 1))), ValueError,
     "should have 3 elements"),
    (lambda: layers.UpSampling1D(0), ValueError, "size=0"),
    (lambda: layers.UpSampling2D(interpolation="area"), ValueError,
     "interpolation"),
    (lambda: layers.UpSampling3D((2, 2)), ValueError, "size"),
    (lambda: layers.Reshape((-2, 3)), ValueError, "non-negative"),
    (lambda: layers.Reshape((2.5,)), ValueError, "tuple of integers"),
]


@pytest.mark.parametrize("make, error, message", BAD)
def test_bad_constructor_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_bad_inputs_name_the_layer():
    with pytest.raises(ValueError, match=r"'cropping2d' \(Cropping2D\).*"
                                         r"input_shape=\(1, 3, 3, 1\)"):
        layers.Cropping2D(((2, 1), (0, 0)))(np.ones((1, 3, 3, 1),
                                                    "float32"))
    with pytest.raises(ValueError, match="cropping1d.*expected ndim=3"):
        layers.Cropping1D()(np.ones((2, 5), "float32"))
    with pytest.raises(ValueError, match="repeat_vector.*expected ndim=2"):
        layers.RepeatVector(2)(np.ones((2, 5, 1), "float32"))
    with pytest.raises(ValueError, match="Reshape.*must be unchanged"):
        layers.Reshape((4, 4))(np.ones((2, 15), "float32"))
