"""`DNNClassifier` and `DNNRegressor`: feed-forward networks on columns.

The network is TF's: `DenseFeatures`
(`dnn/input_from_feature_columns/input_layer`), then per hidden layer a
`Dense` (`dnn/hiddenlayer_<i>`, Glorot-uniform kernel), dropout while
training, batch normalization (`dnn/hiddenlayer_<i>/batchnorm_<i>`,
momentum 0.999) if asked, and a linear `dnn/logits` layer; the variable
names match TF's.
"""
from kerasish.backend.common import naming
from kerasish.estimator import canned_utils as utils
from kerasish.estimator.classification_heads import classification_head
from kerasish.estimator.estimator import Estimator
from kerasish.estimator.head import (SUM_OVER_BATCH_SIZE, RegressionHead,
                                     check_head)
from kerasish.estimator.mode_keys import ModeKeys
from kerasish.feature_column import DenseFeatures

# TF's V2 DNN estimators pass no rate for a named optimizer
# (`get_optimizer_instance_v2(optimizer)`), so the class's own default
# applies (Adagrad: 0.001); 0.05 was only the compat.v1 estimators' rate.
LEARNING_RATE = None


class DNNNetwork:
    """The layers of a premade DNN (see module docstring)."""

    def __init__(self, units, hidden_units, feature_columns, activation_fn,
                 dropout, batch_norm):
        # lazy: calls up the layers (tests/layering_allowlist.txt)
        from kerasish import layers
        self.input_layer = DenseFeatures(feature_columns, name="input_layer")
        self.hidden = [layers.Dense(n, activation=activation_fn,
                                    name=f"hiddenlayer_{i}")
                       for i, n in enumerate(hidden_units)]
        self.dropout = [layers.Dropout(dropout) for _ in hidden_units] \
            if dropout else []
        self.batch_norm = [layers.BatchNormalization(
            momentum=0.999, name=f"batchnorm_{i}")
            for i in range(len(hidden_units))] if batch_norm else []
        self.logits = layers.Dense(units, name="logits")

    def __call__(self, features, mode):
        training = mode == ModeKeys.TRAIN
        with naming.name_scope("dnn"):
            with naming.name_scope("input_from_feature_columns"):
                net = self.input_layer(features)
            for i, layer in enumerate(self.hidden):
                net = layer(net)
                if self.dropout and training:
                    net = self.dropout[i](net, training=True)
                if self.batch_norm:
                    # TF names it inside the hidden layer's scope.
                    with naming.name_scope(f"hiddenlayer_{i}"):
                        net = self.batch_norm[i](net, training=training)
            return self.logits(net)

    @property
    def trainable_variables(self):
        parts = [self.input_layer, *self.hidden, *self.batch_norm,
                 self.logits]
        return [v for layer in parts for v in layer.trainable_variables]


def dnn_logits(features, mode, units, hidden_units, feature_columns,
               activation_fn, dropout, batch_norm):
    """`(logits, network)` of the premade DNN for this call."""
    network = utils.per_call("dnn_network", lambda: DNNNetwork(
        units, hidden_units, feature_columns, activation_fn, dropout,
        batch_norm))
    return network(features, mode), network


def _dnn_model_fn(features, labels, mode, head, hidden_units,
                  feature_columns, optimizer, activation_fn, dropout,
                  batch_norm):
    utils.check_features(features)
    logits, network = dnn_logits(features, mode, head.logits_dimension,
                                 hidden_units, feature_columns,
                                 activation_fn, dropout, batch_norm)
    return utils.estimator_spec(head, features, labels, mode, logits, [
        ("dnn_optimizer", optimizer, LEARNING_RATE,
         network.trainable_variables)])


class _DNNEstimator(Estimator):
    def __init__(self, head, hidden_units, feature_columns, model_dir,
                 optimizer, activation_fn, dropout, config, warm_start_from,
                 batch_norm):
        head = check_head(head)
        hidden_units = utils.check_hidden_units(hidden_units)
        dropout = utils.check_dropout(dropout)
        feature_columns = tuple(feature_columns or ())

        def model_fn(features, labels, mode):
            return _dnn_model_fn(features, labels, mode, head, hidden_units,
                                 feature_columns, optimizer, activation_fn,
                                 dropout, batch_norm)
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNClassifier(_DNNEstimator):
    """A deep neural network classifier (TF's `DNNClassifier`).

    Args:
        hidden_units: Units per hidden layer, e.g. `[64, 32]`.
        feature_columns: Dense feature columns (numeric, bucketized,
            indicator, embedding).
        model_dir: Folder of checkpoints.
        n_classes: Number of classes (2: logistic head). Defaults to 2.
        weight_column: Feature key or `numeric_column` of example weights.
        label_vocabulary: Label strings (default: labels are class ids).
        optimizer: Name (`"Adagrad"`, `"Adam"`, `"Ftrl"`, `"RMSProp"`,
            `"SGD"`, at the optimizer's default learning rate, as in TF 2),
            optimizer or callable. Defaults to `"Adagrad"` (rate 0.001).
        activation_fn: Activation of the hidden layers (default `"relu"`).
        dropout: Probability of dropping a hidden unit while training.
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        batch_norm: Batch-normalize after each hidden layer.

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = DNNClassifier([4], [fc.numeric_column("x")])
    >>> data = ({"x": np.array([[0.0], [1.0]] * 8)}, np.array([0, 1] * 8))
    >>> _ = est.train(lambda: data, steps=2)
    >>> sorted(est.evaluate(lambda: data))[:3]
    ['accuracy', 'accuracy_baseline', 'auc']
    """

    def __init__(self, hidden_units, feature_columns, model_dir=None,
                 n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Adagrad", activation_fn="relu", dropout=None,
                 config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, batch_norm=False):
        head = classification_head(n_classes, weight_column,
                                   label_vocabulary, loss_reduction)
        super().__init__(head, hidden_units, feature_columns, model_dir,
                         optimizer, activation_fn, dropout, config,
                         warm_start_from, batch_norm)


class DNNRegressor(_DNNEstimator):
    """A deep neural network regressor (TF's `DNNRegressor`).

    Args:
        hidden_units: Units per hidden layer.
        feature_columns: Dense feature columns.
        model_dir: Folder of checkpoints.
        label_dimension: Number of regression targets. Defaults to 1.
        weight_column: Feature key or `numeric_column` of example weights.
        optimizer: Name, optimizer or callable (default `"Adagrad"`).
        activation_fn: Activation of the hidden layers (default `"relu"`).
        dropout: Probability of dropping a hidden unit while training.
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        loss_reduction: `"sum_over_batch_size"` (default) or `"sum"`.
        batch_norm: Batch-normalize after each hidden layer.

    Example:

    >>> from kerasish import feature_column as fc
    >>> est = DNNRegressor([4], [fc.numeric_column("x")])
    >>> _ = est.train(lambda: ({"x": np.ones((4, 1))}, np.ones(4)), steps=1)
    >>> sorted(est.evaluate(lambda: ({"x": np.ones((4, 1))}, np.ones(4))))
    ['average_loss', 'global_step', 'label/mean', 'loss', 'prediction/mean']
    """

    def __init__(self, hidden_units, feature_columns, model_dir=None,
                 label_dimension=1, weight_column=None, optimizer="Adagrad",
                 activation_fn="relu", dropout=None, config=None,
                 warm_start_from=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 batch_norm=False):
        head = RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, hidden_units, feature_columns, model_dir,
                         optimizer, activation_fn, dropout, config,
                         warm_start_from, batch_norm)


class DNNEstimator(_DNNEstimator):
    """A deep neural network with any head (TF's `DNNEstimator`).

    Args:
        head: A head (`BinaryClassHead`, `MultiClassHead`,
            `RegressionHead`, ...).
        hidden_units: Units per hidden layer.
        feature_columns: Dense feature columns.
        model_dir: Folder of checkpoints.
        optimizer: Name (at the optimizer's default learning rate),
            optimizer or callable. Defaults to `"Adagrad"`.
        activation_fn: Activation of the hidden layers (default `"relu"`).
        dropout: Probability of dropping a hidden unit while training.
        config: A `RunConfig`.
        warm_start_from: Checkpoint or `WarmStartSettings`.
        batch_norm: Batch-normalize after each hidden layer.

    Example:

    >>> from kerasish import feature_column as fc
    >>> from kerasish.estimator import MultiClassHead
    >>> est = DNNEstimator(MultiClassHead(3), [4], [fc.numeric_column("x")])
    >>> _ = est.train(lambda: ({"x": np.ones((3, 1))}, np.array([0, 1, 2])),
    ...               steps=1)
    >>> est.get_variable_value("dnn/logits/kernel").shape
    (4, 3)
    """

    def __init__(self, head, hidden_units, feature_columns, model_dir=None,
                 optimizer="Adagrad", activation_fn="relu", dropout=None,
                 config=None, warm_start_from=None, batch_norm=False):
        super().__init__(head, hidden_units, feature_columns, model_dir,
                         optimizer, activation_fn, dropout, config,
                         warm_start_from, batch_norm)
