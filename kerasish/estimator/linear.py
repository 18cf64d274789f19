"""`LinearClassifier`, `LinearRegressor` and `LinearEstimator` (any head):
linear models on columns.

The model is a `LinearModel` named `linear/linear_model` (TF's variable
names: `linear/linear_model/<column>/weights`, `.../bias_weights`), all
weights starting at zero, trained by FTRL (learning rate 0.2) by default.
"""
from kerasish.backend.common import naming
from kerasish.estimator import canned_utils as utils
from kerasish.estimator.classification_heads import classification_head
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.head import (SUM_OVER_BATCH_SIZE, RegressionHead,
                                     check_head)
from kerasish.feature_column import LinearModel

LEARNING_RATE = 0.2


def linear_logits(features, units, feature_columns, sparse_combiner):
    """`(logits, linear_model)` of the premade linear model for this call."""
    model = utils.per_call("linear_model", lambda: LinearModel(
        feature_columns, units=units, sparse_combiner=sparse_combiner,
        name="linear_model"))
    with naming.name_scope("linear"):
        return model(features), model


def _linear_model_fn(features, labels, mode, head, feature_columns,
                     optimizer, sparse_combiner):
    utils.check_features(features)
    logits, model = linear_logits(features, head.logits_dimension,
                                  feature_columns, sparse_combiner)
    return utils.estimator_spec(head, features, labels, mode, logits, [
        ("linear_optimizer", optimizer, LEARNING_RATE,
         model.trainable_variables)])


class _LinearEstimator(Estimator):
    def __init__(self, head, feature_columns, model_dir, optimizer, config,
                 warm_start_from, sparse_combiner):
        feature_columns = tuple(feature_columns or ())
        head = check_head(head)

        def model_fn(features, labels, mode):
            return _linear_model_fn(features, labels, mode, head,
                                    feature_columns, optimizer,
                                    sparse_combiner)
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class LinearClassifier(_LinearEstimator):
    """A linear classifier (TF's `LinearClassifier`).

    Args:
        feature_columns: Categorical and/or dense feature columns.
        model_dir: Folder of checkpoints.
        n_classes: Number of classes (2: logistic head). Defaults to 2.
        weight_column: Feature key or `numeric_column` of example weights.
        label_vocabulary: Label strings (default: labels are class ids).
        optimizer: Name (learning rate 0.2), optimizer or callable.
            Defaults to `"Ftrl"`.
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        sparse_combiner: `"sum"` (default), `"mean"` or `"sqrtn"` for
            multivalent categorical columns.

    Example:

    >>> from kerasish import feature_column as fc
    >>> color = fc.categorical_column_with_vocabulary_list("c", ["r", "g"])
    >>> est = LinearClassifier([color], label_vocabulary=["no", "yes"])
    >>> data = ({"c": np.array(["r", "g"] * 4)}, np.array(["no", "yes"] * 4))
    >>> _ = est.train(lambda: data, steps=20)
    >>> est.evaluate(lambda: data)["accuracy"]
    1.0
    """

    def __init__(self, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Ftrl",
                 config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column,
                                   label_vocabulary, loss_reduction)
        super().__init__(head, feature_columns, model_dir, optimizer, config,
                         warm_start_from, sparse_combiner)


class LinearRegressor(_LinearEstimator):
    """A linear regressor (TF's `LinearRegressor`).

    Args:
        feature_columns: Categorical and/or dense feature columns.
        model_dir: Folder of checkpoints.
        label_dimension: Number of regression targets. Defaults to 1.
        weight_column: Feature key or `numeric_column` of example weights.
        optimizer: Name, optimizer or callable (default `"Ftrl"`).
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        sparse_combiner: `"sum"` (default), `"mean"` or `"sqrtn"`.

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = LinearRegressor([fc.numeric_column("x")])
    >>> _ = est.train(lambda: ({"x": np.ones((2, 1))}, np.ones(2)), steps=1)
    >>> [n for n in est.get_variable_names() if n.startswith("linear/")]
    ['linear/linear_model/bias_weights', 'linear/linear_model/x/weights']
    """

    def __init__(self, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Ftrl", config=None,
                 warm_start_from=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 sparse_combiner="sum"):
        head = RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, feature_columns, model_dir, optimizer, config,
                         warm_start_from, sparse_combiner)


class LinearEstimator(_LinearEstimator):
    """A linear model with any head (TF's `LinearEstimator`).

    Args:
        head: A head (`BinaryClassHead`, `MultiClassHead`,
            `RegressionHead`, ...).
        feature_columns: Categorical and/or dense feature columns.
        model_dir: Folder of checkpoints.
        optimizer: Name (learning rate 0.2), optimizer or callable.
            Defaults to `"Ftrl"`.
        config: A `RunConfig`.
        sparse_combiner: `"sum"` (default), `"mean"` or `"sqrtn"`.
        warm_start_from: Checkpoint or `WarmStartSettings`.

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = LinearEstimator(RegressionHead(label_dimension=2),
    ...                       [fc.numeric_column("x")])
    >>> _ = est.train(lambda: ({"x": np.ones((2, 1))}, np.ones((2, 2))),
    ...               steps=1)
    >>> est.get_variable_value("linear/linear_model/x/weights").shape
    (1, 2)
    """

    def __init__(self, head, feature_columns, model_dir=None,
                 optimizer="Ftrl", config=None, sparse_combiner="sum",
                 warm_start_from=None):
        super().__init__(head, feature_columns, model_dir, optimizer, config,
                         warm_start_from, sparse_combiner)
