"""numeric_column and bucketized_column: values, shapes, errors."""
import numpy as np
import pytest

import kerasish
from kerasish import feature_column as fc
from kerasish.feature_column.base import FeatureCache


def dense(columns, features):
    return fc.DenseFeatures(columns)(features).numpy()


def test_numeric_rank_one_feature_is_one_value_per_example():
    out = dense([fc.numeric_column("x")], {"x": np.array([1, 2, 3])})
    np.testing.assert_array_equal(out, [[1.0], [2.0], [3.0]])
    assert out.dtype == np.float32


def test_numeric_shape_is_flattened():
    column = fc.numeric_column("x", shape=(2, 2))
    x = np.arange(8.0).reshape(2, 2, 2)
    np.testing.assert_array_equal(dense([column], {"x": x}),
                                  x.reshape(2, 4))
    assert column.variable_shape == (2, 2)


def test_numeric_normalizer_runs_before_the_cast():
    seen = []

    def normalizer(x):
        seen.append(np.asarray(x).dtype)
        return (x - 10) / 5
    column = fc.numeric_column("x", normalizer_fn=normalizer)
    np.testing.assert_allclose(
        dense([column], {"x": np.array([10.0, 20.0, 0.0])}),
        [[0.0], [2.0], [-2.0]])
    assert seen[0] == np.float64 or seen[0] == np.float32


def test_numeric_default_value_fills_an_absent_feature():
    column = fc.numeric_column("x", shape=2, default_value=[1.0, 2.0])
    out = dense([column, fc.numeric_column("y")],
                {"y": np.array([5.0, 6.0])})
    np.testing.assert_array_equal(out, [[1, 2, 5], [1, 2, 6]])


def test_numeric_errors_name_the_column():
    with pytest.raises(ValueError, match="'x'.*not in the features"):
        dense([fc.numeric_column("x")], {"y": np.ones(2)})
    with pytest.raises(ValueError, match="numeric_column 'x' expects numbers"):
        dense([fc.numeric_column("x")], {"x": np.array(["a", "b"])})
    with pytest.raises(ValueError, match=r"expects shape \(3,\)"):
        dense([fc.numeric_column("x", shape=3)], {"x": np.ones((2, 2))})
    with pytest.raises(ValueError, match="rank 0"):
        dense([fc.numeric_column("x")], {"x": np.float32(1.0)})


@pytest.mark.parametrize("kwargs,message", [
    (dict(shape=0), "greater than 0"),
    (dict(shape="ab"), "shape"),
    (dict(dtype="string"), "convertible to float"),
    (dict(normalizer_fn=3), "callable"),
    (dict(default_value=[1.0, 2.0]), "shape of default_value"),
])
def test_numeric_bad_arguments(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        fc.numeric_column("x", **kwargs)


def test_bucketized_one_hot_and_ids():
    # Hand-computed: boundaries [0, 10] -> buckets (-inf,0) [0,10) [10,inf).
    column = fc.bucketized_column(fc.numeric_column("x"), [0, 10])
    x = np.array([-5.0, 0.0, 9.99, 10.0, 50.0])
    np.testing.assert_array_equal(dense([column], {"x": x}),
                                  np.eye(3)[[0, 1, 1, 2, 2]])
    ids = column.get_ids(FeatureCache({"x": x}))
    np.testing.assert_array_equal(ids.values.ravel(), [0, 1, 1, 2, 2])
    assert column.name == "x_bucketized" and column.num_buckets == 3


def test_bucketized_multi_element_source_offsets_ids():
    column = fc.bucketized_column(fc.numeric_column("x", shape=2), [1.0])
    x = np.array([[0.0, 2.0], [3.0, 0.5]])
    ids = column.get_ids(FeatureCache({"x": x}))
    # Element 1's buckets are offset by len(boundaries) + 1 = 2.
    np.testing.assert_array_equal(ids.values, [[0, 3], [1, 2]])
    np.testing.assert_array_equal(dense([column], {"x": x}),
                                  [[1, 0, 0, 1], [0, 1, 1, 0]])
    assert column.num_buckets == 4 and column.variable_shape == (2, 2)


def test_bucketized_uses_the_normalized_values():
    source = fc.numeric_column("x", normalizer_fn=lambda x: x * 100)
    column = fc.bucketized_column(source, [50])
    np.testing.assert_array_equal(
        dense([column], {"x": np.array([0.4, 0.6])}), [[1, 0], [0, 1]])


@pytest.mark.parametrize("source,boundaries,message", [
    ("x", [1.0], "numeric_column"),
    (fc.numeric_column("x", shape=(2, 2)), [1.0], "one-dimensional"),
    (fc.numeric_column("x"), [], "sorted list"),
    (fc.numeric_column("x"), [2.0, 1.0], "sorted list"),
    (fc.numeric_column("x"), [1.0, 1.0], "sorted list"),
])
def test_bucketized_bad_arguments(source, boundaries, message):
    with pytest.raises(ValueError, match=message):
        fc.bucketized_column(source, boundaries)


def test_numeric_is_differentiable_through_dense_features():
    column = fc.numeric_column("x", shape=2, normalizer_fn=lambda t: t * 3)
    layer = fc.DenseFeatures([column])
    x = kerasish.Variable(np.array([[1.0, 2.0]], "float32"))
    with kerasish.GradientTape() as tape:
        y = kerasish.ops.sum(layer({"x": x}))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[3.0, 3.0]])
