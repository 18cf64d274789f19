"""`LinearModel`: the wide part, a weighted sum of feature columns."""
import math

from kerasish.feature_column.base import (CategoricalColumn, DenseColumn,
                                          FeatureCache)
from kerasish.feature_column.dense_columns import embedding_lookup
from kerasish.feature_column.dense_features import ColumnsLayer
from kerasish.saving.object_registration import builtin
from kerasish import ops

_COMBINERS = ("mean", "sqrtn", "sum")


@builtin("keras.layers")
class LinearModel(ColumnsLayer):
    """`bias + sum over columns` of linear terms (TF's `LinearModel`).

    A categorical column (bucketized, vocabulary, hashed, crossed, ...)
    contributes the sum of its ids' rows of a `(num_buckets, units)`
    weights table (combined with `sparse_combiner` when an example has
    several ids) -- a linear model on the one-hot encoding, without building
    it; a dense column contributes `dense @ weights`. Weights and the bias
    start at zero and are named `<layer>/<column>/weights` and
    `<layer>/bias_weights`, as in TF.

    Args:
        feature_columns: Categorical and/or dense columns.
        units: Number of outputs. Defaults to 1.
        sparse_combiner: `"sum"` (default), `"mean"` or `"sqrtn"`.
        trainable: Whether the weights are trained.
        name: Layer name (default `"linear_model"`).

    Example:

    >>> from kerasish import feature_column as fc
    >>> color = fc.categorical_column_with_vocabulary_list("c", ["r", "g"])
    >>> model = LinearModel([color, fc.numeric_column("x")])
    >>> model({"c": np.array(["g"]), "x": np.array([2.0])}).shape
    (1, 1)
    >>> [v.path for v in model.weights]
    ['linear_model/c/weights', 'linear_model/x/weights', \
'linear_model/bias_weights']
    """

    def __init__(self, feature_columns, units=1, sparse_combiner="sum",
                 trainable=True, name=None, **kwargs):
        super().__init__(feature_columns, (CategoricalColumn, DenseColumn),
                         "CategoricalColumn or DenseColumn",
                         trainable=trainable, name=name or "linear_model",
                         **kwargs)
        if not isinstance(units, int) or units < 1:
            raise ValueError("units must be a positive int. Received: "
                             f"units={units!r}")
        if sparse_combiner not in _COMBINERS:
            raise ValueError(f"sparse_combiner must be one of {_COMBINERS}. "
                             f"Received: sparse_combiner={sparse_combiner!r}")
        self.units = units
        self.sparse_combiner = sparse_combiner

    def _column_variables(self, column):
        rows = column.num_buckets if isinstance(column, CategoricalColumn) \
            else math.prod(column.variable_shape)
        return {"weights": self.add_column_weight(
            column, "weights", (rows, self.units), "zeros")}

    def build(self, input_shape=None):
        super().build(input_shape)
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros",
                                    name="bias_weights")

    def call(self, features):
        cache = FeatureCache(features)
        total = None
        for column in self._feature_columns:
            term = self._term(column, cache)
            total = term if total is None else total + term
        return total + self.bias

    def _term(self, column, cache):
        weights = self.column_weights(column)["weights"]
        if isinstance(column, CategoricalColumn):
            return embedding_lookup(weights, column.get_ids(cache),
                                    self.sparse_combiner)
        dense = column.get_dense_tensor(cache, self)
        dense = ops.reshape(dense, (dense.shape[0], -1))
        return ops.matmul(dense, weights)

    def compute_output_shape(self, input_shape):
        return (self._batch_of(input_shape), self.units)

    def get_config(self):
        config = super().get_config()
        config.update(units=self.units, sparse_combiner=self.sparse_combiner)
        return config
