"""Dense views of categorical columns: `indicator_column`, `embedding_column`.
"""
import collections
import math

import numpy as np

from kerasish.feature_column.base import CategoricalColumn, DenseColumn
from kerasish.backend.tensor import Tensor
from kerasish import ops
from kerasish import initializers

_COMBINERS = ("mean", "sqrtn", "sum")


class IndicatorColumn(DenseColumn, collections.namedtuple(
        "IndicatorColumn", ("categorical_column",))):
    """Multi-hot counts (or summed weights) of a categorical column."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def variable_shape(self):
        return (self.categorical_column.num_buckets,)

    def transform(self, cache):
        ids = self.categorical_column.get_ids(cache)
        batch, depth = ids.values.shape[0], self.variable_shape[0]
        rows = np.broadcast_to(np.arange(batch)[:, None], ids.mask.shape)
        flat = rows[ids.mask] * depth + ids.values[ids.mask]
        counts = np.bincount(flat, weights=ids.effective_weights()[ids.mask],
                             minlength=batch * depth)
        return counts.reshape(batch, depth).astype(np.float32)

    def get_dense_tensor(self, cache, layer=None):
        return Tensor(cache.get(self, requester=self))


def indicator_column(categorical_column):
    """A multi-hot representation of a categorical column (TF's).

    Each example's vector has, at each id, the number of times the id
    occurs (or the sum of its weights for a weighted column).

    Args:
        categorical_column: A categorical column.

    Returns:
        An `IndicatorColumn`.

    Example:

    >>> from kerasish.feature_column import (
    ...     DenseFeatures, categorical_column_with_identity)
    >>> column = indicator_column(categorical_column_with_identity("x", 3))
    >>> DenseFeatures([column])({"x": np.array([[1, 1], [0, 2]])}).numpy()
    array([[0., 2., 0.],
           [1., 0., 1.]], dtype=float32)
    """
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a "
                         f"CategoricalColumn. Given: {categorical_column!r}")
    return IndicatorColumn(categorical_column)


def embedding_lookup(params, ids, combiner, max_norm=None):
    """Combine the embeddings of each example's ids: `(batch, dim)`.

    Missing ids are left out (an example without ids gets zeros), as TF's
    `safe_embedding_lookup_sparse`; only the rows looked up receive
    gradients. `mean` divides the weighted sum by the sum of the weights,
    `sqrtn` by the square root of the sum of their squares.
    """
    batch, width = ids.values.shape
    weights = ids.effective_weights()
    valid = ids.values[ids.mask]
    rows = ops.take(params, valid, axis=0)
    if max_norm is not None:
        norms = ops.sqrt(ops.sum(rows * rows, axis=-1, keepdims=True))
        rows = rows * (max_norm / ops.maximum(norms, max_norm))
    rows = rows * weights[ids.mask][:, None]
    dim = params.shape[-1]
    if not ids.mask.all():
        index = np.full(batch * width, len(valid), np.int64)
        index[np.flatnonzero(ids.mask)] = np.arange(len(valid))
        padded = ops.concatenate([rows, np.zeros((1, dim), np.float32)])
        rows = ops.take(padded, index, axis=0)
    total = ops.sum(ops.reshape(rows, (batch, width, dim)), axis=1)
    if combiner == "sum":
        return total
    denominator = weights.sum(axis=1) if combiner == "mean" else \
        np.sqrt((weights ** 2).sum(axis=1))
    scale = np.where(denominator > 0, 1.0 / np.maximum(denominator, 1e-30),
                     0.0).astype(np.float32)
    return total * scale[:, None]


class EmbeddingLookup:
    """What an embedding column and a shared one have in common: ids of a
    categorical column looked up in an `embedding_weights` table."""

    __slots__ = ()

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def variable_shape(self):
        return (self.dimension,)

    def transform(self, cache):
        return self.categorical_column.get_ids(cache)

    def _table_initializer(self):
        return self.initializer or initializers.TruncatedNormal(
            mean=0.0, stddev=1.0 / math.sqrt(self.dimension))

    def _warm_started(self, weights):
        """`weights`, set from `ckpt_to_load_from` when given."""
        if self.ckpt_to_load_from is not None:
            # lazy: the Estimator's checkpoints sit above feature columns
            from kerasish.estimator.checkpoints import load_variable
            weights.assign(load_variable(self.ckpt_to_load_from,
                                         self.tensor_name_in_ckpt))
        return weights

    def get_dense_tensor(self, cache, layer=None):
        if layer is None:
            raise ValueError(f"Column {self.name!r} needs the layer holding "
                             "its embedding weights (use DenseFeatures).")
        params = layer.column_weights(self)["embedding_weights"]
        ids = cache.get(self, requester=self)
        return embedding_lookup(params, ids, self.combiner, self.max_norm)


class EmbeddingColumn(EmbeddingLookup, DenseColumn, collections.namedtuple(
        "EmbeddingColumn", ("categorical_column", "dimension", "combiner",
                            "initializer", "ckpt_to_load_from",
                            "tensor_name_in_ckpt", "max_norm", "trainable",
                            "use_safe_embedding_lookup"))):
    """A trainable embedding of a categorical column's ids."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_embedding"

    def create_state(self, layer):
        weights = layer.add_column_weight(
            self, "embedding_weights",
            (self.categorical_column.num_buckets, self.dimension),
            self._table_initializer(), trainable=self.trainable)
        return {"embedding_weights": self._warm_started(weights)}


def checked_embedding_arguments(dimension, combiner, initializer,
                                ckpt_to_load_from, tensor_name_in_ckpt,
                                max_norm):
    """TF's checks of an embedding column's arguments; returns the
    initializer (resolved from a name)."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of {_COMBINERS}. Given: "
                         f"{combiner!r}")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and "
                         "`tensor_name_in_ckpt` or none of them.")
    if initializer is not None and not callable(initializer):
        initializer = initializers.get(initializer)
    if max_norm is not None and max_norm <= 0:
        raise ValueError(f"max_norm must be positive. Given: {max_norm}")
    return initializer


def embedding_column(categorical_column, dimension, combiner="mean",
                     initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                     use_safe_embedding_lookup=True):
    """A dense, trainable embedding of a categorical column (TF's).

    Args:
        categorical_column: A categorical column.
        dimension: Embedding size.
        combiner: How the embeddings of an example's ids are combined:
            `"mean"` (default), `"sqrtn"` or `"sum"` (weighted by the
            column's weights, if any).
        initializer: Initializer of the `(num_buckets, dimension)` weights
            (default truncated normal, stddev `1 / sqrt(dimension)`).
        ckpt_to_load_from, tensor_name_in_ckpt: Initialize the weights from
            this variable of an Estimator checkpoint.
        max_norm: Clip each looked-up embedding to this L2 norm.
        trainable: Whether the weights are trained.
        use_safe_embedding_lookup: Accepted for TF compatibility: invalid
            and missing ids are always left out.

    Returns:
        An `EmbeddingColumn`.

    Example:

    >>> import kerasish
    >>> from kerasish.feature_column import (
    ...     DenseFeatures, categorical_column_with_identity)
    >>> column = embedding_column(categorical_column_with_identity("x", 4),
    ...                           dimension=2,
    ...                           initializer=kerasish.initializers.Ones())
    >>> DenseFeatures([column])({"x": np.array([[1, 3], [2, -1]])}).numpy()
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError("categorical_column must be a categorical column. "
                         f"Given: {categorical_column!r}")
    initializer = checked_embedding_arguments(
        dimension, combiner, initializer, ckpt_to_load_from,
        tensor_name_in_ckpt, max_norm)
    return EmbeddingColumn(categorical_column, int(dimension), combiner,
                           initializer, ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable,
                           use_safe_embedding_lookup)
