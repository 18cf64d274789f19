"""`imagenet_utils`: preprocessing, decoding, input shapes, as Keras.

Expected preprocessing values were computed with Keras 3.15.1
(`keras.applications.imagenet_utils.preprocess_input`) on
`np.arange(12).reshape(2, 1, 2, 3) * 10` (and its channels-first
transpose), rounded to 5 decimals; Keras gives the same for numpy arrays
and tensors.
"""
import json
import os
import shutil

import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.applications import imagenet_utils
from tests.applications import helpers

X = np.arange(12, dtype="float32").reshape(2, 1, 2, 3) * 10
KERAS = {
    ("caffe", "channels_last"): [
        -83.939, -106.779, -123.68, -53.939, -76.779, -93.68, -23.939,
        -46.779, -63.68, 6.061, -16.779, -33.68],
    ("caffe", "channels_first"): [
        -83.939, -53.939, -106.779, -76.779, -123.68, -93.68, -23.939,
        6.061, -46.779, -16.779, -63.68, -33.68],
    ("tf", "channels_last"): [
        -1.0, -0.92157, -0.84314, -0.76471, -0.68627, -0.60784, -0.52941,
        -0.45098, -0.37255, -0.29412, -0.21569, -0.13725],
    ("tf", "channels_first"): [
        -1.0, -0.76471, -0.92157, -0.68627, -0.84314, -0.60784, -0.52941,
        -0.29412, -0.45098, -0.21569, -0.37255, -0.13725],
    ("torch", "channels_last"): [
        -2.1179, -1.86064, -1.45586, -1.60416, -1.33543, -0.93298,
        -1.09042, -0.81022, -0.41011, -0.57668, -0.28501, 0.11277],
    ("torch", "channels_first"): [
        -2.1179, -1.60416, -1.86064, -1.33543, -1.45586, -0.93298,
        -1.09042, -0.57668, -0.81022, -0.28501, -0.41011, 0.11277],
}


def _input(data_format):
    if data_format == "channels_last":
        return X.copy()
    return np.ascontiguousarray(X.transpose(0, 3, 1, 2))


@pytest.mark.parametrize("mode, data_format", sorted(KERAS))
def test_preprocess_numpy_matches_keras(mode, data_format):
    out = imagenet_utils.preprocess_input(_input(data_format), data_format,
                                          mode)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.ravel(), KERAS[mode, data_format],
                               atol=1e-5)


@pytest.mark.parametrize("mode, data_format", sorted(KERAS))
def test_preprocess_tensor_matches_keras(mode, data_format):
    x = ops.convert_to_tensor(_input(data_format))
    out = imagenet_utils.preprocess_input(x, data_format, mode)
    assert isinstance(out, kerasish.Tensor)
    np.testing.assert_allclose(np.asarray(out).ravel(),
                               KERAS[mode, data_format], atol=1e-5)


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
def test_preprocess_symbolic_in_a_model(mode):
    inputs = kerasish.Input((1, 2, 3))
    model = kerasish.Model(
        inputs, imagenet_utils.preprocess_input(inputs, mode=mode))
    np.testing.assert_allclose(model.predict(X, verbose=0).ravel(),
                               KERAS[mode, "channels_last"], atol=1e-4)


def test_preprocess_writes_over_a_float_array_like_keras():
    x = X.copy()
    out = imagenet_utils.preprocess_input(x, mode="tf")
    assert out is x
    # caffe returns a BGR view of the caller's array, centered in place.
    x = X.copy()
    out = imagenet_utils.preprocess_input(x, mode="caffe")
    np.testing.assert_array_equal(out[..., ::-1], x)


def test_preprocess_integer_images_become_float32():
    x = np.arange(6, dtype="uint8").reshape(1, 2, 3)
    out = imagenet_utils.preprocess_input(x, mode="caffe")
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[[-101.939, -115.779, -123.68],
                                      [-98.939, -112.779, -120.68]]],
                               rtol=1e-6)


def test_preprocess_single_channels_first_image():
    out = imagenet_utils.preprocess_input(np.ones((3, 1, 2)),
                                          "channels_first", "caffe")
    np.testing.assert_allclose(out[:, 0, 0], [-102.939, -115.779, -122.68])


def test_preprocess_errors():
    with pytest.raises(ValueError, match="Received: mode=bad"):
        imagenet_utils.preprocess_input(X, mode="bad")
    with pytest.raises(ValueError, match="Received: data_format=bad"):
        imagenet_utils.preprocess_input(X, data_format="bad")


@pytest.mark.parametrize("module", [
    "resnet", "resnet50", "vgg16", "vgg19"])
def test_family_caffe_preprocessing(module):
    family = getattr(kerasish.applications, module)
    np.testing.assert_allclose(family.preprocess_input(X.copy()).ravel(),
                               KERAS["caffe", "channels_last"], atol=1e-5)


@pytest.mark.parametrize("module", [
    "resnet_v2", "xception", "inception_v3", "inception_resnet_v2",
    "mobilenet", "mobilenet_v2", "nasnet"])
def test_family_tf_preprocessing(module):
    family = getattr(kerasish.applications, module)
    np.testing.assert_allclose(family.preprocess_input(X.copy()).ravel(),
                               KERAS["tf", "channels_last"], atol=1e-5)


def test_densenet_uses_torch_preprocessing():
    out = kerasish.applications.densenet.preprocess_input(X.copy())
    np.testing.assert_allclose(out.ravel(), KERAS["torch", "channels_last"],
                               atol=1e-5)


@pytest.mark.parametrize("module", [
    "mobilenet_v3", "efficientnet", "efficientnet_v2", "convnext"])
def test_in_model_preprocessing_families_pass_inputs_through(module):
    x = X.copy()
    assert getattr(kerasish.applications, module).preprocess_input(x) is x


# -- decode_predictions -------------------------------------------------------
@pytest.fixture
def class_index(tmp_path, monkeypatch):
    """A small `imagenet_class_index.json` in a temporary Keras cache."""
    models = tmp_path / "models"
    models.mkdir()
    source = os.path.join(helpers.FIXTURES, "imagenet_class_index_small.json")
    shutil.copy(source, models / "imagenet_class_index.json")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    # The real file's md5 is Keras's; this one's makes the cache valid.
    from kerasish.utils.file_utils import hash_file
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX_HASH",
                        hash_file(source, "md5"))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    with open(source) as f:
        return json.load(f)


def test_decode_predictions_reads_the_cached_index(class_index):
    preds = np.zeros((2, 1000), "float32")
    preds[0, [100, 300, 500]] = [0.2, 0.7, 0.1]
    preds[1, [0, 900]] = [0.9, 0.05]
    decoded = imagenet_utils.decode_predictions(preds, top=2)
    assert decoded[0] == [("n00000300", "class_300", np.float32(0.7)),
                          ("n00000100", "class_100", np.float32(0.2))]
    assert [entry[:2] for entry in decoded[1]] == [
        ("n00000000", "class_0"), ("n00000900", "class_900")]
    assert imagenet_utils.CLASS_INDEX == class_index


def test_decode_predictions_of_each_family(class_index):
    preds = np.zeros((1, 1000), "float32")
    preds[0, 200] = 1.0
    for module in ("resnet", "vgg16", "mobilenet_v3", "convnext",
                   "efficientnet_v2", "nasnet", "densenet"):
        family = getattr(kerasish.applications, module)
        assert family.decode_predictions(preds, top=1) == [
            [("n00000200", "class_200", np.float32(1.0))]]


def test_decode_predictions_accepts_tensors(class_index):
    preds = np.zeros((1, 1000), "float32")
    preds[0, 400] = 1.0
    decoded = imagenet_utils.decode_predictions(ops.convert_to_tensor(preds),
                                                top=1)
    assert decoded[0][0][:2] == ("n00000400", "class_400")


def test_decode_predictions_shape_error():
    with pytest.raises(ValueError, match=r"Received array with shape: "
                                         r"\(3, 10\)"):
        imagenet_utils.decode_predictions(np.zeros((3, 10)))


# -- input shapes, padding, activation ----------------------------------------
@pytest.mark.parametrize("args, expected", [
    ((None, 224, 32, "channels_last", True), (224, 224, 3)),
    ((None, 224, 32, "channels_first", True), (3, 224, 224)),
    ((None, 299, 75, "channels_last", False), (None, None, 3)),
    ((None, 299, 75, "channels_first", False), (3, None, None)),
    (((64, 48, 3), 224, 32, "channels_last", False), (64, 48, 3)),
    (((64, 48, 1), 224, 32, "channels_last", True), (64, 48, 1)),
    (((None, None, 3), 224, 32, "channels_last", False), (None, None, 3)),
])
def test_obtain_input_shape(args, expected):
    assert imagenet_utils.obtain_input_shape(*args) == expected


def test_obtain_input_shape_imagenet_top_forces_the_default():
    assert imagenet_utils.obtain_input_shape(
        None, 224, 32, "channels_last", True, "imagenet") == (224, 224, 3)
    with pytest.raises(ValueError, match=r"`input_shape` should be "
                                         r"\(224, 224, 3\)"):
        imagenet_utils.obtain_input_shape((200, 200, 3), 224, 32,
                                          "channels_last", True, "imagenet")


@pytest.mark.parametrize("shape, match", [
    ((16, 64, 3), "at least 32x32"),
    ((64, 16, 3), "at least 32x32"),
    ((64, 64), "tuple of three integers"),
])
def test_obtain_input_shape_errors(shape, match):
    with pytest.raises(ValueError, match=match):
        imagenet_utils.obtain_input_shape(shape, 224, 32, "channels_last",
                                          False)


def test_obtain_input_shape_channel_checks():
    with pytest.raises(ValueError, match="must have 3 channels"):
        imagenet_utils.obtain_input_shape((64, 64, 1), 224, 32,
                                          "channels_last", False, "imagenet")
    with pytest.warns(UserWarning, match="expects 1 or 3 input channels"):
        imagenet_utils.obtain_input_shape((64, 64, 5), 224, 32,
                                          "channels_last", False)
    with pytest.raises(ValueError, match="static `input_shape`"):
        imagenet_utils.obtain_input_shape((None, 64, 3), 224, 32,
                                          "channels_last", True)


@pytest.mark.parametrize("shape, kernel, expected", [
    ((32, 32, 3), 3, ((0, 1), (0, 1))),
    ((33, 33, 3), 3, ((1, 1), (1, 1))),
    ((32, 33, 3), (5, 3), ((1, 2), (1, 1))),
    ((None, None, 3), 5, ((1, 2), (1, 2))),
])
def test_correct_pad(shape, kernel, expected):
    assert imagenet_utils.correct_pad(kerasish.Input(shape),
                                      kernel) == expected


def test_validate_activation():
    imagenet_utils.validate_activation("relu", None)
    imagenet_utils.validate_activation("softmax", "imagenet")
    imagenet_utils.validate_activation(None, "imagenet")
    with pytest.raises(ValueError, match="classifier_activation=relu"):
        imagenet_utils.validate_activation("relu", "imagenet")
