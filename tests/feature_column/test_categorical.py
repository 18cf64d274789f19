"""Categorical columns: ids against hand-computed (and TF's) values."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import feature_column as fc
from kerasish.feature_column.base import FeatureCache
from kerasish.backend.farmhash import fingerprint64


def ids_of(column, features):
    return column.get_ids(FeatureCache(features))


def indicator(column, features):
    return fc.DenseFeatures([fc.indicator_column(column)])(features).numpy()


def test_vocabulary_list_ids_and_missing_values():
    column = fc.categorical_column_with_vocabulary_list("c", ["a", "b", "c"])
    ids = ids_of(column, {"c": np.array([["b", "a"], ["c", ""]])})
    np.testing.assert_array_equal(ids.values[ids.mask], [1, 0, 2])
    np.testing.assert_array_equal(ids.mask, [[True, True], [True, False]])
    assert column.num_buckets == 3 and column.name == "c"


def test_vocabulary_list_integers_and_bytes():
    column = fc.categorical_column_with_vocabulary_list("c", [10, 20])
    np.testing.assert_array_equal(
        indicator(column, {"c": np.array([20, -1, 10])}),
        [[0, 1], [0, 0], [1, 0]])
    words = fc.categorical_column_with_vocabulary_list("w", ["x", "y"])
    np.testing.assert_array_equal(indicator(words, {"w": np.array([b"y"])}),
                                  [[0, 1]])


def test_oov_buckets_use_fingerprint64_of_the_value():
    column = fc.categorical_column_with_vocabulary_list(
        "c", ["a"], num_oov_buckets=7)
    ids = ids_of(column, {"c": np.array(["zebra", "a", "12"])})
    expected = [1 + fingerprint64("zebra") % 7, 0,
                1 + fingerprint64("12") % 7]
    np.testing.assert_array_equal(ids.values.ravel(), expected)
    ints = fc.categorical_column_with_vocabulary_list(
        "n", [5], num_oov_buckets=7)
    # Integers are hashed as their decimal strings, as TF does.
    assert ids_of(ints, {"n": np.array([12])}).values[0, 0] == expected[2]


def test_oov_without_bucket_gets_tf_id_minus_one_and_is_ignored():
    # TF 2.15 (tests/fixtures/make_tf1_reference.py, oov_ignored): the
    # sparse ids are [0, -1]; input_layer gives [[1, 0, 1, 1]].
    column = fc.categorical_column_with_vocabulary_list("v", ["p", "q"])
    ids = ids_of(column, {"v": np.array(["p", "zz", ""])})
    assert ids.values.ravel()[:2].tolist() == [0, -1]
    assert ids.mask.ravel().tolist() == [True, False, False]
    embedding = fc.embedding_column(column, 2, combiner="mean",
                                    initializer=keras.initializers.Ones())
    out = fc.DenseFeatures([fc.indicator_column(column), embedding])(
        {"v": np.array([["p", "zz"]])}).numpy()
    np.testing.assert_array_equal(out, [[1, 1, 1, 0]])


def test_default_value_maps_or_drops_oov():
    column = fc.categorical_column_with_vocabulary_list(
        "c", ["a", "b"], default_value=1)
    np.testing.assert_array_equal(
        ids_of(column, {"c": np.array(["z", "a"])}).values.ravel(), [1, 0])
    dropping = fc.categorical_column_with_vocabulary_list(
        "c", ["a", "b"], default_value=-1)
    np.testing.assert_array_equal(
        indicator(dropping, {"c": np.array(["z", "a"])}), [[0, 0], [1, 0]])


@pytest.mark.parametrize("kwargs,message", [
    (dict(vocabulary_list=[]), "must be non-empty"),
    (dict(vocabulary_list=["a", "a"]), "Duplicate keys"),
    (dict(vocabulary_list=["a"], num_oov_buckets=-1), "num_oov_buckets"),
    (dict(vocabulary_list=["a"], num_oov_buckets=2, default_value=0),
     "both num_oov_buckets and default_value"),
    (dict(vocabulary_list=["a"], dtype="int64"), "do not match"),
    (dict(vocabulary_list=[1.5]), "do not match"),
])
def test_vocabulary_list_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fc.categorical_column_with_vocabulary_list("c", **kwargs)


def test_wrong_dtype_names_the_column_and_feature():
    column = fc.categorical_column_with_vocabulary_list("c", ["a"])
    with pytest.raises(ValueError, match="Column 'c' expects string values "
                                         "in feature 'c'.*float64"):
        ids_of(column, {"c": np.array([1.0])})


def test_vocabulary_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("dog\ncat\nbird\n")
    column = fc.categorical_column_with_vocabulary_file(
        "pet", str(path), vocabulary_size=2, num_oov_buckets=1)
    assert column.num_buckets == 3
    ids = ids_of(column, {"pet": np.array(["cat", "dog", "bird"])})
    # "bird" is beyond vocabulary_size: the (only) OOV bucket, id 2.
    np.testing.assert_array_equal(ids.values.ravel(), [1, 0, 2])
    numbers = tmp_path / "ids.txt"
    numbers.write_text("7\n3\n")
    int_column = fc.categorical_column_with_vocabulary_file(
        "n", str(numbers), dtype="int64")
    np.testing.assert_array_equal(
        ids_of(int_column, {"n": np.array([3, 7])}).values.ravel(), [1, 0])


def test_vocabulary_file_errors(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        fc.categorical_column_with_vocabulary_file("c", str(tmp_path / "x"))
    with pytest.raises(ValueError, match="Missing vocabulary_file"):
        fc.categorical_column_with_vocabulary_file("c", "")
    path = tmp_path / "v.txt"
    path.write_text("a\n")
    column = fc.categorical_column_with_vocabulary_file(
        "c", str(path), vocabulary_size=5)
    with pytest.raises(ValueError, match="larger than the 1 lines"):
        ids_of(column, {"c": np.array(["a"])})


def test_identity_column():
    column = fc.categorical_column_with_identity("d", num_buckets=4)
    ids = ids_of(column, {"d": np.array([[3, -1], [0, 1]])})
    np.testing.assert_array_equal(ids.values[ids.mask], [3, 0, 1])
    with pytest.raises(ValueError, match=r"ids \[4, 9\].*outside \[0, 4\)"):
        ids_of(column, {"d": np.array([4, 9, 2])})
    with pytest.raises(ValueError, match="expects int values"):
        ids_of(column, {"d": np.array(["1"])})
    default = fc.categorical_column_with_identity("d", 4, default_value=0)
    np.testing.assert_array_equal(
        ids_of(default, {"d": np.array([9, 2])}).values.ravel(), [0, 2])
    with pytest.raises(ValueError, match="not in range"):
        fc.categorical_column_with_identity("d", 4, default_value=4)
    with pytest.raises(ValueError, match="< 1"):
        fc.categorical_column_with_identity("d", 0)


def test_hash_bucket_matches_tf():
    # tf.strings.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3)
    # is [0, 2, 2] (TF's documentation).
    column = fc.categorical_column_with_hash_bucket("w", 3)
    ids = ids_of(column, {"w": np.array(["Hello", "TensorFlow", "2.x"])})
    np.testing.assert_array_equal(ids.values.ravel(), [0, 2, 2])
    ints = fc.categorical_column_with_hash_bucket("n", 100, dtype="int32")
    got = ids_of(ints, {"n": np.array([42, -1])})
    assert got.values[0, 0] == fingerprint64("42") % 100
    assert not got.mask[1, 0]
    with pytest.raises(ValueError, match="expects int values"):
        ids_of(ints, {"n": np.array(["42"])})
    with pytest.raises(ValueError, match="at least 1"):
        fc.categorical_column_with_hash_bucket("w", 0)


def test_weighted_column_weights_and_zero_weights():
    words = fc.categorical_column_with_vocabulary_list("w", ["a", "b", "c"])
    column = fc.weighted_categorical_column(words, "f")
    features = {"w": np.array([["a", "c"], ["b", "b"]]),
                "f": np.array([[0.5, 0.0], [1.0, 2.0]])}
    ids = ids_of(column, features)
    np.testing.assert_array_equal(ids.mask, [[True, False], [True, True]])
    # Repeated ids sum their weights.
    np.testing.assert_allclose(indicator(column, features),
                               [[0.5, 0, 0], [0, 3.0, 0]])
    assert column.name == "w_weighted_by_f" and column.num_buckets == 3


def test_weighted_column_errors():
    words = fc.categorical_column_with_vocabulary_list("w", ["a"])
    column = fc.weighted_categorical_column(words, "f")
    with pytest.raises(ValueError, match="'f'.*not in the features"):
        ids_of(column, {"w": np.array(["a"])})
    with pytest.raises(ValueError, match="must match the ids"):
        ids_of(column, {"w": np.array(["a"]), "f": np.ones((1, 2))})
    with pytest.raises(ValueError, match="numeric weights"):
        ids_of(column, {"w": np.array(["a"]), "f": np.array(["x"])})
    with pytest.raises(ValueError, match="not convertible to float"):
        fc.weighted_categorical_column(words, "f", dtype="int32")
