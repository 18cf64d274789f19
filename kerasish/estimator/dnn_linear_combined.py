"""Wide & deep: `DNNLinearCombinedClassifier` / `...Regressor` /
`...Estimator` (any head).

The logits are the sum of a linear model's (`linear/linear_model/...`, the
"wide" part: sparse and crossed columns) and a DNN's (`dnn/...`, the
"deep" part: embeddings and numbers). Both parts are trained from one
backward pass of the loss, each by its own optimizer: FTRL for the linear
part (learning rate `min(0.005, 1 / sqrt(number of linear columns))`) and
Adagrad for the DNN (learning rate 0.001) by default, as in TF.
"""
import math

from kerasish.estimator import canned_utils as utils
from kerasish.estimator.classification_heads import classification_head
from kerasish.estimator.dnn import dnn_logits
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.head import (SUM_OVER_BATCH_SIZE, RegressionHead,
                                     check_head)
from kerasish.estimator.linear import linear_logits

DNN_LEARNING_RATE = 0.001
LINEAR_LEARNING_RATE = 0.005


def linear_learning_rate(num_linear_feature_columns):
    """TF's default: `min(0.005, 1 / sqrt(n))`."""
    return min(LINEAR_LEARNING_RATE,
               1.0 / math.sqrt(num_linear_feature_columns))


def _combined_model_fn(features, labels, mode, head, args):
    utils.check_features(features)
    logits, parts = None, []
    if args["dnn_feature_columns"]:
        logits, network = dnn_logits(
            features, mode, head.logits_dimension, args["dnn_hidden_units"],
            args["dnn_feature_columns"], args["dnn_activation_fn"],
            args["dnn_dropout"], args["batch_norm"])
        parts.append(("dnn_optimizer", args["dnn_optimizer"],
                      DNN_LEARNING_RATE, network.trainable_variables))
    if args["linear_feature_columns"]:
        linear_out, model = linear_logits(
            features, head.logits_dimension, args["linear_feature_columns"],
            args["linear_sparse_combiner"])
        logits = linear_out if logits is None else logits + linear_out
        rate = linear_learning_rate(len(args["linear_feature_columns"]))
        parts.append(("linear_optimizer", args["linear_optimizer"], rate,
                      model.trainable_variables))
    return utils.estimator_spec(head, features, labels, mode, logits, parts)


class DNNLinearCombinedEstimator(Estimator):
    """Wide & deep with any head (TF's `DNNLinearCombinedEstimator`).

    Args:
        head: A head (`BinaryClassHead`, `MultiClassHead`,
            `RegressionHead`, ...).
        model_dir: Folder of checkpoints.
        linear_feature_columns: Columns of the linear ("wide") part.
        linear_optimizer: Its optimizer (default `"Ftrl"`).
        dnn_feature_columns: Dense columns of the DNN ("deep") part.
        dnn_optimizer: Its optimizer (default `"Adagrad"`).
        dnn_hidden_units: Units per hidden layer (needed with DNN columns).
        dnn_activation_fn: Activation of the hidden layers (`"relu"`).
        dnn_dropout: Dropout probability of the hidden layers.
        config: A `RunConfig`.
        batch_norm: Batch-normalize after each hidden layer.
        linear_sparse_combiner: Combiner of the linear part (`"sum"`).
        warm_start_from: Checkpoint or `WarmStartSettings`.

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = DNNLinearCombinedEstimator(
    ...     RegressionHead(), linear_feature_columns=[fc.numeric_column("a")],
    ...     dnn_feature_columns=[fc.numeric_column("b")],
    ...     dnn_hidden_units=[3])
    >>> data = ({"a": np.ones((2, 1)), "b": np.ones((2, 1))}, np.ones(2))
    >>> _ = est.train(lambda: data, steps=1)
    >>> sorted({name.split("/")[1] for name in est.get_variable_names()
    ...         if name.startswith("training/")})  # TF's optimizer scopes
    ['Adagrad', 'Ftrl']
    """

    def __init__(self, head, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None,
                 dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn="relu", dnn_dropout=None, config=None,
                 batch_norm=False, linear_sparse_combiner="sum",
                 warm_start_from=None):
        head = check_head(head)
        linear_feature_columns = tuple(linear_feature_columns or ())
        dnn_feature_columns = tuple(dnn_feature_columns or ())
        if not linear_feature_columns and not dnn_feature_columns:
            raise ValueError("Either linear_feature_columns or "
                             "dnn_feature_columns must be defined.")
        if dnn_feature_columns:
            if not dnn_hidden_units:
                raise ValueError("dnn_hidden_units must be defined when "
                                 "dnn_feature_columns is specified.")
            dnn_hidden_units = utils.check_hidden_units(dnn_hidden_units)
        utils.check_dropout(dnn_dropout)
        args = dict(
            linear_feature_columns=linear_feature_columns,
            linear_optimizer=linear_optimizer,
            dnn_feature_columns=dnn_feature_columns,
            dnn_optimizer=dnn_optimizer, dnn_hidden_units=dnn_hidden_units,
            dnn_activation_fn=dnn_activation_fn, dnn_dropout=dnn_dropout,
            batch_norm=batch_norm,
            linear_sparse_combiner=linear_sparse_combiner)

        def model_fn(features, labels, mode):
            return _combined_model_fn(features, labels, mode, head, args)
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(DNNLinearCombinedEstimator):
    """Wide & deep classifier (TF's `DNNLinearCombinedClassifier`).

    Args:
        model_dir: Folder of checkpoints.
        linear_feature_columns: Columns of the linear ("wide") part.
        linear_optimizer: Its optimizer (default `"Ftrl"`).
        dnn_feature_columns: Dense columns of the DNN ("deep") part.
        dnn_optimizer: Its optimizer (default `"Adagrad"`).
        dnn_hidden_units: Units per hidden layer (needed with DNN columns).
        dnn_activation_fn: Activation of the hidden layers (`"relu"`).
        dnn_dropout: Dropout probability of the hidden layers.
        n_classes: Number of classes. Defaults to 2.
        weight_column: Feature key or `numeric_column` of example weights.
        label_vocabulary: Label strings (default: labels are class ids).
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        batch_norm: Batch-normalize after each hidden layer.
        linear_sparse_combiner: Combiner of the linear part (`"sum"`).

    Example:

    >>> from kerasish import feature_column as fc
    >>> color = fc.categorical_column_with_vocabulary_list("c", ["r", "g"])
    >>> est = DNNLinearCombinedClassifier(
    ...     linear_feature_columns=[color],
    ...     dnn_feature_columns=[fc.embedding_column(color, 2)],
    ...     dnn_hidden_units=[4])
    >>> _ = est.train(lambda: ({"c": np.array(["r", "g"])}, np.array([0, 1])),
    ...               steps=1)
    >>> sorted({name.split("/")[1] for name in est.get_variable_names()
    ...         if name.startswith("training/")})  # TF's optimizer scopes
    ['Adagrad', 'Ftrl']
    """

    def __init__(self, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None,
                 dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn="relu", dnn_dropout=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, config=None,
                 warm_start_from=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 batch_norm=False, linear_sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column,
                                   label_vocabulary, loss_reduction)
        super().__init__(
            head, model_dir, linear_feature_columns, linear_optimizer,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units,
            dnn_activation_fn, dnn_dropout, config, batch_norm,
            linear_sparse_combiner, warm_start_from)


class DNNLinearCombinedRegressor(DNNLinearCombinedEstimator):
    """Wide & deep regressor (TF's `DNNLinearCombinedRegressor`).

    Args:
        model_dir: Folder of checkpoints.
        linear_feature_columns: Columns of the linear part.
        linear_optimizer: Its optimizer (default `"Ftrl"`).
        dnn_feature_columns: Dense columns of the DNN part.
        dnn_optimizer: Its optimizer (default `"Adagrad"`).
        dnn_hidden_units: Units per hidden layer (needed with DNN columns).
        dnn_activation_fn: Activation of the hidden layers (`"relu"`).
        dnn_dropout: Dropout probability of the hidden layers.
        label_dimension: Number of regression targets. Defaults to 1.
        weight_column: Feature key or `numeric_column` of example weights.
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        batch_norm: Batch-normalize after each hidden layer.
        linear_sparse_combiner: Combiner of the linear part (`"sum"`).

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = DNNLinearCombinedRegressor(
    ...     linear_feature_columns=[fc.numeric_column("x")])
    >>> _ = est.train(lambda: ({"x": np.ones((2, 1))}, np.ones(2)), steps=1)
    >>> int(est.get_variable_value("global_step"))
    1
    """

    def __init__(self, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None,
                 dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn="relu", dnn_dropout=None,
                 label_dimension=1, weight_column=None, config=None,
                 warm_start_from=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 batch_norm=False, linear_sparse_combiner="sum"):
        head = RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(
            head, model_dir, linear_feature_columns, linear_optimizer,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units,
            dnn_activation_fn, dnn_dropout, config, batch_norm,
            linear_sparse_combiner, warm_start_from)
