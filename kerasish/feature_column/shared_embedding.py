"""Shared embeddings: several categorical columns, one embedding table.

`shared_embedding_columns` (TF1's `tf.compat.v1.feature_column`) and
`shared_embeddings` (TF2's `tf.feature_column`) return one dense column
per categorical column (`<column>_shared_embedding`), all looking up the
same `(num_buckets, dimension)` table. The table's name follows TF:

* v1: `<layer>/<collection>/embedding_weights` (in a premade DNN,
  `dnn/input_from_feature_columns/input_layer/<collection>/...`);
* v2: `<collection>` itself, outside any scope;

where `<collection>` is `shared_embedding_collection_name`, by default
the sorted column names joined by `_` plus `_shared_embedding`
(`a_b_shared_embedding`). A layer makes the table once for its columns;
an Estimator's variable store shares it between calls by that name.
"""
import collections

from kerasish.feature_column.base import CategoricalColumn, DenseColumn
from kerasish.feature_column.dense_columns import (
    EmbeddingLookup, checked_embedding_arguments)


class SharedEmbeddingColumn(
        EmbeddingLookup, DenseColumn, collections.namedtuple(
            "SharedEmbeddingColumn", (
            "categorical_column", "dimension", "combiner", "initializer",
            "shared_embedding_collection_name", "ckpt_to_load_from",
            "tensor_name_in_ckpt", "max_norm", "trainable",
            "use_safe_embedding_lookup", "scoped"))):
    """One column's view of a shared embedding table (see module
    docstring); `scoped` is True for v1's naming."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_shared_embedding"

    def create_state(self, layer):
        shape = (self.categorical_column.num_buckets, self.dimension)
        collection = self.shared_embedding_collection_name
        weights = layer.add_shared_weight(
            collection, "embedding_weights" if self.scoped else collection,
            shape, self._table_initializer(), trainable=self.trainable,
            absolute=not self.scoped)
        return {"embedding_weights": self._warm_started(weights)}


def _shared(categorical_columns, dimension, combiner, initializer,
            shared_embedding_collection_name, ckpt_to_load_from,
            tensor_name_in_ckpt, max_norm, trainable,
            use_safe_embedding_lookup, scoped):
    columns = list(categorical_columns or [])
    if not columns:
        raise ValueError("shared embeddings expected a non-empty list of "
                         "categorical columns. Received: "
                         f"categorical_columns={categorical_columns!r}")
    for column in columns:
        if not isinstance(column, CategoricalColumn):
            raise ValueError(
                "All categorical_columns must be subclasses of "
                f"CategoricalColumn. Given: {column!r}, of type "
                f"{type(column).__name__}")
    first = columns[0]
    for column in columns[1:]:
        if column.num_buckets != first.num_buckets:
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns "
                "must have the same number of buckets. Given column: "
                f"{first!r} with buckets: {first.num_buckets} does not "
                f"match column: {column!r} with buckets: "
                f"{column.num_buckets}")
    initializer = checked_embedding_arguments(
        dimension, combiner, initializer, ckpt_to_load_from,
        tensor_name_in_ckpt, max_norm)
    name = shared_embedding_collection_name or "_".join(
        sorted(c.name for c in columns)) + "_shared_embedding"
    return [SharedEmbeddingColumn(
        column, int(dimension), combiner, initializer, name,
        ckpt_to_load_from, tensor_name_in_ckpt, max_norm, trainable,
        use_safe_embedding_lookup, scoped) for column in columns]


def shared_embedding_columns(categorical_columns, dimension, combiner="mean",
                             initializer=None,
                             shared_embedding_collection_name=None,
                             ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                             max_norm=None, trainable=True,
                             use_safe_embedding_lookup=True):
    """Embeddings of several categorical columns sharing one table (TF1's
    `tf.compat.v1.feature_column.shared_embedding_columns`).

    Args:
        categorical_columns: Categorical columns with the same
            `num_buckets`.
        dimension: Embedding size.
        combiner: `"mean"` (default), `"sqrtn"` or `"sum"`.
        initializer: Initializer of the table (default truncated normal,
            stddev `1 / sqrt(dimension)`).
        shared_embedding_collection_name: The table's scope name (default
            the sorted column names joined by `_` + `_shared_embedding`).
        ckpt_to_load_from, tensor_name_in_ckpt: Initialize the table from
            this variable of an Estimator checkpoint. Default None.
        max_norm: Clip each looked-up embedding to this L2 norm. Default
            None.
        trainable: Whether the table is trained. Defaults to True.
        use_safe_embedding_lookup: Accepted for TF compatibility: invalid
            and missing ids are always left out. Defaults to True.

    Returns:
        A list of `SharedEmbeddingColumn`s, in the order of the input.

    Example:

    >>> import kerasish
    >>> from kerasish.feature_column import (
    ...     DenseFeatures, categorical_column_with_identity)
    >>> a, b = (categorical_column_with_identity(k, 3) for k in "ab")
    >>> columns = shared_embedding_columns(
    ...     [a, b], 2, initializer=kerasish.initializers.Ones())
    >>> layer = DenseFeatures(columns)
    >>> layer({"a": np.array([0]), "b": np.array([2])}).numpy()
    array([[1., 1., 1., 1.]], dtype=float32)
    >>> [v.path for v in layer.weights]
    ['dense_features/a_b_shared_embedding/embedding_weights']
    """
    return _shared(categorical_columns, dimension, combiner, initializer,
                   shared_embedding_collection_name, ckpt_to_load_from,
                   tensor_name_in_ckpt, max_norm, trainable,
                   use_safe_embedding_lookup, scoped=True)


def shared_embeddings(categorical_columns, dimension, combiner="mean",
                      initializer=None, shared_embedding_collection_name=None,
                      ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                      max_norm=None, trainable=True,
                      use_safe_embedding_lookup=True):
    """Embeddings of several categorical columns sharing one table (TF2's
    `tf.feature_column.shared_embeddings`): the same as
    `shared_embedding_columns`, but the table is the variable
    `<shared_embedding_collection_name>` outside any scope, as in TF2.

    Args:
        categorical_columns: Categorical columns with the same
            `num_buckets`.
        dimension: Embedding size.
        combiner: `"mean"` (default), `"sqrtn"` or `"sum"`.
        initializer: Initializer of the table (default truncated normal,
            stddev `1 / sqrt(dimension)`).
        shared_embedding_collection_name: The table's name (default the
            sorted column names joined by `_` + `_shared_embedding`).
        ckpt_to_load_from, tensor_name_in_ckpt: Initialize the table from
            this variable of an Estimator checkpoint. Default None.
        max_norm: Clip each looked-up embedding to this L2 norm. Default
            None.
        trainable: Whether the table is trained. Defaults to True.
        use_safe_embedding_lookup: Accepted for TF compatibility. Defaults
            to True.

    Returns:
        A list of `SharedEmbeddingColumn`s, in the order of the input.

    Example:

    >>> from kerasish.feature_column import (
    ...     DenseFeatures, categorical_column_with_identity)
    >>> a, b = (categorical_column_with_identity(k, 3) for k in "ab")
    >>> layer = DenseFeatures(shared_embeddings([b, a], 2))
    >>> layer({"a": np.array([0]), "b": np.array([2])}).shape
    (1, 4)
    >>> [v.path for v in layer.weights]
    ['a_b_shared_embedding']
    """
    return _shared(categorical_columns, dimension, combiner, initializer,
                   shared_embedding_collection_name, ckpt_to_load_from,
                   tensor_name_in_ckpt, max_norm, trainable,
                   use_safe_embedding_lookup, scoped=False)
