"""Loading weights: `weights="imagenet"` through Keras's cache, or a path.

`fixtures/mobilenet_2_5_128_tf_no_top.h5.gz` is the file Keras would
fetch for `MobileNet(alpha=0.25, include_top=False, input_shape=(128,
128, 3), weights="imagenet")`, written by Keras's legacy `.h5` writer
(with made-up weights), and `imagenet_mobilenet.npz` Keras's output for it
on `recipe.image_batch`.
`weights_files.json` records, per model function, the `get_file` call
Keras makes for `weights="imagenet"`.
"""
import gzip
import json
import os
import shutil

import numpy as np
import pytest

import kerasish
from kerasish import applications
from kerasish.backend.common.variable import Variable
from tests.applications import helpers
from tests.applications.fixtures.recipe import image_batch

MOBILENET = dict(alpha=0.25, include_top=False, input_shape=(128, 128, 3))
FILE = "mobilenet_2_5_128_tf_no_top.h5"
with open(os.path.join(helpers.FIXTURES, "weights_files.json")) as _f:
    WEIGHTS_FILES = json.load(_f)


def _unpack(target):
    with gzip.open(os.path.join(helpers.FIXTURES, FILE + ".gz")) as src, \
            open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An offline Keras cache holding the MobileNet ImageNet file."""
    (tmp_path / "models").mkdir()
    _unpack(tmp_path / "models" / FILE)
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    return tmp_path


def _expected():
    arrays = np.load(os.path.join(helpers.FIXTURES, "imagenet_mobilenet.npz"))
    pixels = image_batch(MOBILENET["input_shape"], 1, seed=7)
    return pixels, arrays["output"]


def test_imagenet_weights_load_from_the_keras_cache(keras_home):
    model = applications.MobileNet(weights="imagenet", **MOBILENET)
    pixels, expected = _expected()
    np.testing.assert_allclose(model.predict(pixels, verbose=0), expected,
                               rtol=1e-4, atol=1e-5)


def test_weights_from_a_path(tmp_path):
    path = _unpack(tmp_path / "weights.h5")
    model = applications.MobileNet(weights=str(path), **MOBILENET)
    pixels, expected = _expected()
    np.testing.assert_allclose(model.predict(pixels, verbose=0), expected,
                               rtol=1e-4, atol=1e-5)


def test_off_size_input_warns_and_loads_the_224_file(keras_home):
    # The convolutions do not depend on the input size, so the 128 file
    # stands in for the 224 one Keras falls back to.
    os.rename(keras_home / "models" / FILE,
              keras_home / "models" / FILE.replace("128", "224"))
    with pytest.warns(UserWarning, match="Weights for input shape"):
        model = applications.MobileNet(weights="imagenet", alpha=0.25,
                                       include_top=False,
                                       input_shape=(100, 100, 3))
    assert model.name == "mobilenet_0.25_224"


class _Requests:
    """Stands in for `get_file` (records its arguments) and for
    `Model.load_weights` (records the model and the path)."""

    def __init__(self):
        self.files, self.loads = [], []

    def get_file(self, fname=None, origin=None, untar=False, md5_hash=None,
                 file_hash=None, cache_subdir="datasets", **kwargs):
        self.files.append([fname, origin, file_hash, cache_subdir])
        return os.path.join("cache", fname)

    def load_weights(self, model, filepath, **kwargs):
        self.loads.append((model, filepath))

    def model_method(self):
        """`load_weights` as a method of `Model` (the model comes first)."""
        def load_weights(model, filepath, **kwargs):
            self.load_weights(model, filepath, **kwargs)
        return load_weights


@pytest.fixture
def requests(monkeypatch):
    from kerasish.utils import file_utils
    recorder = _Requests()
    monkeypatch.setattr(file_utils, "get_file", recorder.get_file)
    monkeypatch.setattr(kerasish.Model, "load_weights",
                        recorder.model_method())
    # Only the file requested matters, not the initial values.
    monkeypatch.setattr(Variable, "_initial_value", staticmethod(
        lambda initializer, shape, dtype: np.zeros(shape, dtype)))
    return recorder


def _request(requests, function_name, include_top):
    kerasish.backend.clear_session()
    model = getattr(applications, function_name)(weights="imagenet",
                                                 include_top=include_top)
    [file_args] = requests.files
    assert requests.loads == [(model, os.path.join("cache", file_args[0]))]
    requests.files.clear()
    requests.loads.clear()
    return file_args, model


def test_every_function_is_recorded():
    assert set(WEIGHTS_FILES) == {name for name in dir(applications)
                                  if name[0].isupper()}


# Without the top, every function: names depend on the variant. (MobileNet
# V1-V3 warn, as Keras does, that the 224 file stands in for `None` sizes.)
@pytest.mark.filterwarnings("ignore:`input_shape` is undefined:UserWarning")
@pytest.mark.parametrize("function_name", sorted(WEIGHTS_FILES))
def test_imagenet_file_without_top_as_keras(function_name, requests):
    file_args, _ = _request(requests, function_name, False)
    assert file_args == WEIGHTS_FILES[function_name]["notop"]


# With the top, one function per family (same naming code per family).
# MobileNetV3 warns about `None` sizes even with its top, as in Keras.
@pytest.mark.filterwarnings("ignore:`input_shape` is undefined:UserWarning")
@pytest.mark.parametrize("function_name", [
    "VGG19", "ResNet50", "ResNet101V2", "Xception", "InceptionV3",
    "InceptionResNetV2", "MobileNet", "MobileNetV2", "MobileNetV3Large",
    "DenseNet169", "NASNetMobile", "EfficientNetB0", "EfficientNetV2S",
    "ConvNeXtTiny"])
def test_imagenet_file_with_top_as_keras(function_name, requests):
    file_args, _ = _request(requests, function_name, True)
    assert file_args == WEIGHTS_FILES[function_name]["top"]


def test_efficientnet_imagenet_adds_the_variance_rescaling(requests):
    _, model = _request(requests, "EfficientNetB0", False)
    names = [layer.name for layer in model.layers[:5]]
    assert names == ["input_layer", "rescaling", "normalization",
                     "rescaling_1", "stem_conv_pad"]
    np.testing.assert_allclose(model.layers[3].scale,
                               1 / np.sqrt([0.229, 0.224, 0.225]))
