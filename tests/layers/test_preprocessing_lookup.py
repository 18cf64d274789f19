"""IntegerLookup, StringLookup and HashedCrossing.

Expected indices follow Keras 3's documented layout and examples
(`[mask] [oov...] tokens`, most frequent first after `adapt`, ties broken
by the larger token); HashedCrossing's values are its docstring example,
computed by Keras with TensorFlow.
"""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend import farmhash


def test_string_lookup_vocabulary_oov_and_mask():
    layer = layers.StringLookup(vocabulary=["a", "b", "c", "d"])
    np.testing.assert_array_equal(
        layer(np.array([["a", "c", "d"], ["d", "z", "b"]])).numpy(),
        [[1, 3, 4], [4, 0, 2]])
    assert layer.vocabulary_size() == 5
    assert layer.get_vocabulary() == ["[UNK]", "a", "b", "c", "d"]
    masked = layers.StringLookup(vocabulary=["a", "b"], mask_token="")
    np.testing.assert_array_equal(masked(np.array(["b", "", "q"])).numpy(),
                                  [3, 0, 1])
    assert masked.get_vocabulary() == ["", "[UNK]", "a", "b"]
    # Special tokens at the head of a given vocabulary are recognised.
    again = layers.StringLookup(vocabulary=["", "[UNK]", "a", "b"],
                                mask_token="")
    assert again.get_vocabulary() == masked.get_vocabulary()


def test_string_lookup_adapt_orders_by_frequency():
    layer = layers.StringLookup()
    layer.adapt(np.array([["a", "b", "b"], ["c", "c", "c"], ["d", "a", "e"]]))
    # counts: c=3, b=2, a=2, e=1, d=1 -> ties by the larger token first.
    assert layer.get_vocabulary() == ["[UNK]", "c", "b", "a", "e", "d"]
    capped = layers.StringLookup(max_tokens=3)
    capped.adapt([np.array(["x", "y", "y"]), np.array(["y", "z"])])
    assert capped.get_vocabulary() == ["[UNK]", "y", "z"]
    assert capped.get_vocabulary(include_special_tokens=False) == ["y", "z"]


def test_string_lookup_several_oov_buckets_use_farmhash():
    layer = layers.StringLookup(vocabulary=["a"], num_oov_indices=3)
    words = np.array(["Hello", "TensorFlow", "2.x", "a"])
    expected = [farmhash.fingerprint64(w) % 3 for w in words[:3]] + [3]
    np.testing.assert_array_equal(layer(words).numpy(), expected)
    np.testing.assert_array_equal(layer(words).numpy()[:3], [0, 2, 2])
    salted = layers.StringLookup(vocabulary=["a"], num_oov_indices=3,
                                 salt=[1, 2])
    np.testing.assert_array_equal(salted(np.array(["Hello", "TF"])).numpy(),
                                  [2, 0])


def test_string_lookup_invert_and_bytes_inputs():
    layer = layers.StringLookup(vocabulary=["a", "b", "c"], invert=True)
    out = layer(np.array([[1, 0], [3, 9]])).numpy()
    np.testing.assert_array_equal(out, [["a", "[UNK]"], ["c", "[UNK]"]])
    forward = layers.StringLookup(vocabulary=["é", "b"])
    np.testing.assert_array_equal(
        forward(np.array(["é".encode(), b"b"])).numpy(), [1, 2])


@pytest.mark.parametrize("mode,expected", [
    ("one_hot", [[0, 0, 1], [1, 0, 0], [0, 1, 0]]),
    ("multi_hot", [[1, 1, 1]]),
    ("count", [[1, 1, 1]])])
def test_string_lookup_encoded_outputs(mode, expected):
    layer = layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)
    x = np.array(["b", "x", "a"])
    x = x if mode == "one_hot" else x[None]
    np.testing.assert_array_equal(layer(x).numpy(), expected)


def test_encoded_outputs_pad_to_max_tokens_and_drop_the_mask():
    layer = layers.StringLookup(vocabulary=["a", "b"], mask_token="",
                                output_mode="count", max_tokens=6,
                                pad_to_max_tokens=True)
    np.testing.assert_array_equal(
        layer(np.array([["a", "", "a", "q"]])).numpy(), [[1, 2, 0, 0, 0, 0]])
    assert layer.compute_output_shape((None, 4)) == (None, 6)


def test_tf_idf_output():
    layer = layers.StringLookup(output_mode="tf_idf")
    layer.adapt(np.array([["a", "b"], ["a", "a"]]))
    idf_a, idf_b = np.log(1 + 2 / 3), np.log(1 + 2 / 2)
    np.testing.assert_allclose(layer.idf_weights,
                               [(idf_a + idf_b) / 2, idf_a, idf_b],
                               rtol=1e-6)
    np.testing.assert_allclose(layer(np.array([["a", "b", "a"]])).numpy(),
                               [[0.0, 2 * idf_a, idf_b]], rtol=1e-6)
    given = layers.StringLookup(vocabulary=["x", "y"],
                                idf_weights=[0.5, 2.0],
                                output_mode="tf_idf")
    np.testing.assert_allclose(given(np.array([["y", "y", "z"]])).numpy(),
                               [[1.25, 0.0, 4.0]])


def test_integer_lookup_floormod_farmhash_and_invert():
    layer = layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])
    np.testing.assert_array_equal(
        layer(np.array([[12, 1138, 42], [42, 1000, 36]])).numpy(),
        [[1, 3, 4], [4, 0, 2]])
    multi = layers.IntegerLookup(vocabulary=[5], num_oov_indices=3)
    np.testing.assert_array_equal(multi(np.array([7, 9, 5, -1])).numpy(),
                                  [1, 0, 3, 2])
    hashed = layers.IntegerLookup(vocabulary=[5], num_oov_indices=3,
                                  oov_method="farmhash")
    np.testing.assert_array_equal(
        hashed(np.array([7, 1000])).numpy(),
        [farmhash.fingerprint64("7") % 3, farmhash.fingerprint64("1000") % 3])
    inverse = layers.IntegerLookup(vocabulary=[12, 36], invert=True)
    np.testing.assert_array_equal(inverse(np.array([[1, 2, 0]])).numpy(),
                                  [[12, 36, -1]])
    masked = layers.IntegerLookup(vocabulary=[4, 8], mask_token=0)
    np.testing.assert_array_equal(masked(np.array([0, 8, 3])).numpy(),
                                  [0, 3, 1])


def test_integer_lookup_adapt_and_model_round_trip(tmp_path):
    layer = layers.IntegerLookup()
    layer.adapt(np.array([3, 3, 7, 7, 7, 1]))
    assert layer.get_vocabulary() == [-1, 7, 3, 1]
    inp = kerasish.Input((2,), dtype="int64")
    lookup = layers.IntegerLookup(vocabulary=[10, 20, 30])
    model = kerasish.Model(inp, lookup(inp))
    path = str(tmp_path / "lookup.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    np.testing.assert_array_equal(
        loaded.predict(np.array([[30, 11]]), verbose=0), [[3, 0]])


def test_lookup_configs():
    config = layers.IntegerLookup(vocabulary=[1, 2]).get_config()
    assert set(config) == {
        "name", "trainable", "dtype", "invert", "max_tokens",
        "num_oov_indices", "oov_token", "mask_token", "output_mode",
        "sparse", "pad_to_max_tokens", "vocabulary_dtype", "idf_weights",
        "vocabulary", "vocabulary_size", "oov_method", "salt"}
    string_config = layers.StringLookup(vocabulary=["a"]).get_config()
    assert "vocabulary_dtype" not in string_config
    assert string_config["encoding"] == "utf-8"
    clone = layers.StringLookup.from_config(string_config)
    assert clone.get_vocabulary() == ["[UNK]", "a"]


@pytest.mark.parametrize("kwargs,match", [
    ({"max_tokens": 1}, "max_tokens"),
    ({"num_oov_indices": -1}, "num_oov_indices"),
    ({"output_mode": "bad"}, "output_mode"),
    ({"invert": True, "output_mode": "count"}, "when `invert` is true"),
    ({"pad_to_max_tokens": True}, "pad_to_max_tokens"),
    ({"vocabulary": ["a", "a"]}, "repeated"),
    ({"vocabulary": ["a", ""], "mask_token": ""}, "reserved mask token"),
    ({"vocabulary": ["a", "b", "c"], "max_tokens": 3}, "larger than"),
    ({"idf_weights": [1.0]}, "idf_weights"),
])
def test_lookup_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.StringLookup(**kwargs)


def test_lookup_runtime_errors():
    strict = layers.StringLookup(vocabulary=["a"], num_oov_indices=0)
    with pytest.raises(ValueError, match="num_oov_indices=0"):
        strict(np.array(["b"]))
    with pytest.raises(RuntimeError, match="set the layer's vocabulary"):
        layers.StringLookup(output_mode="count")(np.array([["a"]]))
    with pytest.raises(ValueError, match="Cannot adapt"):
        layers.StringLookup(vocabulary=["a"]).adapt(np.array(["a"]))
    with pytest.raises(ValueError, match="expects string inputs"):
        layers.StringLookup(vocabulary=["a"])(np.array([1.5]))


def test_hashed_crossing_matches_keras():
    layer = layers.HashedCrossing(num_bins=5)
    feat1 = np.array(["A", "B", "A", "B", "A"])
    feat2 = np.array([101, 101, 101, 102, 102])
    np.testing.assert_array_equal(layer((feat1, feat2)).numpy(),
                                  [1, 4, 1, 1, 3])
    one_hot = layers.HashedCrossing(num_bins=5, output_mode="one_hot")
    out = one_hot((feat1[:, None], feat2[:, None])).numpy()
    np.testing.assert_array_equal(out.argmax(-1), [1, 4, 1, 1, 3])
    assert out.shape == (5, 5)
    assert layers.HashedCrossing(4)((np.array("A"), np.array(1))).shape == ()
    three = layers.HashedCrossing(7)((feat1, feat2, feat2))
    assert three.shape == (5,) and three.dtype == np.int64


def test_hashed_crossing_errors_and_config():
    layer = layers.HashedCrossing(3)
    with pytest.raises(ValueError, match="at least two inputs"):
        layer([np.array([1])])
    with pytest.raises(ValueError, match="equal shape"):
        layer((np.array([1, 2]), np.array([1])))
    with pytest.raises(ValueError, match="integer or string"):
        layer((np.array([1.5]), np.array([1])))
    with pytest.raises(ValueError, match="output_mode"):
        layers.HashedCrossing(3, output_mode="multi_hot")
    config = layer.get_config()
    assert set(config) == {"num_bins", "output_mode", "sparse", "name",
                           "dtype"}
    assert layers.HashedCrossing.from_config(config).num_bins == 3


@pytest.mark.parametrize("kwargs,inputs,expected", [
    ({}, ["A", "B", "C", "D", "E"], [1, 0, 1, 1, 2]),
    ({"mask_value": ""}, ["A", "B", "", "C", "D"], [1, 1, 0, 2, 2]),
    ({"salt": [133, 137]}, ["A", "B", "C", "D", "E"], [1, 2, 1, 0, 2]),
    ({"salt": 133}, ["A", "B", "C", "D", "E"], [0, 0, 2, 1, 0])])
def test_hashing_matches_keras_examples(kwargs, inputs, expected):
    layer = layers.Hashing(num_bins=3, **kwargs)
    out = layer(np.array(inputs)[:, None])
    assert out.shape == (5, 1) and out.dtype == np.int64
    np.testing.assert_array_equal(out.numpy()[:, 0], expected)


def test_hashing_numbers_modes_and_config():
    # Integers (and floats, truncated) hash as their decimal strings.
    layer = layers.Hashing(num_bins=7)
    np.testing.assert_array_equal(
        layer(np.array([12, 12.9, -3])).numpy(),
        [farmhash.fingerprint64(s) % 7 for s in ("12", "12", "-3")])
    counts = layers.Hashing(num_bins=4, output_mode="count")(
        np.array([["a", "a", "b"]])).numpy()
    assert counts.shape == (1, 4) and counts.sum() == 3
    assert counts.dtype == np.float32
    one_hot = layers.Hashing(num_bins=4, output_mode="one_hot")(
        np.array([["a"], ["b"]]))
    assert one_hot.shape == (2, 4)
    config = layers.Hashing(5, salt=3).get_config()
    assert config["salt"] == [3, 3]
    assert layers.Hashing.from_config(config).strong_hash
    for kwargs, match in [({"num_bins": 0}, "num_bins"),
                          ({"num_bins": 3, "output_mode": "tf_idf"},
                           "output_mode"),
                          ({"num_bins": 3, "salt": "x"}, "salt"),
                          ({"num_bins": 3, "dtype": "float32"}, "dtype")]:
        with pytest.raises(ValueError, match=match):
            layers.Hashing(**kwargs)


@pytest.mark.parametrize("mode", ["int", "tf_idf"])
def test_adapted_vocabulary_survives_a_keras_file(tmp_path, mode):
    lookup = layers.IntegerLookup(output_mode=mode)
    lookup.adapt(np.array([[3, 3, 7], [7, 7, 1]]))
    inp = kerasish.Input((3,), dtype="int64")
    model = kerasish.Model(inp, lookup(inp))
    path = str(tmp_path / "adapted.keras")
    model.save(path)
    import zipfile
    with zipfile.ZipFile(path) as zf:
        assert any(n.startswith("assets/layers/integer_lookup/")
                   and n.endswith("vocabulary.txt") for n in zf.namelist())
    loaded = kerasish.saving.load_model(path)
    x = np.array([[1, 7, 5]])
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0))
    assert loaded.layers[1].get_vocabulary() == lookup.get_vocabulary()


def test_vocabulary_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("cat\ndog\nbird\n", encoding="utf-8")
    layer = layers.StringLookup(vocabulary=str(path))
    np.testing.assert_array_equal(
        layer(np.array(["dog", "bird", "fish"])).numpy(), [2, 3, 0])
    assert layer.get_config()["vocabulary"] is None
    ints = tmp_path / "ints.txt"
    ints.write_text("10\n20\n", encoding="utf-8")
    np.testing.assert_array_equal(
        layers.IntegerLookup(vocabulary=str(ints))(np.array([20, 5])).numpy(),
        [2, 0])
    with pytest.raises(ValueError, match="does not exist"):
        layers.StringLookup(vocabulary=str(tmp_path / "missing.txt"))
    from kerasish.saving.safe_mode import SafeModeScope
    with SafeModeScope(True), pytest.raises(ValueError,
                                            match="vocabulary file"):
        layers.StringLookup(vocabulary=str(path))


def test_integer_lookup_rejects_string_tokens():
    with pytest.raises(ValueError, match=r"looks up integers; it received "
                       r"tokens of dtype <U1: \['a', 'b'\]"):
        layers.IntegerLookup(vocabulary=["a", "b"])
    layer = layers.IntegerLookup(vocabulary=[1, 2])
    with pytest.raises(ValueError, match="looks up integers"):
        layer(np.array(["a"]))
    # Floats holding integers are looked up as the integers.
    np.testing.assert_array_equal(np.asarray(layer(np.array([1.0, 2.0, 3.0]))),
                                  [1, 2, 0])


# Expected values below are Keras 3.15's (TensorFlow backend) outputs for
# the same calls.
@pytest.mark.parametrize("mode, expected", [("int", [[1, 0, 2]]),
                                            ("multi_hot", [[1, 1]])])
def test_mask_token_is_not_oov_without_oov_indices(mode, expected):
    strings = layers.StringLookup(vocabulary=["a", "b"], mask_token="",
                                  num_oov_indices=0, output_mode=mode)
    np.testing.assert_array_equal(
        np.asarray(strings(np.array([["a", "", "b"]]))), expected)
    ints = layers.IntegerLookup(vocabulary=[7, 8], mask_token=0,
                                num_oov_indices=0, output_mode=mode)
    np.testing.assert_array_equal(np.asarray(ints(np.array([[7, 0, 8]]))),
                                  expected)
    with pytest.raises(ValueError, match="found OOV values"):
        strings(np.array([["a", "z"]]))


def test_tf_idf_adapt_counts_each_element_of_a_flat_array_as_a_document():
    layer = layers.StringLookup(output_mode="tf_idf")
    layer.adapt(np.array(["a", "a", "b", "c", "a", "b"]))
    np.testing.assert_allclose(layer.idf_weights,
                               [1.1337324, 0.9162907, 1.0986123, 1.3862944],
                               rtol=1e-6)
    ints = layers.IntegerLookup(output_mode="tf_idf")
    ints.adapt(np.array([1, 1, 2, 3]))
    np.testing.assert_allclose(ints.idf_weights,
                               [1.0148408, 0.8472978, 1.0986123, 1.0986123],
                               rtol=1e-6)
    # A nested list is one tensor: each row is a document.
    rows = layers.StringLookup(output_mode="tf_idf")
    rows.adapt([["a", "b"], ["b", "c"], ["c", "c"]])
    np.testing.assert_allclose(rows.idf_weights,
                               [0.7675284, 0.6931472, 0.6931472, 0.9162908],
                               rtol=1e-6)


def test_vocabulary_file_lines_are_all_tokens(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("[UNK]\na\nb\n", encoding="utf-8")
    layer = layers.StringLookup(vocabulary=str(path))
    assert layer.get_vocabulary() == ["[UNK]", "[UNK]", "a", "b"]
    assert layer.vocabulary_size() == 4
    np.testing.assert_array_equal(
        np.asarray(layer(np.array(["a", "b", "z", "[UNK]"]))), [2, 3, 0, 1])
    ints = tmp_path / "ints.txt"
    ints.write_text("-1\n12\n36\n", encoding="utf-8")
    layer = layers.IntegerLookup(vocabulary=str(ints))
    assert layer.get_vocabulary() == [-1, -1, 12, 36]
    np.testing.assert_array_equal(
        np.asarray(layer(np.array([12, 36, 5, -1]))), [2, 3, 0, 1])
    # A list may still start with the special tokens.
    assert layers.StringLookup(
        vocabulary=["[UNK]", "a", "b"]).get_vocabulary() == ["[UNK]", "a", "b"]


def test_hashing_booleans_hash_as_tensorflow_strings():
    # tf.strings.as_string writes booleans as "true"/"false".
    np.testing.assert_array_equal(
        np.asarray(layers.Hashing(num_bins=10)(np.array([True, False, True]))),
        [0, 7, 0])
    np.testing.assert_array_equal(
        np.asarray(layers.Hashing(num_bins=10, salt=3)(np.array([True,
                                                                 False]))),
        [4, 8])
