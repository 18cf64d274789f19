"""Baselines: `BaselineClassifier`, `BaselineRegressor`, `BaselineEstimator`.

A baseline ignores the feature values: its logits are one trained bias
per output (`baseline/bias`, starting at zero), the same for every
example, so it learns the label average (a classifier: the class
distribution seen in the labels). It is the yardstick a real model must
beat. Trained by FTRL with learning rate 0.3 by default, as in TF.
"""
from kerasish import ops
from kerasish.estimator import canned_utils as utils
from kerasish.estimator.classification_heads import classification_head
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.head import (SUM_OVER_BATCH_SIZE, RegressionHead,
                                     as_array, check_head)
from kerasish.engine.layer import Layer

LEARNING_RATE = 0.3


class _Bias(Layer):
    """`bias` broadcast to `(batch_size, units)`, whatever the input."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros",
                                    name="bias")

    def call(self, inputs):
        return ops.broadcast_to(self.bias, (ops.shape(inputs)[0],
                                            self.units))


def _batch_size(features, weight_key):
    """The examples' count: the first axis of every feature but the weight
    column's, which must agree."""
    sizes = {key: as_array(value).shape[0]
             for key, value in features.items() if key != weight_key}
    if not sizes:
        raise ValueError("features should be a non-empty dictionary of "
                         "arrays (the weight column does not count). Given: "
                         f"{sorted(features)}")
    if len(set(sizes.values())) > 1:
        raise ValueError("Every feature of a baseline must have the same "
                         f"batch size (first axis). Received: {sizes}")
    return next(iter(sizes.values()))


def _baseline_model_fn(features, labels, mode, head, optimizer):
    utils.check_features(features)
    weight_key = getattr(head, "_weight_column", None)
    weight_key = getattr(weight_key, "key", weight_key)
    batch = _batch_size(features, weight_key)
    layer = utils.per_call("baseline", lambda: _Bias(
        head.logits_dimension, name="baseline"))
    logits = layer(ops.zeros((batch, 1)))
    return utils.estimator_spec(head, features, labels, mode, logits, [
        ("baseline_optimizer", optimizer, LEARNING_RATE,
         layer.trainable_variables)])


class BaselineEstimator(Estimator):
    """A baseline with any head (TF's `BaselineEstimator`).

    Args:
        head: A head (`BinaryClassHead`, `MultiClassHead`,
            `RegressionHead`, ...).
        model_dir: Folder of checkpoints.
        optimizer: Name (learning rate 0.3), optimizer or callable.
            Defaults to `"Ftrl"`.
        config: A `RunConfig`.

    Example:

    >>> est = BaselineEstimator(RegressionHead())
    >>> data = ({"x": np.zeros((4, 1))}, np.array([1.0, 2.0, 3.0, 6.0]))
    >>> _ = est.train(lambda: data, steps=1)
    >>> est.get_variable_names()[0]
    'baseline/bias'
    """

    def __init__(self, head, model_dir=None, optimizer="Ftrl", config=None):
        head = check_head(head)

        def model_fn(features, labels, mode):
            return _baseline_model_fn(features, labels, mode, head,
                                      optimizer)
        super().__init__(model_fn, model_dir=model_dir, config=config)


class BaselineClassifier(BaselineEstimator):
    """Predicts the class distribution of the training labels (TF's
    `BaselineClassifier`).

    Args:
        model_dir: Folder of checkpoints.
        n_classes: Number of classes (2: logistic head). Defaults to 2.
        weight_column: Feature key or `numeric_column` of example weights.
        label_vocabulary: Label strings (default: labels are class ids).
        optimizer: Name (learning rate 0.3), optimizer or callable.
            Defaults to `"Ftrl"`.
        config: A `RunConfig`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.

    Example:

    >>> from kerasish import optimizers
    >>> est = BaselineClassifier(n_classes=3,
    ...                          optimizer=optimizers.SGD(1.0))
    >>> labels = np.array([0, 1, 1, 2, 2, 2])
    >>> _ = est.train(lambda: ({"x": np.zeros((6, 1))}, labels), steps=300)
    >>> pred = next(est.predict(lambda: {"x": np.zeros((1, 1))}))
    >>> [round(float(p), 2) for p in pred["probabilities"]]
    [0.17, 0.33, 0.5]
    """

    def __init__(self, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE):
        head = classification_head(n_classes, weight_column,
                                   label_vocabulary, loss_reduction)
        super().__init__(head, model_dir=model_dir, optimizer=optimizer,
                         config=config)


class BaselineRegressor(BaselineEstimator):
    """Predicts the average training label (TF's `BaselineRegressor`).

    Args:
        model_dir: Folder of checkpoints.
        label_dimension: Number of regression targets. Defaults to 1.
        weight_column: Feature key or `numeric_column` of example weights.
        optimizer: Name (learning rate 0.3), optimizer or callable.
            Defaults to `"Ftrl"`.
        config: A `RunConfig`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.

    Example:

    >>> from kerasish import optimizers
    >>> est = BaselineRegressor(optimizer=optimizers.SGD(0.5))
    >>> data = ({"x": np.zeros((4, 1))}, np.array([1.0, 2.0, 3.0, 6.0]))
    >>> _ = est.train(lambda: data, steps=100)
    >>> round(float(est.get_variable_value("baseline/bias")[0]), 3)
    3.0
    """

    def __init__(self, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE):
        head = RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, model_dir=model_dir, optimizer=optimizer,
                         config=config)
