"""Shared embeddings: one table, TF's names and outputs (TF 2.15 values
from tests/fixtures/make_tf1_reference.py, shared_embeddings)."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator
from kerasish import feature_column as fc

FEATURES = {"a": np.array([["x"], ["z"]]), "b": np.array([["q"], ["q"]])}
TABLE = np.arange(6).reshape(3, 2) / 10
# TF's input_layer / DenseFeatures output: sorted by column name, so the
# a_shared_embedding block comes first.
TF_OUTPUT = [[0.0, 0.1, 0.2, 0.3], [0.4, 0.5, 0.2, 0.3]]


def columns():
    return (fc.categorical_column_with_vocabulary_list("a", ["x", "y", "z"]),
            fc.categorical_column_with_vocabulary_list("b", ["p", "q", "r"]))


@pytest.mark.parametrize("make, path", [
    (fc.shared_embedding_columns,
     "input_layer/a_b_shared_embedding/embedding_weights"),
    (fc.shared_embeddings, "a_b_shared_embedding")])
def test_one_table_with_tf_names_and_outputs(make, path):
    a, b = columns()
    shared = make([b, a], 2, initializer=keras.initializers.Constant(TABLE))
    assert [c.name for c in shared] == ["b_shared_embedding",
                                        "a_shared_embedding"]
    layer = fc.DenseFeatures(shared, name="input_layer")
    np.testing.assert_allclose(layer(FEATURES).numpy(), TF_OUTPUT,
                               rtol=1e-6)
    assert [v.path for v in layer.weights] == [path]


def test_collection_name_and_gradients_from_every_column():
    a, b = columns()
    shared = fc.shared_embedding_columns(
        [a, b], 2, shared_embedding_collection_name="shared",
        initializer=keras.initializers.Constant(TABLE))
    layer = fc.DenseFeatures(shared)
    with keras.GradientTape() as tape:
        out = layer(FEATURES)
        loss = keras.ops.sum(out * np.array([1.0, 1.0, 10.0, 10.0]))
    (weights,) = layer.trainable_variables
    assert weights.path == "dense_features/shared/embedding_weights"
    grad = keras.ops.convert_to_numpy(tape.gradient(loss, weights))
    # Row 0 (a="x") and row 2 (a="z") from column a, row 1 (b="q", twice)
    # from column b: both columns train the one table.
    np.testing.assert_allclose(grad, [[1, 1], [20, 20], [1, 1]])


def test_premade_dnn_names_the_table_as_tf(tmp_path):
    labels = np.array([[1], [0]])
    for i, make in enumerate([fc.shared_embedding_columns,
                              fc.shared_embeddings]):
        a, b = columns()
        est = estimator.DNNClassifier(
            [2], make([a, b], 2), model_dir=str(tmp_path / str(i)),
            optimizer="SGD",
            config=estimator.RunConfig(log_step_count_steps=None))
        est.train(lambda: (FEATURES, labels), steps=2)
        names = est.get_variable_names()
        if i == 0:
            assert ("dnn/input_from_feature_columns/input_layer/"
                    "a_b_shared_embedding/embedding_weights") in names
        else:
            # TF 2.15's tf.estimator.DNNClassifier lists exactly these.
            assert names == sorted([
                "a_b_shared_embedding", "dnn/hiddenlayer_0/bias",
                "dnn/hiddenlayer_0/kernel", "dnn/logits/bias",
                "dnn/logits/kernel", "global_step", "training/SGD/decay",
                "training/SGD/learning_rate", "training/SGD/momentum"])


def test_errors_name_the_argument():
    a, _ = columns()
    c = fc.categorical_column_with_vocabulary_list("c", ["1", "2"])
    with pytest.raises(ValueError, match="same number of buckets"):
        fc.shared_embedding_columns([a, c], 2)
    with pytest.raises(ValueError, match="subclasses of CategoricalColumn"):
        fc.shared_embeddings([a, fc.numeric_column("n")], 2)
    with pytest.raises(ValueError, match="non-empty list"):
        fc.shared_embeddings([], 2)
    with pytest.raises(ValueError, match="combiner"):
        fc.shared_embeddings([a], 2, combiner="max")
    with pytest.raises(ValueError, match="Invalid dimension 0"):
        fc.shared_embedding_columns([a], 0)


@pytest.mark.parametrize("make", [fc.shared_embedding_columns,
                                  fc.shared_embeddings])
def test_a_model_with_shared_embeddings_saves_and_loads(tmp_path, make):
    a, b = columns()
    shared = make([a, b], 2, initializer=keras.initializers.Constant(TABLE))
    again = fc.deserialize_feature_column(
        fc.serialize_feature_column(shared[0]))
    assert again._replace(initializer=None) == \
        shared[0]._replace(initializer=None)
    inputs = {k: keras.Input((1,), name=k, dtype="string") for k in "ab"}
    outputs = keras.layers.Dense(1)(fc.DenseFeatures(shared)(inputs))
    model = keras.Model(inputs, outputs)
    path = str(tmp_path / "model.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(FEATURES, verbose=0),
                               model.predict(FEATURES, verbose=0))
    assert [w.path for w in loaded.layers[-2].weights] == \
        [w.path for w in model.layers[-2].weights]
