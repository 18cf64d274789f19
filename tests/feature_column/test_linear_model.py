"""LinearModel (the wide part): hand-computed sums, combiners, paths."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import feature_column as fc
from kerasish.utils import check_grads


def make(sparse_combiner="sum", units=1):
    color = fc.categorical_column_with_vocabulary_list("c", ["r", "g", "b"])
    age = fc.numeric_column("age")
    return fc.LinearModel([color, age, fc.bucketized_column(age, [50])],
                          units=units, sparse_combiner=sparse_combiner)


def set_weights(model):
    # Order: columns sorted by name (age, age_bucketized, c), then bias.
    model.set_weights([np.array([[0.5]]), np.array([[10.0], [20.0]]),
                       np.array([[1.0], [2.0], [3.0]]), np.array([0.25])])


def test_weighted_sum_by_hand():
    model = make()
    features = {"c": np.array([["r", "b"], ["g", ""]]),
                "age": np.array([40.0, 60.0])}
    model(features)
    set_weights(model)
    # Row 0: 0.5*40 + 10 (bucket 0) + (1 + 3) + 0.25.
    # Row 1: 0.5*60 + 20 (bucket 1) + 2 + 0.25.
    np.testing.assert_allclose(model(features).numpy(),
                               [[34.25], [52.25]])


@pytest.mark.parametrize("combiner,expected", [
    ("mean", 20 + 10 + 2 + 0.25), ("sqrtn", 20 + 10 + 4 / 2 ** 0.5 + 0.25)])
def test_sparse_combiners(combiner, expected):
    model = make(combiner)
    features = {"c": np.array([["r", "b"]]), "age": np.array([40.0])}
    model(features)
    set_weights(model)
    np.testing.assert_allclose(model(features).numpy(), [[expected]],
                               rtol=1e-6)


def test_variables_start_at_zero_with_tf_names():
    model = make(units=3)
    model({"c": np.array(["r"]), "age": np.array([1.0])})
    assert [w.path for w in model.weights] == [
        "linear_model/age/weights", "linear_model/age_bucketized/weights",
        "linear_model/c/weights", "linear_model/bias_weights"]
    assert [tuple(w.shape) for w in model.weights] == [
        (1, 3), (2, 3), (3, 3), (3,)]
    assert all(not w.numpy().any() for w in model.weights)


def test_gradient_check_float64():
    model = fc.LinearModel(
        [fc.categorical_column_with_identity("i", 4),
         fc.numeric_column("x", shape=2)], units=2, sparse_combiner="sqrtn",
        dtype="float64")
    features = {"i": np.array([[0, 3], [2, -1]]),
                "x": np.array([[1.0, -2.0], [0.5, 3.0]])}
    model(features)
    for w in model.weights:
        w.assign(np.random.default_rng(0).normal(size=w.shape))
    check_grads(lambda: model(features), [], variables=model.weights)


def test_linear_model_errors_and_config():
    with pytest.raises(ValueError, match="units"):
        make(units=0)
    with pytest.raises(ValueError, match="sparse_combiner"):
        make(sparse_combiner="max")
    with pytest.raises(ValueError, match="CategoricalColumn or DenseColumn"):
        fc.LinearModel(["age"])
    model = make("mean", units=2)
    clone = fc.LinearModel.from_config(model.get_config())
    assert clone.units == 2 and clone.sparse_combiner == "mean"
    assert [c.name for c in clone.feature_columns] == \
        ["age", "age_bucketized", "c"]


def test_linear_model_learns_with_ftrl():
    rng = np.random.default_rng(0)
    colors = rng.choice(["r", "g", "b"], 200)
    y = (colors == "g").astype("float32")[:, None]
    model = make()
    optimizer = keras.optimizers.Ftrl(0.5)
    features = {"c": colors, "age": np.zeros(200)}
    for _ in range(30):
        with keras.GradientTape() as tape:
            logits = model(features)
            loss = keras.ops.mean(keras.losses.binary_crossentropy(
                y, logits, from_logits=True))
        optimizer.minimize(loss, model.trainable_variables, tape=tape)
    probs = keras.ops.sigmoid(model(features)).numpy()
    assert ((probs > 0.5) == (y > 0.5)).all()
