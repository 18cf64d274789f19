"""Categorical columns: identity, hash bucket and weighted columns (the
vocabulary columns are in `vocabulary`)."""
import collections

import numpy as np

from kerasish.feature_column.base import (CategoricalColumn, CategoricalIds,
                                          as_numpy, categorical_input, kind)
from kerasish.backend import farmhash


def fingerprints(values):
    """Fingerprint64 of each value's string form, as uint64."""
    uniques, inverse = np.unique(values, return_inverse=True)
    hashes = np.array([farmhash.fingerprint64(str(u)) for u in uniques],
                      dtype=np.uint64)
    return hashes[inverse.reshape(-1)].reshape(values.shape)


def make_ids(values, mask, weights=None):
    return CategoricalIds(values.astype(np.int64), mask, weights)


class IdentityCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ("key", "number_buckets",
                                      "default_value"))):
    """Integer inputs used as ids."""

    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def num_buckets(self):
        return self.number_buckets

    def transform(self, cache):
        values, mask = categorical_input(cache, self, "int")
        outside = mask & ((values < 0) | (values >= self.number_buckets))
        if outside.any():
            if self.default_value is None:
                bad = sorted(set(values[outside].tolist()))
                raise ValueError(
                    f"Column {self.name!r}: ids {bad[:5]} of feature "
                    f"{self.key!r} are outside [0, {self.number_buckets}) "
                    "and the column has no default_value.")
            values = np.where(outside, self.default_value, values)
        return make_ids(values, mask)


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer features used as ids in `[0, num_buckets)` (TF's).

    Args:
        key: The feature's key (integer values; -1 marks a missing value).
        num_buckets: Number of ids.
        default_value: Id for values outside the range (None: error).

    Returns:
        An `IdentityCategoricalColumn`.

    Example:

    >>> from kerasish.feature_column import DenseFeatures, indicator_column
    >>> day = categorical_column_with_identity("day", num_buckets=3)
    >>> DenseFeatures([indicator_column(day)])(
    ...     {"day": np.array([[0, 2], [1, -1]])}).numpy()
    array([[1., 0., 1.],
           [0., 1., 0.]], dtype=float32)
    """
    if num_buckets is None or num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, "
                         f"{num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


class HashedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
    """Ids from hashing the values."""

    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    def transform(self, cache):
        expected = "string" if self.dtype == "string" else "int"
        values, mask = categorical_input(cache, self, expected)
        ids = np.zeros(values.shape, np.int64)
        if mask.any():
            ids[mask] = (fingerprints(values[mask]) % np.uint64(
                self.hash_bucket_size)).astype(np.int64)
        return make_ids(ids, mask)


def categorical_column_with_hash_bucket(key, hash_bucket_size,
                                        dtype="string"):
    """Ids from hashing: `Fingerprint64(value) % hash_bucket_size`.

    TF's `string_to_hash_bucket_fast` (FarmHash Fingerprint64 of the UTF-8
    bytes; integers are hashed as their decimal strings), so ids equal
    TF's.

    Args:
        key: The feature's key.
        hash_bucket_size: Number of buckets.
        dtype: `"string"` or an int dtype.

    Returns:
        A `HashedCategoricalColumn`.

    Example:

    >>> column = categorical_column_with_hash_bucket("word", 10)
    >>> from kerasish.feature_column.base import FeatureCache
    >>> column.get_ids(FeatureCache({"word": np.array(["a", ""])})).mask
    array([[ True],
           [False]])
    """
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. "
                         f"hash_bucket_size: {hash_bucket_size}, key: {key}")
    kind_ = "U" if dtype == "string" else np.dtype(dtype).kind
    if kind_ not in "USiu":
        raise ValueError(f"dtype must be string or integer. dtype: {dtype}, "
                         f"column_name: {key}")
    return HashedCategoricalColumn(key, int(hash_bucket_size),
                                   "string" if kind_ in "US" else "int64")


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ("categorical_column",
                                      "weight_feature_key", "dtype"))):
    """A categorical column whose ids carry weights from another feature."""

    __slots__ = ()

    @property
    def name(self):
        return (f"{self.categorical_column.name}_weighted_by_"
                f"{self.weight_feature_key}")

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def num_buckets(self):
        return self.categorical_column.num_buckets

    def transform(self, cache):
        ids = self.categorical_column.get_ids(cache)
        weights = as_numpy(cache.raw(self.weight_feature_key, self))
        if kind(weights) not in ("float", "int"):
            raise ValueError(
                f"Column {self.name!r} expects numeric weights in feature "
                f"{self.weight_feature_key!r}, got dtype {weights.dtype}.")
        if weights.shape != ids.values.shape:
            raise ValueError(
                f"Column {self.name!r}: weights {self.weight_feature_key!r} "
                f"of shape {weights.shape} must match the ids of "
                f"{self.categorical_column.name!r}, of shape "
                f"{ids.values.shape}.")
        weights = weights.astype(np.float32)
        # TF drops zero weights from the sparse weights (like missing ids).
        return make_ids(ids.values, ids.mask & (weights != 0), weights)


def weighted_categorical_column(categorical_column, weight_feature_key,
                                dtype="float32"):
    """Weights for a categorical column's ids, from feature
    `weight_feature_key` (same shape as the ids' feature).

    Args:
        categorical_column: A categorical column.
        weight_feature_key: Key of the weights feature.
        dtype: Float dtype of the weights. Defaults to float32.

    Returns:
        A `WeightedCategoricalColumn`.

    Example:

    >>> from kerasish.feature_column import (
    ...     DenseFeatures, categorical_column_with_vocabulary_list,
    ...     indicator_column)
    >>> words = categorical_column_with_vocabulary_list("w", ["a", "b"])
    >>> tfidf = weighted_categorical_column(words, "w_weight")
    >>> DenseFeatures([indicator_column(tfidf)])(
    ...     {"w": np.array([["a", "b"]]), "w_weight": np.array([[0.5, 2.]])}
    ... ).numpy()
    array([[0.5, 2. ]], dtype=float32)
    """
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError("categorical_column must be a categorical column. "
                         f"Given: {categorical_column!r}")
    if np.dtype(dtype).kind != "f":
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key,
                                     np.dtype(dtype).name)
