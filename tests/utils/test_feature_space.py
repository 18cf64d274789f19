"""FeatureSpace against Keras 3.15.1 (with TensorFlow).

`tests/fixtures/text_audio/feature_space.npz`, `feature_space.keras` and
`feature_space.json` were produced by
`tests/fixtures/text_audio/make_feature_space_fixtures.py` with real
Keras: the same spaces (built by `spaces()` there) adapted on the same
table, their outputs, and the "concat" space saved by Keras.
"""
import json
import os
import zipfile

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.utils import FeatureSpace as FS
from tests.fixtures.text_audio import make_feature_space_fixtures as fx

FOLDER = os.path.dirname(fx.__file__)
REF = np.load(os.path.join(FOLDER, "feature_space.npz"))


def _adapted(name):
    fs = fx.spaces(FS)[name]
    fs.adapt(fx.own(fs, fx.DATA))
    return fs


def _assert_matches(out, prefix):
    if isinstance(out, dict):
        keys = sorted(k[len(prefix) + 1:] for k in REF.files
                      if k.startswith(prefix + "/"))
        assert sorted(out) == keys
        for key in keys:
            _assert_matches(out[key], f"{prefix}/{key}")
        return
    out = out.numpy()
    ref = REF[prefix]
    assert out.shape == ref.shape, prefix
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6,
                               err_msg=prefix)


@pytest.mark.parametrize("name", ["concat", "dict"])
def test_outputs_match_keras(name):
    fs = _adapted(name)
    data, query = fx.own(fs, fx.DATA), fx.own(fs, fx.QUERY)
    _assert_matches(fs(data), f"{name}/data")
    _assert_matches(fs(query), f"{name}/query")
    _assert_matches(fs(fx._row(data, 0)), f"{name}/row")


def test_concat_layout_is_sorted_features_then_crosses():
    fs = _adapted("concat")
    widths = {n: int(fs.one_hot_encoders[n].num_tokens)
              if n in fs.one_hot_encoders else 1
              for n in sorted(fs.features) + ["sc_X_ic"]}
    assert list(widths) == ["f", "fd", "fn", "fr", "ic", "ih", "sc", "sh",
                            "sc_X_ic"]
    assert sum(widths.values()) == fs(fx.DATA).shape[1] == 47
    encoded = fs.get_encoded_features()
    assert encoded.shape == (None, 47)
    assert set(fs.get_inputs()) == set(fx.DATA)
    assert fs.get_inputs()["sc"].dtype == "string"


def test_adapt_on_datasets_agrees_with_dicts():
    expected = _adapted("concat")(fx.DATA).numpy()
    slices = kerasish.data.Dataset.from_tensor_slices(fx.DATA)
    for source in (slices, slices.batch(32),
                   kerasish.data.Dataset.zip((slices, slices.map(
                       lambda x: x["f"]))).batch(32)):
        fs = fx.spaces(FS)["concat"]
        fs.adapt(source)
        np.testing.assert_allclose(fs(fx.DATA).numpy(), expected,
                                   rtol=1e-6)


def test_calling_on_datasets_maps_examples():
    fs = _adapted("concat")
    labelled = kerasish.data.Dataset.from_tensor_slices(
        (fx.DATA, np.arange(8))).batch(4)
    x, y = next(iter(fs(labelled)))
    np.testing.assert_allclose(np.asarray(x), REF["concat/data"][:4],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(np.asarray(y), np.arange(4))
    mapped = kerasish.data.Dataset.from_tensor_slices(fx.DATA).map(fs)
    first = next(iter(mapped))
    np.testing.assert_allclose(np.asarray(first), REF["concat/row"],
                               rtol=1e-5, atol=1e-6)


def test_functional_model_on_encoded_features_trains():
    fs = _adapted("concat")
    inputs = fs.get_inputs()
    outputs = layers.Dense(1, activation="sigmoid")(
        fs.get_encoded_features())
    model = kerasish.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="binary_crossentropy")
    labels = (fx.DATA["f"] > 0).astype("float32")[:, None]
    history = model.fit(fx.DATA, labels, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3
    assert model.predict(fx.DATA, verbose=0).shape == (8, 1)


def test_config_matches_keras():
    fs = _adapted("concat")
    from kerasish.saving.serialization_lib import serialize_keras_object
    ours = serialize_keras_object(fs)
    with open(os.path.join(FOLDER, "feature_space.json")) as f:
        theirs = json.load(f)
    for key in ("module", "class_name", "registered_name"):
        assert ours[key] == theirs[key]
    assert set(ours["config"]) == set(theirs["config"])
    assert set(ours["build_config"]) == set(theirs["build_config"])
    for name, spec in theirs["config"]["features"].items():
        mine = ours["config"]["features"][name]
        for key in ("module", "class_name", "registered_name"):
            assert mine[key] == spec[key]
        pre, ref_pre = mine["config"]["preprocessor"], \
            spec["config"]["preprocessor"]
        assert (pre["module"], pre["class_name"], pre["registered_name"]) \
            == (ref_pre["module"], ref_pre["class_name"],
                ref_pre["registered_name"]), name
        assert pre["config"]["name"] == ref_pre["config"]["name"]
    cross, ref_cross = ours["config"]["crosses"][0], \
        theirs["config"]["crosses"][0]
    assert cross["registered_name"] == ref_cross["registered_name"]
    assert list(cross["config"]["feature_names"]) == \
        ref_cross["config"]["feature_names"]


def test_save_and_load_round_trip_in_keras_layout(tmp_path):
    fs = _adapted("concat")
    path = str(tmp_path / "fs.keras")
    fs.save(path)
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        with h5py.File(zf.open("model.weights.h5")) as f:
            groups = []
            f.visit(groups.append)
    assert {"assets/preprocessors/integer_lookup/vocabulary.txt",
            "assets/preprocessors/string_lookup/vocabulary.txt"} <= names
    with zipfile.ZipFile(os.path.join(FOLDER, "feature_space.keras")) as zf:
        with h5py.File(zf.open("model.weights.h5")) as f:
            keras_groups = []
            f.visit(keras_groups.append)
    assert sorted(groups) == sorted(keras_groups)
    again = kerasish.models.load_model(path)
    assert isinstance(again, FS)
    np.testing.assert_allclose(again(fx.QUERY).numpy(),
                               fs(fx.QUERY).numpy(), rtol=1e-6)


def test_loads_the_keras_written_feature_space():
    fs = kerasish.models.load_model(os.path.join(FOLDER,
                                                 "feature_space.keras"))
    _assert_matches(fs(fx.QUERY), "concat/query")
    _assert_matches(fs(fx.DATA), "concat/data")


def test_text_feature_with_text_vectorization():
    text = layers.TextVectorization(output_mode="tf_idf")
    fs = FS({"text": FS.feature(preprocessor=text, dtype="string",
                                output_mode="float"),
             "n": "float"})
    data = {"text": ["1st string", "2nd string", "3rd string"],
            "n": [1.0, 2.0, 3.0]}
    fs.adapt(data)
    out = fs(data).numpy()
    assert out.shape == (3, 1 + text.vocabulary_size())
    np.testing.assert_allclose(out[:, 0], [1.0, 2.0, 3.0])
    assert fs.get_encoded_features().shape == (None, out.shape[1])


def test_given_bin_boundaries_need_no_adapting():
    fs = FS({"x": FS.float_discretized(num_bins=3,
                                       bin_boundaries=[0.0, 1.0])})
    out = fs({"x": np.array([-1.0, 0.5, 2.0])}).numpy()
    np.testing.assert_array_equal(out, np.eye(3))


def test_errors_are_keras_messages():
    with pytest.raises(ValueError, match="cannot be None or empty"):
        FS({})
    with pytest.raises(ValueError, match="Invalid feature type: foo"):
        FS({"a": "foo"})
    with pytest.raises(ValueError, match="Received unknown features"):
        FS({"a": "float"}, crosses=[("a", "b")])
    with pytest.raises(ValueError, match="output_mode=list"):
        FS({"a": "float"}, output_mode="list")
    with pytest.raises(ValueError, match="output_mode=bag"):
        FS.cross(("a", "b"), 4, output_mode="bag")
    with pytest.raises(ValueError, match="output_mode=text"):
        FS.feature("float32", layers.Rescaling(1.0), "text")
    fs = FS({"a": "float_normalized"})
    with pytest.raises(ValueError, match="call `.adapt"):
        fs({"a": np.array([1.0])})
    with pytest.raises(ValueError, match="only be called on"):
        fs.adapt([1.0])
    plain = FS({"a": "float"})
    with pytest.raises(ValueError, match="only be called with a dict"):
        plain([1.0])
    with pytest.raises(ValueError, match=r"Unknown keys: \['b'\]"):
        plain({"a": [1.0], "b": [2.0]})
    with pytest.raises(ValueError, match=r"missing keys: \['a'\]"):
        plain({})
    unencoded = FS({"a": "float",
                    "b": FS.integer_categorical(output_mode="int")})
    with pytest.raises(ValueError, match="feature 'b' has not been encoded"):
        unencoded.adapt({"a": [1.0, 2.0], "b": [1, 2]})
