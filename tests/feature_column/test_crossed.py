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
    # TF 2.15 crosses the raw "" too (make_tf1_reference.py, crosses).
    np.testing.assert_array_equal(
        ids.values, [[231452, 337216, 380559, 121734, 660692, 668515]])
    assert ids.mask.all()
    singles = [ids_of(column, {"a": np.array([u]), "b": np.array([v])})
               .values[0, 0] for u in "xy" for v in "pq"]
    assert set(singles) < set(ids.values.ravel())


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


# The ids TF 2.15 gives (tests/fixtures/make_tf1_reference.py, crosses).
def test_raw_empty_string_and_minus_one_are_crossed_as_tf():
    column = fc.crossed_column(["a", "b"], hash_bucket_size=10**6)
    ids = ids_of(column, {"a": np.array(["x", "x"]),
                          "b": np.array(["", "p"])})
    np.testing.assert_array_equal(ids.values.ravel(), [380559, 231452])
    assert ids.mask.all()
    ids = ids_of(column, {"a": np.array(["x", "x"]),
                          "b": np.array([-1, 3])})
    np.testing.assert_array_equal(ids.values.ravel(), [159381, 358960])
    assert ids.mask.all()


@pytest.mark.parametrize("keys", [
    lambda: [fc.categorical_column_with_vocabulary_list("v", ["p", "q"]),
             "a"],
    # Column ids cross first (TF's sparse inputs), whatever the order.
    lambda: ["a", fc.categorical_column_with_vocabulary_list("v",
                                                             ["p", "q"])],
])
def test_oov_id_is_crossed_and_a_missing_value_is_not(keys):
    column = fc.crossed_column(keys(), hash_bucket_size=10**6)
    ids = ids_of(column, {"a": np.array(["x", "x", "x"]),
                          "v": np.array(["p", "zz", ""])})
    assert ids.mask.ravel().tolist() == [True, True, False]
    np.testing.assert_array_equal(ids.values.ravel()[:2], [607043, 815932])


def test_integer_vocabulary_oov_is_crossed():
    column = fc.crossed_column(
        ["a", fc.categorical_column_with_vocabulary_list("w", [1, 2])],
        hash_bucket_size=10**6)
    ids = ids_of(column, {"a": np.array(["x", "x", "x"]),
                          "w": np.array([1, 7, -1])})
    assert ids.mask.ravel().tolist() == [True, True, False]
    np.testing.assert_array_equal(ids.values.ravel()[:2], [607043, 815932])
