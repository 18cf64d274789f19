"""Premade estimators: they learn, name variables as TF, take options."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator
from kerasish import feature_column as fc

RNG = np.random.default_rng(0)
N = 200
COLOR = RNG.choice(["red", "green", "blue"], N)
SIZE = RNG.uniform(0, 10, N).astype("float32")
# Positive for green or for large sizes.
LABEL = ((COLOR == "green") | (SIZE > 7)).astype("int64")


def columns():
    color = fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green", "blue"])
    size = fc.numeric_column("size")
    return color, size, fc.bucketized_column(size, [2.5, 5.0, 7.0])


def batches(labels=LABEL, epochs=1):
    features = {"color": COLOR, "size": SIZE}
    return lambda: keras.data.Dataset.from_tensor_slices(
        (features, labels)).batch(50).repeat(epochs)


def quick(**kwargs):
    return estimator.RunConfig(log_step_count_steps=None,
                               save_checkpoints_steps=1000, **kwargs)


def test_linear_classifier_learns_with_tf_names(tmp_path):
    color, size, buckets = columns()
    est = estimator.LinearClassifier([color, buckets],
                                     model_dir=str(tmp_path), config=quick())
    est.train(batches(epochs=8))
    assert est.evaluate(batches())["accuracy"] == 1.0
    names = est.get_variable_names()
    assert "linear/linear_model/color/weights" in names
    assert "linear/linear_model/size_bucketized/weights" in names
    assert "linear/linear_model/bias_weights" in names
    assert est.get_variable_value(
        "linear/linear_model/color/weights").shape == (3, 1)


def test_linear_regressor_fits_a_line(tmp_path):
    x = RNG.uniform(-1, 1, 64).astype("float32")
    est = estimator.LinearRegressor(
        [fc.numeric_column("x")], model_dir=str(tmp_path),
        optimizer=keras.optimizers.SGD(0.5), config=quick())
    est.train(lambda: ({"x": x}, 2 * x + 1), steps=100)
    kernel = est.get_variable_value("linear/linear_model/x/weights")
    bias = est.get_variable_value("linear/linear_model/bias_weights")
    np.testing.assert_allclose([kernel[0, 0], bias[0]], [2.0, 1.0],
                               atol=1e-3)


def test_dnn_classifier_multiclass_with_vocabulary(tmp_path):
    color, size, _ = columns()
    labels = np.where(COLOR == "red", "r", np.where(SIZE > 5, "big",
                                                    "small"))
    est = estimator.DNNClassifier(
        [16], [fc.indicator_column(color), size], n_classes=3,
        label_vocabulary=["r", "small", "big"],
        # "Adam" would train at TF 2's default rate 0.001: too slow here.
        optimizer=keras.optimizers.Adam(0.05),
        model_dir=str(tmp_path), config=quick(tf_random_seed=1))
    est.train(batches(labels, epochs=30))
    results = est.evaluate(batches(labels))
    assert sorted(results) == ["accuracy", "average_loss", "global_step",
                               "loss"]
    assert results["accuracy"] > 0.9
    prediction = next(est.predict(lambda: {"color": COLOR[:1],
                                           "size": SIZE[:1]}))
    assert prediction["probabilities"].shape == (3,)
    assert prediction["classes"][0] in (b"r", b"small", b"big")
    assert "dnn/hiddenlayer_0/kernel" in est.get_variable_names()
    assert "dnn/logits/kernel" in est.get_variable_names()


def test_dnn_with_batch_norm_dropout_and_embeddings(tmp_path):
    color, size, _ = columns()
    est = estimator.DNNClassifier(
        [8, 4], [fc.embedding_column(color, 3), size], dropout=0.2,
        batch_norm=True, activation_fn="tanh", model_dir=str(tmp_path),
        config=quick())
    est.train(batches(), steps=5)
    names = est.get_variable_names()
    for name in ["dnn/hiddenlayer_0/batchnorm_0/moving_mean",
                 "dnn/hiddenlayer_1/batchnorm_1/gamma",
                 "dnn/input_from_feature_columns/input_layer/color_embedding/"
                 "embedding_weights"]:
        assert name in names
    # Moving statistics moved away from their initial values.
    assert est.get_variable_value(
        "dnn/hiddenlayer_0/batchnorm_0/moving_mean").any()


def test_dnn_regressor_label_dimension(tmp_path):
    x = RNG.uniform(-1, 1, (32, 1)).astype("float32")
    est = estimator.DNNRegressor([8], [fc.numeric_column("x")],
                                 label_dimension=2, model_dir=str(tmp_path),
                                 config=quick())
    est.train(lambda: ({"x": x}, np.hstack([x, -x])), steps=3)
    prediction = next(est.predict(lambda: {"x": x}))
    assert prediction["predictions"].shape == (2,)


def test_weight_column_zero_weights_ignore_examples(tmp_path):
    color, _, buckets = columns()
    flipped = 1 - LABEL
    labels = np.concatenate([LABEL, flipped])
    weights = np.concatenate([np.ones(N), np.zeros(N)])
    features = {"color": np.concatenate([COLOR, COLOR]),
                "size": np.concatenate([SIZE, SIZE]), "w": weights}
    est = estimator.LinearClassifier([color, buckets], weight_column="w",
                                     model_dir=str(tmp_path), config=quick())

    def input_fn(epochs=1):
        return keras.data.Dataset.from_tensor_slices(
            (features, labels)).batch(100).repeat(epochs)
    est.train(lambda: input_fn(8))
    assert est.evaluate(input_fn)["accuracy"] == 1.0


def test_wide_and_deep_trains_both_parts(tmp_path):
    color, size, buckets = columns()
    cross = fc.crossed_column([color, buckets], 20)
    est = estimator.DNNLinearCombinedClassifier(
        linear_feature_columns=[color, buckets, cross],
        dnn_feature_columns=[fc.embedding_column(color, 2), size],
        dnn_hidden_units=[8], dnn_optimizer=lambda: keras.optimizers.Adam(
            0.01), model_dir=str(tmp_path), config=quick())
    est.train(batches(), steps=1)
    before = {n: est.get_variable_value(n) for n in
              ["dnn/logits/kernel", "linear/linear_model/color/weights"]}
    est.train(batches(epochs=20))
    for name, value in before.items():
        assert not np.array_equal(est.get_variable_value(name), value)
    assert est.evaluate(batches())["accuracy"] > 0.9
    assert ("linear/linear_model/color_X_size_bucketized/weights" in
            est.get_variable_names())


def test_wide_and_deep_regressor_with_one_part(tmp_path):
    _, size, _ = columns()
    est = estimator.DNNLinearCombinedRegressor(
        dnn_feature_columns=[size], dnn_hidden_units=[4],
        model_dir=str(tmp_path), config=quick())
    est.train(lambda: ({"size": SIZE}, SIZE), steps=2)
    assert not any(n.startswith("linear/")
                   for n in est.get_variable_names())


def test_optimizer_instance_is_copied_per_call(tmp_path):
    color, _, _ = columns()
    optimizer = keras.optimizers.Adagrad(0.5)
    est = estimator.LinearClassifier([color], optimizer=optimizer,
                                     model_dir=str(tmp_path), config=quick())
    est.train(batches(), steps=3)
    est.train(batches(), steps=3)
    assert int(optimizer.iterations.numpy()) == 0
    # The copy counts its steps in the global step, as TF's.
    assert est.get_variable_value("global_step") == 6
    assert est.get_variable_value("training/Adagrad/learning_rate") == 0.5
    assert not any("iter" in name for name in est.get_variable_names())


@pytest.mark.parametrize("make,message", [
    (lambda: estimator.DNNClassifier([], [fc.numeric_column("x")]),
     "hidden_units"),
    (lambda: estimator.DNNClassifier([4], [fc.numeric_column("x")],
                                     n_classes=1), "n_classes"),
    (lambda: estimator.DNNClassifier([4], [fc.numeric_column("x")],
                                     dropout=1.5), "dropout"),
    (lambda: estimator.DNNLinearCombinedClassifier(), "Either "
                                                      "linear_feature"),
    (lambda: estimator.DNNLinearCombinedClassifier(
        dnn_feature_columns=[fc.numeric_column("x")]), "dnn_hidden_units"),
    (lambda: estimator.LinearClassifier(
        [fc.numeric_column("x")], optimizer="Adamax").train(
        lambda: ({"x": np.ones(2)}, np.ones(2)), steps=1),
     "Unsupported optimizer name"),
])
def test_premade_argument_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def _same_weights(a, b):
    names = a.get_variable_names()
    assert names == b.get_variable_names()
    for name in names:
        np.testing.assert_array_equal(a.get_variable_value(name),
                                      b.get_variable_value(name),
                                      err_msg=name)


@pytest.mark.parametrize("pair", ["linear", "dnn", "combined"])
def test_head_estimators_are_the_premade_models_with_any_head(tmp_path,
                                                              pair):
    color, size, buckets = columns()
    heads = {"linear": (
        lambda d: estimator.LinearEstimator(
            estimator.BinaryClassHead(), [color, buckets], model_dir=d,
            config=quick()),
        lambda d: estimator.LinearClassifier(
            [color, buckets], model_dir=d, config=quick())),
        "dnn": (
        lambda d: estimator.DNNEstimator(
            estimator.MultiClassHead(3), [8], [size], model_dir=d,
            config=quick()),
        lambda d: estimator.DNNClassifier(
            [8], [size], n_classes=3, model_dir=d, config=quick())),
        "combined": (
        lambda d: estimator.DNNLinearCombinedEstimator(
            estimator.RegressionHead(), linear_feature_columns=[buckets],
            dnn_feature_columns=[size], dnn_hidden_units=[4], model_dir=d,
            config=quick()),
        lambda d: estimator.DNNLinearCombinedRegressor(
            linear_feature_columns=[buckets], dnn_feature_columns=[size],
            dnn_hidden_units=[4], model_dir=d, config=quick()))}
    made = []
    for i, make in enumerate(heads[pair]):
        keras.utils.set_random_seed(1)
        est = make(str(tmp_path / str(i)))
        labels = LABEL * (2 if pair == "dnn" else 1)
        est.train(batches(labels=labels), steps=4)
        made.append(est)
    _same_weights(*made)


def test_head_estimators_refuse_what_is_not_a_head():
    with pytest.raises(ValueError, match="`head` must be a head"):
        estimator.LinearEstimator("binary", [fc.numeric_column("x")])
    with pytest.raises(ValueError, match="`head` must be a head"):
        estimator.DNNEstimator(None, [4], [fc.numeric_column("x")])


def test_linear_classifier_first_step_from_zero_weights(tmp_path):
    # TF 2.15 gives w = 0.01875, b = 0.025 (a legacy SGD(0.1) step): at
    # zero logits the loss gradient is sigmoid(0) - label = 0.5 - label.
    x = np.array([[1.0], [2.0], [-1.0], [0.5]], "float32")
    y = np.array([[1], [1], [1], [0]])
    est = estimator.LinearClassifier(
        [fc.numeric_column("x")], model_dir=str(tmp_path),
        optimizer=keras.optimizers.SGD(0.1), config=quick())
    est.train(lambda: ({"x": x}, y), steps=1)
    np.testing.assert_allclose(
        est.get_variable_value("linear/linear_model/x/weights"),
        [[0.01875]], rtol=1e-6)
    np.testing.assert_allclose(
        est.get_variable_value("linear/linear_model/bias_weights"),
        [0.025], rtol=1e-6)



# TF 2.15's lists (tests/fixtures/make_tf1_reference.py, variable_names):
# one training step with an embedding and a numeric column.
TF_OPTIMIZER_NAMES = {
    "Adagrad": ["decay", "learning_rate", "{}/accumulator"],
    "Adam": ["beta_1", "beta_2", "decay", "learning_rate", "{}/m", "{}/v"],
    "Ftrl": ["beta", "decay", "l1_regularization_strength",
             "l2_regularization_strength", "learning_rate",
             "learning_rate_power", "{}/accumulator", "{}/linear"],
    "SGD": ["decay", "learning_rate", "momentum"],
    "RMSProp": ["decay", "learning_rate", "momentum", "rho", "{}/rms"],
}
TF_CLASS = {"RMSProp": "RMSprop"}
NAMES_X = np.array([[1.0], [2.0], [3.0], [4.0]], "float32")
NAMES_DATA = ({"color": np.array(["red", "green", "blue", "red"]),
               "x": NAMES_X}, np.array([[1], [0], [1], [0]]))


def expected_names(optimizer, weights, prefix="training"):
    cls = TF_CLASS.get(optimizer, optimizer)
    names = []
    for entry in TF_OPTIMIZER_NAMES[optimizer]:
        targets = weights if "{}" in entry else [None]
        names += [f"{prefix}/{cls}/" + entry.format(w) for w in targets]
    return names


def trained_names(make, tmp_path):
    est = make(str(tmp_path))
    est.train(lambda: NAMES_DATA, steps=1)
    return sorted(est.get_variable_names())


@pytest.mark.parametrize("optimizer", sorted(TF_OPTIMIZER_NAMES))
def test_linear_variable_names_are_tfs(tmp_path, optimizer):
    color = fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green", "blue"])
    weights = ["linear/linear_model/bias_weights",
               "linear/linear_model/color/weights",
               "linear/linear_model/x/weights"]
    names = trained_names(lambda d: estimator.LinearClassifier(
        [color, fc.numeric_column("x")], model_dir=d, optimizer=optimizer,
        config=quick()), tmp_path)
    assert names == sorted(["global_step"] + weights +
                           expected_names(optimizer, weights))


DNN_WEIGHTS = [
    "dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_0/kernel",
    "dnn/input_from_feature_columns/input_layer/color_embedding/"
    "embedding_weights", "dnn/logits/bias", "dnn/logits/kernel"]


@pytest.mark.parametrize("optimizer", ["Adagrad", "SGD", "Adam"])
@pytest.mark.parametrize("cls", ["DNNClassifier", "DNNRegressor"])
def test_dnn_variable_names_are_tfs(tmp_path, optimizer, cls):
    color = fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green", "blue"])
    names = trained_names(lambda d: getattr(estimator, cls)(
        [2], [fc.embedding_column(color, 2), fc.numeric_column("x")],
        model_dir=d, optimizer=optimizer, config=quick()), tmp_path)
    assert names == sorted(["global_step"] + DNN_WEIGHTS +
                           expected_names(optimizer, DNN_WEIGHTS))


@pytest.mark.parametrize("cls", ["DNNLinearCombinedClassifier",
                                 "DNNLinearCombinedRegressor"])
def test_wide_and_deep_variable_names_are_tfs(tmp_path, cls):
    color = fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green", "blue"])
    names = trained_names(lambda d: getattr(estimator, cls)(
        linear_feature_columns=[color],
        dnn_feature_columns=[fc.embedding_column(color, 2),
                             fc.numeric_column("x")],
        dnn_hidden_units=[2], model_dir=d, config=quick()), tmp_path)
    linear = ["linear/linear_model/bias_weights",
              "linear/linear_model/color/weights"]
    # The DNN's Adagrad counts in the global step; the linear part's Ftrl
    # has its own `iter`.
    assert names == sorted(
        ["global_step", "training/Ftrl/iter"] + DNN_WEIGHTS + linear +
        expected_names("Adagrad", DNN_WEIGHTS) +
        expected_names("Ftrl", linear))


def test_optimizer_slot_names_of_other_options_are_tfs(tmp_path):
    # TF 2.15 (variable_names: LinearRegressor with legacy optimizers).
    cases = [
        (keras.optimizers.SGD(0.1, momentum=0.9), "SGD", ["momentum"]),
        (keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True),
         "RMSprop", ["mg", "momentum", "rms"]),
        (keras.optimizers.Adam(0.1, amsgrad=True), "Adam",
         ["m", "v", "vhat"]),
        (keras.optimizers.Adamax(0.1), "Adamax", ["m", "v"]),
        (keras.optimizers.Nadam(0.1), "Nadam", ["m", "v"]),
        (keras.optimizers.Adadelta(0.1), "Adadelta",
         ["accum_grad", "accum_var"])]
    hypers = {"SGD": ["momentum"], "RMSprop": ["momentum", "rho"],
              "Adam": ["beta_1", "beta_2"], "Adamax": ["beta_1", "beta_2"],
              "Nadam": ["beta_1", "beta_2", "momentum_cache"],
              "Adadelta": ["rho"]}
    for i, (optimizer, cls, slots) in enumerate(cases):
        names = trained_names(lambda d: estimator.LinearRegressor(
            [fc.numeric_column("x")], model_dir=d, optimizer=optimizer,
            config=quick()), tmp_path / str(i))
        found = sorted(n.rsplit("/", 1)[1] for n in names
                       if n.startswith(f"training/{cls}/linear/"))
        assert found == sorted(slots * 2)
        assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith(
            f"training/{cls}/") and "/linear/" not in n) == sorted(
                ["decay", "learning_rate"] + hypers[cls])


def test_adam_bias_correction_counts_with_the_global_step(tmp_path):
    # The copy's iterations are the global step: a second train() call
    # continues Adam's step count (1, 2, 3) instead of restarting it.
    make = lambda: estimator.LinearRegressor(  # noqa: E731
        [fc.numeric_column("x")], model_dir=str(tmp_path),
        optimizer=keras.optimizers.Adam(0.1), config=quick())
    y = 2 * NAMES_X
    make().train(lambda: ({"x": NAMES_X}, y), steps=2)
    est = make()
    est.train(lambda: ({"x": NAMES_X}, y), steps=1)
    once = estimator.LinearRegressor(
        [fc.numeric_column("x")], model_dir=str(tmp_path / "once"),
        optimizer=keras.optimizers.Adam(0.1), config=quick())
    once.train(lambda: ({"x": NAMES_X}, y), steps=3)
    for name in ["linear/linear_model/x/weights",
                 "training/Adam/linear/linear_model/x/weights/v"]:
        np.testing.assert_allclose(est.get_variable_value(name),
                                   once.get_variable_value(name),
                                   rtol=1e-6)
    assert est.get_variable_value("global_step") == 3


def test_tf_style_warm_start_by_embedding_name(tmp_path):
    # The names a TF script uses for the DNN's embedding now match.
    color = fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green", "blue"])
    name = ("dnn/input_from_feature_columns/input_layer/color_embedding/"
            "embedding_weights")

    def make(folder, warm_start_from=None):
        return estimator.DNNLinearCombinedClassifier(
            dnn_feature_columns=[fc.embedding_column(color, 2),
                                 fc.numeric_column("x")],
            dnn_hidden_units=[2], model_dir=str(tmp_path / folder),
            config=quick(), warm_start_from=warm_start_from)
    first = make("a").train(lambda: NAMES_DATA, steps=2)
    table = first.get_variable_value(name)
    for vars_to_warm_start in [[name], ".*input_from_feature_columns.*"]:
        warmed = make(str(vars_to_warm_start), estimator.WarmStartSettings(
            str(tmp_path / "a"), vars_to_warm_start=vars_to_warm_start))
        warmed.train(lambda: NAMES_DATA, steps=1)
        # One Adagrad step (learning rate 0.001) from the warm table.
        np.testing.assert_allclose(warmed.get_variable_value(name), table,
                                   atol=2e-3)
    fresh = make("fresh").train(lambda: NAMES_DATA, steps=1)
    assert not np.allclose(fresh.get_variable_value(name), table, atol=2e-3)
