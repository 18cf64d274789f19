"""DenseFeatures and the embedding/indicator columns: values, ordering,
weights, gradients, symbolic use, configs, training in a Keras model."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import feature_column as fc
from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.utils import check_grads

TABLE = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [4.0, -4.0]],
                 np.float32)


def embedded(combiner, features, weights_key=None, max_norm=None):
    ids = fc.categorical_column_with_identity("x", 4)
    if weights_key:
        ids = fc.weighted_categorical_column(ids, weights_key)
    column = fc.embedding_column(ids, 2, combiner=combiner,
                                 max_norm=max_norm)
    layer = fc.DenseFeatures([column])
    layer(features)
    layer.weights[0].assign(TABLE)
    return layer(features).numpy()


@pytest.mark.parametrize("combiner,expected", [
    # Row 0 has ids 1 and 2, row 1 only id 3, row 2 none (zeros).
    ("sum", [[3.0, 5.0], [4.0, -4.0], [0.0, 0.0]]),
    ("mean", [[1.5, 2.5], [4.0, -4.0], [0.0, 0.0]]),
    ("sqrtn", [[3 / 2 ** 0.5, 5 / 2 ** 0.5], [4.0, -4.0], [0.0, 0.0]]),
])
def test_embedding_combiners(combiner, expected):
    x = np.array([[1, 2], [3, -1], [-1, -1]])
    np.testing.assert_allclose(embedded(combiner, {"x": x}), expected,
                               rtol=1e-6)


@pytest.mark.parametrize("combiner,expected", [
    ("sum", [[0.5 * 0 + 2 * 3, 0.5 * 2 + 2 * 3]]),
    ("mean", [[6 / 2.5, 7 / 2.5]]),
    ("sqrtn", [[6 / 4.25 ** 0.5, 7 / 4.25 ** 0.5]]),
])
def test_weighted_embedding_combiners(combiner, expected):
    features = {"x": np.array([[1, 2]]), "w": np.array([[0.5, 2.0]])}
    np.testing.assert_allclose(embedded(combiner, features, "w"), expected,
                               rtol=1e-6)


def test_embedding_max_norm_clips_each_looked_up_row():
    out = embedded("sum", {"x": np.array([[3], [0]])}, max_norm=2.0)
    # |[4, -4]| = 5.66 -> scaled to norm 2; |[1, 0]| = 1 is kept.
    np.testing.assert_allclose(out, [[2 ** 0.5, -2 ** 0.5], [1.0, 0.0]],
                               rtol=1e-6)


def test_embedding_weights_path_shape_and_default_initializer():
    words = fc.categorical_column_with_vocabulary_list("w", ["a", "b"])
    layer = fc.DenseFeatures([fc.embedding_column(words, 16)])
    layer({"w": np.array(["a"])})
    (weights,) = layer.weights
    assert weights.path == "dense_features/w_embedding/embedding_weights"
    assert weights.shape == (2, 16)
    # Truncated normal with stddev 1/sqrt(16): within two deviations.
    assert np.abs(weights.numpy()).max() <= 2 / 4 + 1e-6


def test_embedding_gradients_are_row_sparse_and_correct():
    ids = fc.categorical_column_with_identity("x", 50)
    layer = fc.DenseFeatures([fc.embedding_column(ids, 3,
                                                  combiner="sqrtn")])
    features = {"x": np.array([[4, 7], [7, -1]])}
    layer(features)
    table = layer.weights[0]
    with keras.GradientTape() as tape:
        loss = keras.ops.sum(layer(features) ** 2)
    grad = tape.gradient(loss, table)
    assert isinstance(grad, IndexedSlices)
    assert set(np.asarray(grad.indices).tolist()) == {4, 7}


def test_embedding_float64_gradient_check():
    ids = fc.weighted_categorical_column(
        fc.categorical_column_with_identity("x", 5), "w")
    layer = fc.DenseFeatures([fc.embedding_column(ids, 3, combiner="mean",
                                                  max_norm=1.5)],
                             dtype="float64")
    features = {"x": np.array([[0, 3, -1], [2, 2, 4]]),
                "w": np.array([[1.0, 2.0, 0.0], [0.5, 1.5, 1.0]])}
    layer(features)
    check_grads(lambda: layer(features), [], variables=layer.weights)


def test_columns_are_sorted_by_name_and_concatenated():
    b = fc.numeric_column("b", shape=2)
    a = fc.indicator_column(fc.categorical_column_with_identity("a", 3))
    outputs = {}
    out = fc.DenseFeatures([b, a])(
        {"a": np.array([2]), "b": np.array([[5.0, 6.0]])},
        cols_to_output_tensors=outputs)
    np.testing.assert_array_equal(out.numpy(), [[0, 0, 1, 5, 6]])
    np.testing.assert_array_equal(outputs[b].numpy(), [[5, 6]])


def test_dense_features_errors():
    identity = fc.categorical_column_with_identity("a", 3)
    with pytest.raises(ValueError, match="must be a DenseColumn.*"
                                         "embedding_column or indicator"):
        fc.DenseFeatures([identity])
    with pytest.raises(ValueError, match="Duplicate feature column name"):
        fc.DenseFeatures([fc.numeric_column("a"), fc.numeric_column("a")])
    with pytest.raises(ValueError, match="must not be empty"):
        fc.DenseFeatures([])
    with pytest.raises(ValueError, match="dictionary"):
        fc.DenseFeatures([fc.numeric_column("a")])(np.ones((2, 1)))
    with pytest.raises(ValueError, match="Invalid dimension"):
        fc.embedding_column(identity, 0)
    with pytest.raises(ValueError, match="combiner"):
        fc.embedding_column(identity, 2, combiner="max")


def columns():
    party = fc.categorical_column_with_vocabulary_list(
        "party", ["dem", "rep", "ind"])
    age = fc.numeric_column("age", normalizer_fn=None)
    return [age, fc.bucketized_column(age, [30, 60]),
            fc.embedding_column(party, 3), fc.indicator_column(party)]


def data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    party = rng.choice(["dem", "rep", "ind"], n)
    age = rng.uniform(18, 90, n).astype("float32")
    y = ((party == "dem") | (age > 60)).astype("float32")[:, None]
    return {"party": party, "age": age}, y


def test_functional_model_with_dense_features_trains_with_fit():
    party = fc.categorical_column_with_identity("party", 3)
    age = fc.numeric_column("age")
    inputs = {"age": keras.Input((1,), name="age"),
              "party": keras.Input((1,), name="party", dtype="int32")}
    hidden = fc.DenseFeatures([age, fc.bucketized_column(age, [0.3, 0.6]),
                               fc.embedding_column(party, 3),
                               fc.indicator_column(party)])(inputs)
    assert hidden.shape == (None, 1 + 3 + 3 + 3)
    outputs = keras.layers.Dense(1, activation="sigmoid")(
        keras.layers.Dense(8, activation="relu")(hidden))
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy",
                  metrics=["accuracy"])
    x, y = data(256)
    codes = np.searchsorted(["dem", "ind", "rep"], x["party"])
    x = {"age": x["age"][:, None] / 100, "party": codes[:, None]}
    history = model.fit(x, y, epochs=30, batch_size=64, verbose=0)
    assert history.history["accuracy"][-1] > 0.9


class Classifier(keras.Model):
    def __init__(self):
        super().__init__()
        # String features reach DenseFeatures unconverted (kerasish's
        # Layer.__call__ casts inputs to floats unless told not to).
        self._convert_input_args = False
        self.features = fc.DenseFeatures(columns())
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.out = keras.layers.Dense(1, activation="sigmoid")

    def call(self, x):
        return self.out(self.hidden(self.features(x)))


def test_subclassed_model_reads_string_features_with_fit():
    model = Classifier()
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy",
                  metrics=["accuracy"])
    x, y = data(256)
    x["age"] = x["age"] / 100
    history = model.fit(x, y, epochs=30, batch_size=64, verbose=0)
    assert history.history["accuracy"][-1] > 0.9
    assert "classifier/dense_features/party_embedding/embedding_weights" in \
        [w.path for w in model.weights]


def test_config_round_trip_gives_the_same_outputs():
    layer = fc.DenseFeatures(columns(), name="features")
    x, _ = data(5)
    expected = layer(x).numpy()
    config = layer.get_config()
    clone = fc.DenseFeatures.from_config(config)
    clone(x)
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(clone(x).numpy(), expected)
    assert [c.name for c in clone.feature_columns] == \
        [c.name for c in layer.feature_columns]
    restored = keras.layers.deserialize(keras.layers.serialize(layer))
    assert isinstance(restored, fc.DenseFeatures)
