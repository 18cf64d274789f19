"""Shared model functions and data for the Estimator tests."""
import numpy as np

import kerasish as keras
from kerasish import estimator

X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], "float32")
Y = np.array([[1.0], [2.0], [3.0], [0.0]], "float32")


def data():
    return {"x": X}, Y


def regression_model_fn(features, labels, mode, params):
    """A linear regression built from a Dense layer, TF1-style."""
    layer = keras.layers.Dense(1, name="linear")
    y = layer(features["x"])
    if mode == estimator.ModeKeys.PREDICT:
        return estimator.EstimatorSpec(mode, predictions={"y": y})
    loss = keras.ops.mean((y - labels) ** 2)
    metric = keras.metrics.MeanAbsoluteError(name="mae")
    metric.update_state(labels, y)
    train_op = None
    if mode == estimator.ModeKeys.TRAIN:
        optimizer = keras.optimizers.Adam(params.get("learning_rate", 0.1))
        train_op = optimizer.minimize(loss, layer.trainable_variables)
    return estimator.EstimatorSpec(mode, predictions={"y": y}, loss=loss,
                                   train_op=train_op,
                                   eval_metric_ops={"mae": metric})


def make(model_dir, **config):
    config.setdefault("log_step_count_steps", None)
    return estimator.Estimator(regression_model_fn, model_dir=str(model_dir),
                               params={"learning_rate": 0.1},
                               config=estimator.RunConfig(**config))
