"""Clear errors: model_fn contract, input_fn structure, features."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator
from kerasish import feature_column as fc
from tests.estimator.util import X, Y, data, make


def spec_fn(**fields):
    def model_fn(features, labels, mode):
        layer = keras.layers.Dense(1)
        y = layer(features["x"])
        loss = keras.ops.mean((y - labels) ** 2) if labels is not None \
            else None
        values = {"loss": loss, "predictions": y,
                  "train_op": keras.optimizers.SGD(0.1).minimize(
                      loss, layer.trainable_variables)
                  if mode == estimator.ModeKeys.TRAIN else None}
        values.update({k: (v(mode) if callable(v) else v)
                       for k, v in fields.items()})
        return estimator.EstimatorSpec(mode, **values)
    return model_fn


@pytest.mark.parametrize("mode,fields,message", [
    ("train", dict(loss=None), r"Missing loss.*'train' needs a `loss` and "
                               "a `train_op`"),
    ("train", dict(train_op=None), r"Missing train_op.*minimize"),
    ("eval", dict(loss=None), r"Missing loss.*'eval' needs a `loss`"),
    ("infer", dict(predictions=None), r"Missing predictions.*'infer' "
                                      "needs `predictions`"),
])
def test_spec_missing_what_the_mode_needs(tmp_path, mode, fields, message):
    est = estimator.Estimator(spec_fn(**fields), str(tmp_path))
    run = {"train": lambda: est.train(data, steps=1),
           "eval": lambda: est.evaluate(data),
           "infer": lambda: next(est.predict(data))}[mode]
    with pytest.raises(ValueError, match=message):
        run()


def test_other_spec_errors():
    with pytest.raises(ValueError, match="Loss must be scalar"):
        estimator.EstimatorSpec("eval", loss=np.ones(3))
    with pytest.raises(ValueError, match="mode must be one of"):
        estimator.EstimatorSpec("training", loss=1.0)
    with pytest.raises(TypeError, match="SessionRunHook instances"):
        estimator.EstimatorSpec("infer", predictions=1.0,
                                prediction_hooks=[object()])
    with pytest.raises(TypeError, match="eval_metric_ops\\['acc'\\] must "
                                        "be a keras Metric"):
        estimator.EstimatorSpec("eval", loss=1.0,
                                eval_metric_ops={"acc": (1.0, None)})
    with pytest.raises(TypeError, match="Scaffold"):
        estimator.EstimatorSpec("infer", predictions=1.0, scaffold=3)


def test_model_fn_must_return_a_spec_for_its_mode(tmp_path):
    est = estimator.Estimator(lambda features: "spec", str(tmp_path))
    with pytest.raises(ValueError, match="should return an EstimatorSpec"):
        next(est.predict(lambda: {"x": X}))
    wrong = estimator.Estimator(
        lambda features, labels, mode: estimator.EstimatorSpec(
            "infer", predictions=features["x"]), str(tmp_path))
    with pytest.raises(ValueError, match="called with mode='eval' but "
                                         "returned.*'infer'"):
        wrong.evaluate(data)


def test_model_fn_without_labels(tmp_path):
    est = estimator.Estimator(
        lambda features: estimator.EstimatorSpec("infer",
                                                 predictions=features["x"]),
        str(tmp_path))
    with pytest.raises(ValueError, match="does not take labels"):
        est.evaluate(data)
    assert len(list(est.predict(lambda: {"x": X}))) == 4


def test_reserved_metric_names(tmp_path):
    est = estimator.Estimator(spec_fn(eval_metric_ops=lambda mode: {
        "loss": keras.metrics.Mean()}), str(tmp_path))
    with pytest.raises(ValueError, match="Metric with name 'loss' is not "
                                         "allowed"):
        est.evaluate(data)


@pytest.mark.parametrize("returned,message", [
    (lambda: ({"x": X}, Y, Y), "len 2 tuple"),
    (lambda: None, "must return `\\(features, labels\\)`"),
    (lambda: ({"x": object()}, Y), "features\\['x'\\] must be an array"),
    (lambda: ({"x": X}, "labels"), "labels must be an array"),
    (lambda: iter([({"x": X}, Y), 5]), "features must be an array"),
    (lambda: keras.data.Dataset.from_tensor_slices((X, Y, Y)).batch(2),
     "len 2 tuple"),
])
def test_input_fn_structure_errors(tmp_path, returned, message):
    est = make(tmp_path)
    with pytest.raises(ValueError, match=message):
        est.train(returned, steps=3)


def test_input_fn_must_be_callable(tmp_path):
    with pytest.raises(TypeError, match="input_fn must be callable"):
        make(tmp_path).train(data(), steps=1)


def test_missing_feature_error_names_the_column(tmp_path):
    color = fc.categorical_column_with_vocabulary_list("color", ["r", "g"])
    est = estimator.LinearClassifier([color, fc.numeric_column("size")],
                                     model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Feature 'size' \\(needed by "
                                         "column 'size'\\) is not in the "
                                         "features"):
        est.train(lambda: ({"color": np.array(["r"])}, np.array([1])),
                  steps=1)
    # An out-of-vocabulary value is TF's id -1: it trains no weight.
    est.train(lambda: ({"color": np.array(["b"]),
                        "size": np.array([1.0])}, np.array([1])), steps=1)
    assert not est.get_variable_value(
        "linear/linear_model/color/weights").any()


def test_optimizer_outside_model_fn_gets_a_hint(tmp_path):
    optimizer = keras.optimizers.SGD(0.1)

    def model_fn(features, labels, mode):
        layer = keras.layers.Dense(1)
        loss = keras.ops.mean((layer(features["x"]) - labels) ** 2)
        op = optimizer.minimize(loss, layer.trainable_variables)
        return estimator.EstimatorSpec(mode, loss=loss, train_op=op)
    est = estimator.Estimator(model_fn, str(tmp_path))
    with pytest.raises(ValueError, match="create the optimizer inside "
                                         "model_fn"):
        est.train(data, steps=3)
