"""`crossed_column`: hashed combinations of categorical features.

Each combination of values (one per crossed key; all combinations when a
key has several values per example) is hashed as TF's
`sparse_cross_hashed` does: starting from `hash_key`, the hash is combined
with each value's hash in order by `FingerprintCat64`, where a string's
hash is its FarmHash `Fingerprint64` and an integer's (a raw integer feature
or a categorical column's id) is its value. The id is that hash modulo
`hash_bucket_size`, so crosses land in TF's buckets.

As in TF, the categorical columns' ids (sparse tensors there) are crossed
before the raw features (dense there), whatever the order of `keys`. A raw
feature is crossed as given, an empty string or a -1 included (TF drops
missing values only when a categorical column reads the feature); a
column's missing values are not crossed, its out-of-vocabulary -1 ids are.
"""
import collections
import itertools

import numpy as np

from kerasish.feature_column.base import (CategoricalColumn, CategoricalIds,
                                          as_numpy, as_strings, kind)
from kerasish.feature_column.categorical import HashedCategoricalColumn
from kerasish.backend import farmhash

DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MASK64 = (1 << 64) - 1


def _leaf_keys(keys):
    for key in keys:
        if isinstance(key, CrossedColumn):
            yield from _leaf_keys(key.keys)
        else:
            yield key


def _raw_hashes(cache, key, column):
    array = as_numpy(cache.raw(key, column))
    array_kind = kind(array)
    present = np.ones(array.shape, bool)
    if array_kind == "string":
        array = as_strings(array)
        uniques, inverse = np.unique(array, return_inverse=True)
        hashes = [farmhash.fingerprint64(u) for u in uniques.tolist()]
        return np.array(hashes, np.uint64)[inverse.reshape(-1)].reshape(
            array.shape), present
    if array_kind == "int":
        return array.astype(np.int64).view(np.uint64), present
    raise ValueError(
        f"crossed_column {column.name!r} crosses string or integer "
        f"features, but feature {key!r} has dtype {array.dtype}; bucketize "
        "a numeric feature first (bucketized_column).")


def _column_hashes(cache, key, column):
    ids = key.get_ids(cache)
    if ids.weights is not None:
        raise ValueError(
            "crossed_column does not support weight_tensor, but the given "
            f"column populates weight_tensor. Given column: {key.name}")
    values, present = key.cross_ids(cache)
    return values.astype(np.int64).view(np.uint64), present


def _combine(rows, hash_key):
    """FingerprintCat64 chain over each row of a (N, k) uint64 array."""
    uniques, inverse = np.unique(rows, axis=0, return_inverse=True)
    out = np.empty(len(uniques), np.uint64)
    for i, row in enumerate(uniques.tolist()):
        h = hash_key
        for value in row:
            h = farmhash.fingerprint_cat64(h, value)
        out[i] = h
    return out[inverse.reshape(-1)]


class CrossedColumn(CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ("keys", "hash_bucket_size", "hash_key"))):
    """Hashed crosses of categorical features (see module docstring)."""

    __slots__ = ()

    @property
    def name(self):
        names = [key.name if isinstance(key, CategoricalColumn) else key
                 for key in _leaf_keys(self.keys)]
        return "_X_".join(sorted(names))

    @property
    def parents(self):
        return list(self.keys)

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    def transform(self, cache):
        keys = list(_leaf_keys(self.keys))
        # TF's sparse_cross takes its sparse inputs (the columns' ids)
        # first, then the dense ones (raw features).
        parts = [_column_hashes(cache, key, self) for key in keys
                 if not isinstance(key, str)] + \
            [_raw_hashes(cache, key, self) for key in keys
             if isinstance(key, str)]
        batch = parts[0][0].shape[0]
        widths = [p[0].reshape(batch, -1).shape[1] for p in parts]
        combos = list(itertools.product(*[range(w) for w in widths]))
        hashes = np.stack([np.stack(
            [p[0].reshape(batch, -1)[:, c[j]] for j, p in enumerate(parts)],
            axis=-1) for c in combos], axis=1)
        mask = np.stack([np.logical_and.reduce(
            [p[1].reshape(batch, -1)[:, c[j]] for j, p in enumerate(parts)])
            for c in combos], axis=1)
        crossed = _combine(hashes.reshape(-1, len(parts)),
                           self.hash_key & _MASK64)
        ids = (crossed % np.uint64(self.hash_bucket_size)).astype(np.int64)
        return CategoricalIds(ids.reshape(batch, len(combos)), mask, None)


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """Hashed crosses of features (TF's `crossed_column`).

    Args:
        keys: Two or more feature keys (string or integer features) and/or
            categorical columns (not hash-bucket columns: cross the raw
            feature instead); crossed columns are flattened.
        hash_bucket_size: Number of ids.
        hash_key: Hash seed (default TF's `0xDECAFCAFFE`).

    Returns:
        A `CrossedColumn`.

    Example:

    >>> column = crossed_column(["a", "b"], hash_bucket_size=5)
    >>> from kerasish.feature_column.base import FeatureCache
    >>> column.get_ids(FeatureCache({"a": np.array(["A", "B"]),
    ...                              "b": np.array([101, 101])})).values
    array([[1],
           [4]])
    """
    keys = tuple(keys) if keys is not None else ()
    if len(keys) < 2:
        raise ValueError("keys must be a list with length > 1. Given: "
                         f"{list(keys)}")
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError("hash_bucket_size must be > 1. hash_bucket_size: "
                         f"{hash_bucket_size}")
    for key in keys:
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError(
                "categorical_column_with_hash_bucket is not supported for "
                "crossing. Hashing before crossing will increase "
                "probability of collision. Instead, use the feature name "
                f"as a string. Given: {key}")
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError(
                "Unsupported key type. All keys must be either string, or "
                "categorical column except HashedCategoricalColumn. Given: "
                f"{key!r}")
    return CrossedColumn(keys, int(hash_bucket_size),
                         DEFAULT_HASH_KEY if hash_key is None else
                         int(hash_key))
