"""TextVectorization against Keras 3.15.1 (with TensorFlow).

`tests/fixtures/text_audio/text_vectorization.json` and `text_model.keras`
were produced by `tests/fixtures/text_audio/make_text_fixtures.py` with
real Keras: vocabularies learned by `adapt` on a corpus with punctuation,
non-ASCII letters, unusual whitespace, emoji and ties, and the outputs of
every mode on a few queries.
"""
import json
import os
import zipfile

import numpy as np
import pytest

import kerasish
from kerasish import layers

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "fixtures", "text_audio")

with open(os.path.join(FIXTURES, "text_vectorization.json"),
          encoding="utf-8") as _f:
    REF = json.load(_f)

CASES = sorted(k for k in REF["cases"] if k != "given_vocabulary")


def _adapted(kwargs):
    kwargs = dict(kwargs)
    if isinstance(kwargs.get("ngrams"), list):
        kwargs["ngrams"] = tuple(kwargs["ngrams"])
    layer = layers.TextVectorization(**kwargs)
    layer.adapt(REF["corpus"])
    return layer


@pytest.mark.parametrize("name", CASES)
def test_vocabulary_and_outputs_match_keras(name):
    case = REF["cases"][name]
    layer = _adapted(case["kwargs"])
    assert layer.get_vocabulary() == case["vocabulary"]
    out = layer(np.array(REF["queries"])).numpy()
    expected = np.array(case["outputs"])
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)
    if "idf_weights" in case:
        np.testing.assert_allclose(layer._lookup_layer.idf_weights,
                                   case["idf_weights"], rtol=1e-6)


def test_given_vocabulary_and_config_match_keras():
    case = REF["cases"]["given_vocabulary"]
    layer = layers.TextVectorization(
        vocabulary=["earth", "wind", "and", "fire"], output_sequence_length=4)
    assert layer.get_vocabulary() == case["vocabulary"]
    out = layer(np.array([["earth and fire"], ["water wind"]])).numpy()
    np.testing.assert_array_equal(out, case["outputs"])
    config = layer.get_config()
    expected = dict(case["config"])
    assert set(config) == set(expected)
    for key in expected:
        if key not in ("name", "dtype"):
            assert config[key] == expected[key], key


def test_standardization_is_ascii_only_as_tensorflow():
    layer = layers.TextVectorization(split=None)
    out = layer._tokens(np.array(["ÉCOLE, Ça!", "a\u00a0b…"]), None)
    assert out.tolist() == ["École Ça", "a\u00a0b…"]
    splitter = layers.TextVectorization()
    rows = splitter._token_rows(np.array(["x\u2003y a\x0bb\tc\r\nd"]))[1]
    assert rows == [["x\u2003y", "a", "b", "c", "d"]]


def test_inputs_of_shape_batch_by_one_bytes_and_lists():
    layer = _adapted({})
    flat = layer(np.array(["the cat", "dog"])).numpy()
    np.testing.assert_array_equal(
        layer(np.array([["the cat"], ["dog"]])).numpy(), flat)
    np.testing.assert_array_equal(
        layer(np.array([b"the cat", b"dog"])).numpy(), flat)
    np.testing.assert_array_equal(layer(["the cat", "dog"]).numpy(), flat)
    np.testing.assert_array_equal(layer("the cat").numpy(), flat[0])
    with pytest.raises(ValueError, match="last shape dimension must be 1"):
        layer(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match="expects string inputs"):
        layer(np.ones((2, 1)))


def test_adapt_sources_agree():
    corpus = REF["corpus"]
    expected = _adapted({}).get_vocabulary()
    data = kerasish.data.Dataset.from_tensor_slices(np.array(corpus))
    for source in (np.array(corpus), np.array(corpus)[:, None],
                   data.batch(3), data, (b for b in [corpus[:4], corpus[4:]])):
        layer = layers.TextVectorization()
        layer.adapt(source)
        assert layer.get_vocabulary() == expected
    chunked = layers.TextVectorization()
    chunked.adapt(corpus, batch_size=3)
    assert chunked.get_vocabulary() == expected
    partial = layers.TextVectorization()
    partial.adapt(data.batch(5), steps=1)
    first = layers.TextVectorization()
    first.adapt(corpus[:5])
    assert partial.get_vocabulary() == first.get_vocabulary()
    labelled = kerasish.data.Dataset.from_tensor_slices(
        (np.array(corpus), np.arange(len(corpus)))).batch(4)
    with_labels = layers.TextVectorization()
    with_labels.adapt(labelled)
    assert with_labels.get_vocabulary() == expected


def test_tf_idf_with_given_vocabulary_and_weights():
    layer = layers.TextVectorization(
        output_mode="tf_idf", vocabulary=["a", "b"],
        idf_weights=[0.5, 2.0])
    out = layer(np.array(["a b b z", ""])).numpy()
    # OOV gets the mean weight (1.25): count 1 -> 1.25.
    np.testing.assert_allclose(out, [[1.25, 0.5, 4.0], [0, 0, 0]])
    with pytest.raises(ValueError, match="idf_weights"):
        layers.TextVectorization(output_mode="tf_idf", vocabulary=["a"])


def test_set_vocabulary_file_and_vocabulary_size(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("sun\nmoon\nstar\n", encoding="utf-8")
    layer = layers.TextVectorization(vocabulary=str(path))
    assert layer.get_vocabulary() == ["", "[UNK]", "sun", "moon", "star"]
    assert layer.vocabulary_size() == 5
    assert layer.get_config()["vocabulary"] is None
    layer.set_vocabulary(["x", "y"])
    np.testing.assert_array_equal(layer(np.array(["y x w"])).numpy(),
                                  [[3, 2, 1]])
    with pytest.raises(ValueError, match="Cannot adapt layer"):
        layer.adapt(["a"])


def test_callable_standardize_and_split():
    def squash(x):
        return np.char.replace(np.char.upper(x), "-", " ")

    def comma_split(x):
        return [s.split(",") for s in x]

    layer = layers.TextVectorization(standardize=squash, split=comma_split)
    layer.adapt(["a-b,c", "c,C"])
    assert layer.get_vocabulary() == ["", "[UNK]", "C", "A B"]
    np.testing.assert_array_equal(layer(np.array(["c,a-b,q"])).numpy(),
                                  [[2, 3, 1]])


def test_ragged_outputs_are_lists_of_arrays():
    layer = layers.TextVectorization(vocabulary=["a", "b"], ragged=True)
    out = layer(np.array(["a b a", "b", ""]))
    assert [o.tolist() for o in out] == [[2, 3, 2], [3], []]
    assert all(o.dtype == np.int64 for o in out)
    cut = layers.TextVectorization(vocabulary=["a", "b"], ragged=True,
                                   output_sequence_length=2)
    assert [o.tolist() for o in cut(["a b a", "b"])] == [[2, 3], [3]]
    with pytest.raises(ValueError, match="ragged=True"):
        layer(kerasish.Input((1,), dtype="string"))


@pytest.mark.parametrize("kwargs, match", [
    ({"sparse": True}, "sparse=True"),
    ({"standardize": "upper"}, "Allowed values are"),
    ({"split": "comma"}, "Received: split=comma"),
    ({"output_mode": "bag"}, "output_mode=bag"),
    ({"ngrams": [1, 2]}, "ngrams"),
    ({"ngrams": (1, 0)}, "ngrams"),
    ({"output_mode": "count", "output_sequence_length": 3},
     "must not be set"),
    ({"output_sequence_length": 0}, "output_sequence_length=0"),
    ({"output_mode": "count", "ragged": True}, "ragged"),
    ({"max_tokens": 1}, "max_tokens"),
    ({"pad_to_max_tokens": True, "output_mode": "count"}, "max_tokens"),
])
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.TextVectorization(**kwargs)


def test_config_round_trip_with_registered_callable():
    @kerasish.saving.register_keras_serializable(package="tv_test")
    def shout(x):
        return np.char.upper(x)

    layer = layers.TextVectorization(standardize=shout, ngrams=(1, 2),
                                     max_tokens=9, output_mode="count")
    layer.adapt(["a b", "b c"])
    config = kerasish.layers.serialize(layer)
    again = kerasish.layers.deserialize(config)
    assert again._standardize is shout and again._ngrams == (1, 2)
    # The vocabulary comes back from the assets; the config alone keeps the
    # output width, so a reloaded model's shapes are known (as in Keras).
    assert again.compute_output_shape((None, 1)) == (None, 6)


def _text_model(max_tokens=30):
    vectorize = layers.TextVectorization(max_tokens=max_tokens,
                                         output_sequence_length=6)
    vectorize.adapt(REF["corpus"])
    inputs = kerasish.Input(shape=(1,), dtype="string")
    x = layers.Embedding(max_tokens, 4)(vectorize(inputs))
    x = layers.GlobalAveragePooling1D()(x)
    return kerasish.Model(inputs, layers.Dense(1)(x))


def test_model_fits_predicts_saves_and_loads(tmp_path):
    model = _text_model()
    assert model.output_shape == (None, 1)
    x = np.array(REF["corpus"])[:, None]
    y = np.arange(len(x), dtype="float32")[:, None] / len(x)
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    path = str(tmp_path / "text.keras")
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        vocab = zf.read("assets/layers/text_vectorization/vocabulary.txt")
    assert "assets/layers/text_vectorization/_lookup_layer/vocabulary.txt" \
        in names
    assert vocab.decode("utf-8").split("\n")[:3] == ["", "[UNK]", "the"]
    again = kerasish.models.load_model(path)
    np.testing.assert_allclose(again.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


def test_loads_the_keras_written_text_model():
    model = kerasish.models.load_model(os.path.join(FIXTURES,
                                                    "text_model.keras"))
    queries = np.array(REF["queries"])[:, None]
    np.testing.assert_allclose(model.predict(queries, verbose=0),
                               REF["text_model_predictions"],
                               rtol=1e-5, atol=1e-6)


def test_tf_idf_weights_saved_as_keras_does(tmp_path):
    keras_file = os.path.join(FIXTURES, "text_tf_idf.keras")
    model = kerasish.models.load_model(keras_file)
    case = REF["cases"]["tf_idf"]
    queries = np.array(REF["queries"])[:, None]
    np.testing.assert_allclose(model(queries).numpy(), case["outputs"],
                               rtol=1e-6, atol=1e-6)
    path = str(tmp_path / "tf_idf.keras")
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        weights = zf.read("model.weights.h5")
    import io

    import h5py
    with h5py.File(io.BytesIO(weights)) as f:
        for group in ("layers/text_vectorization/vars",
                      "layers/text_vectorization/_lookup_layer/vars"):
            np.testing.assert_allclose(f[group]["idf_weights"][()],
                                       case["idf_weights"], rtol=1e-6)
    again = kerasish.models.load_model(path)
    np.testing.assert_allclose(again(queries).numpy(), case["outputs"],
                               rtol=1e-6, atol=1e-6)
