"""crossed_column: TF's hashing (checked against HashedCrossing), products,
names and errors."""
import numpy as np
import pytest

from kerasish import feature_column as fc
from kerasish.feature_column.base import FeatureCache
from kerasish.layers import HashedCrossing


def ids_of(column, features):
    return column.get_ids(FeatureCache(features))


def test_cross_of_raw_features_equals_hashed_crossing():
    # HashedCrossing reproduces tf.sparse.cross_hashed (verified vs TF).
    a = np.array(["A", "B", "A", "B", "A"])
    b = np.array([101, 101, 101, 102, 102])
    column = fc.crossed_column(["a", "b"], hash_bucket_size=5)
    ids = ids_of(column, {"a": a, "b": b})
    expected = HashedCrossing(num_bins=5)((a, b)).numpy()
    np.testing.assert_array_equal(ids.values.ravel(), expected)
    np.testing.assert_array_equal(expected, [1, 4, 1, 1, 3])


def test_cross_with_a_categorical_column_hashes_its_ids():
    age = fc.bucketized_column(fc.numeric_column("age"), [30])
    column = fc.crossed_column([age, "city"], hash_bucket_size=1000)
    features = {"age": np.array([20.0, 40.0]), "city": np.array(["x", "y"])}
    got = ids_of(column, features).values.ravel()
    # The bucket ids (0 and 1) are crossed as integers.
    expected = HashedCrossing(num_bins=1000)(
        (np.array([0, 1]), features["city"])).numpy()
    np.testing.assert_array_equal(got, expected)
    assert column.name == "age_bucketized_X_city"


def test_multivalent_cross_is_the_cartesian_product():
    column = fc.crossed_column(["a", "b"], hash_bucket_size=10**6)
    ids = ids_of(column, {"a": np.array([["x", "y"]]),
                          "b": np.array([["p", "q", ""]])})
    assert ids.values.shape == (1, 6)
    assert ids.mask.sum() == 4  # "" is missing: 2 x 2 crosses remain
    singles = [ids_of(column, {"a": np.array([u]), "b": np.array([v])})
               .values[0, 0] for u in "xy" for v in "pq"]
    assert sorted(ids.values[ids.mask]) == sorted(singles)


def test_nested_crosses_are_flattened_and_names_sorted():
    inner = fc.crossed_column(["b", "a"], 10)
    column = fc.crossed_column([inner, "c"], 50)
    assert column.name == "a_X_b_X_c"
    flat = fc.crossed_column(["b", "a", "c"], 50)
    features = {"a": np.array(["1"]), "b": np.array(["2"]),
                "c": np.array(["3"])}
    np.testing.assert_array_equal(ids_of(column, features).values,
                                  ids_of(flat, features).values)


def test_hash_key_changes_the_buckets():
    features = {"a": np.array(["x", "y", "z"]), "b": np.array(["u"] * 3)}
    default = ids_of(fc.crossed_column(["a", "b"], 10**9), features)
    keyed = ids_of(fc.crossed_column(["a", "b"], 10**9, hash_key=7),
                   features)
    assert not np.array_equal(default.values, keyed.values)


def test_cross_errors():
    hashed = fc.categorical_column_with_hash_bucket("h", 10)
    with pytest.raises(ValueError, match="not supported for crossing"):
        fc.crossed_column([hashed, "b"], 10)
    with pytest.raises(ValueError, match="length > 1"):
        fc.crossed_column(["a"], 10)
    with pytest.raises(ValueError, match="Unsupported key type"):
        fc.crossed_column(["a", fc.numeric_column("n")], 10)
    column = fc.crossed_column(["a", "b"], 10)
    with pytest.raises(ValueError, match="feature 'b' has dtype float64"):
        ids_of(column, {"a": np.array(["x"]), "b": np.array([1.5])})
    weighted = fc.weighted_categorical_column(
        fc.categorical_column_with_identity("i", 3), "w")
    with pytest.raises(ValueError, match="does not support weight_tensor"):
        ids_of(fc.crossed_column([weighted, "a"], 10),
               {"i": np.array([1]), "w": np.array([1.0]),
                "a": np.array(["x"])})
