"""Feature column base classes and the per-call feature cache.

A feature column is an immutable description (a namedtuple, as in TF) of
how to turn entries of a features dict into model input:

* a `DenseColumn` gives a float tensor of shape `(batch,) +
  variable_shape` (`get_dense_tensor`), possibly using weights it creates
  in a layer (`create_state`);
* a `CategoricalColumn` gives integer ids in `[0, num_buckets)`, several
  per example when the input has several values per row (`get_ids`).

Inputs follow TF's conventions: a rank-1 feature is one value per example
(`(batch,)` is read as `(batch, 1)`); a categorical feature of shape
`(batch, n)` has up to `n` values per example, where `""` (strings) and
`-1` (integers) mark missing values, which are dropped.
"""
import abc
import collections

import numpy as np
from kerasish.feature_column.serialization import serialize
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.feature_column.serialization import deserialize
from kerasish.saving.serialization_lib import deserialize_keras_object
from kerasish import ops

_MISSING_STRING = ""
_MISSING_INT = -1


class FeatureColumn(abc.ABC):
    """Base of every feature column.

    A column has a unique `name`, the `parents` it is built from and a
    `transform(cache)` computing its value from a `FeatureCache`.

    Example:

    >>> from kerasish.feature_column import bucketized_column, numeric_column
    >>> age = numeric_column("age")
    >>> buckets = bucketized_column(age, [18, 65])
    >>> isinstance(buckets, FeatureColumn), buckets.name
    (True, 'age_bucketized')
    >>> buckets.parents == [age]
    True
    >>> FeatureColumn()
    Traceback (most recent call last):
    ...
    TypeError: Can't instantiate abstract class FeatureColumn ...
    """

    __slots__ = ()

    @property
    @abc.abstractmethod
    def name(self):
        """Unique name; `DenseFeatures` sorts columns by it."""

    @property
    def parents(self):
        """Columns (or feature keys) this column is built from."""
        return []

    @abc.abstractmethod
    def transform(self, cache):
        """The column's transformed value (memoized by `cache`)."""

    def create_state(self, layer):
        """Create the weights the column needs on `layer` (default: none)."""

    def get_config(self):
        """The column's arguments; nested columns are serialized."""
        return {field: serialize(value) if isinstance(value, FeatureColumn)
                else _plain(value)
                for field, value in zip(self._fields, self)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**{key: _unplain(value, custom_objects)
                      for key, value in config.items()})


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if callable(value):
        return serialize_keras_object(value)
    return value


def _unplain(value, custom_objects):
    if isinstance(value, list):
        return tuple(_unplain(v, custom_objects) for v in value)
    if not (isinstance(value, dict) and "class_name" in value):
        return value
    if value.get("module") == "kerasish.feature_column":
        return deserialize(value, custom_objects)
    return deserialize_keras_object(value, custom_objects=custom_objects)


class DenseColumn(FeatureColumn):
    """A column giving a dense float tensor.

    Example:

    >>> from kerasish.feature_column import (
    ...     categorical_column_with_vocabulary_list, indicator_column)
    >>> party = categorical_column_with_vocabulary_list(
    ...     "party", ["democrat", "independent", "republican"])
    >>> one_hot = indicator_column(party)
    >>> isinstance(one_hot, DenseColumn), one_hot.variable_shape
    (True, (3,))
    >>> cache = FeatureCache({"party": np.array(["republican", "democrat"])})
    >>> one_hot.get_dense_tensor(cache).numpy()
    array([[0., 0., 1.],
           [1., 0., 0.]], dtype=float32)
    """

    __slots__ = ()

    @property
    @abc.abstractmethod
    def variable_shape(self):
        """Shape of one example's output (without the batch axis)."""

    @abc.abstractmethod
    def get_dense_tensor(self, cache, layer=None):
        """`(batch,) + variable_shape` float32 tensor."""


class CategoricalColumn(FeatureColumn):
    """A column giving integer ids in `[0, num_buckets)`.

    Example:

    >>> from kerasish.feature_column import (
    ...     categorical_column_with_vocabulary_list)
    >>> party = categorical_column_with_vocabulary_list(
    ...     "party", ["democrat", "independent", "republican"])
    >>> isinstance(party, CategoricalColumn), party.num_buckets
    (True, 3)
    >>> cache = FeatureCache({"party": np.array([["republican"],
    ...                                          ["independent"]])})
    >>> party.get_ids(cache).values.tolist()
    [[2], [1]]
    """

    __slots__ = ()

    @property
    @abc.abstractmethod
    def num_buckets(self):
        """Number of distinct ids."""

    def get_ids(self, cache):
        """The `CategoricalIds` of the batch."""
        return cache.get(self, requester=self)

    def cross_ids(self, cache):
        """`(ids, present)` that `crossed_column` crosses: the ids of
        the values not missing, out-of-vocabulary -1 ids included."""
        ids = self.get_ids(cache)
        return ids.values, ids.mask


class CategoricalIds(collections.namedtuple(
        "CategoricalIds", ["values", "mask", "weights"])):
    """Ids of a batch: `values` int64 `(batch, n)`, `mask` (False where a
    value is missing) and optional float `weights` of the same shape.

    Example:

    >>> from kerasish.feature_column import (
    ...     categorical_column_with_vocabulary_list)
    >>> party = categorical_column_with_vocabulary_list(
    ...     "party", ["democrat", "independent", "republican"])
    >>> ids = party.get_ids(FeatureCache(
    ...     {"party": np.array([["republican", "democrat"],
    ...                         ["independent", ""]])}))
    >>> ids.values.tolist(), ids.mask.tolist()
    ([[2, 0], [1, 0]], [[True, True], [True, False]])
    >>> ids.effective_weights()
    array([[1., 1.],
           [1., 0.]], dtype=float32)
    """

    def effective_weights(self):
        """Weights (1 where none), zero where missing, as float32."""
        w = self.mask.astype(np.float32)
        if self.weights is not None:
            w = w * self.weights.astype(np.float32)
        return w


class FeatureCache:
    """The features dict of one call, with each column's transform memoized
    (TF's `FeatureTransformationCache`).

    Args:
        features: Dict of feature arrays (or tensors).

    Example:

    >>> from kerasish.feature_column import numeric_column
    >>> age = numeric_column("age")
    >>> cache = FeatureCache({"age": np.array([20.0, 35.0])})
    >>> cache.batch_size
    2
    >>> cache.get(age, requester=age) is cache.get(age, requester=age)
    True
    >>> cache.get("height", requester=age)
    Traceback (most recent call last):
    ...
    ValueError: Feature 'height' (needed by column 'age') is not in ...
    """

    def __init__(self, features):
        if not isinstance(features, dict):
            raise ValueError("We expected a dictionary of features here. "
                             f"Instead we got: {type(features).__name__} "
                             f"{features!r:.100}")
        self._features = features
        self._cache = {}

    def get(self, key, requester):
        """A raw feature (str key, rank >= 2) or a column's transform."""
        if isinstance(key, FeatureColumn):
            if key not in self._cache:
                self._cache[key] = key.transform(self)
            return self._cache[key]
        return self.raw(key, requester)

    def raw(self, key, requester):
        if key not in self._features:
            raise ValueError(
                f"Feature {key!r} (needed by column {requester.name!r}) is "
                f"not in the features dictionary. Available features: "
                f"{sorted(self._features)}")
        value = self._features[key]
        rank = len(np.shape(value))
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. "
                             f"Given: {value!r:.100}")
        if rank == 1:
            value = ops.expand_dims(value, -1) if hasattr(value, "_value") \
                else np.asarray(value)[:, None]
        return value

    @property
    def batch_size(self):
        for value in self._features.values():
            shape = np.shape(value)
            if shape:
                return shape[0]
        raise ValueError("The features dictionary is empty.")


def as_numpy(value):
    return np.asarray(getattr(value, "_value", value))


def kind(array):
    """`"string"`, `"int"`, `"float"`, `"bool"` or another dtype kind."""
    k = array.dtype.kind
    if k in "US" or (k == "O" and all(isinstance(v, (str, bytes))
                                      for v in array.ravel()[:100])):
        return "string"
    return {"i": "int", "u": "int", "f": "float", "b": "bool"}.get(k, k)


def as_strings(array):
    """Values as a str array (bytes decoded as UTF-8)."""
    if array.dtype.kind == "S":
        return np.char.decode(array, "utf-8")
    if array.dtype.kind == "O":
        return np.array([v.decode("utf-8") if isinstance(v, bytes) else v
                         for v in array.ravel()], dtype=str).reshape(
                             array.shape)
    return array


def categorical_input(cache, column, expected):
    """The raw feature of `column` as `(values, mask)`: strings (str) or
    int64, missing values ("" / -1) masked out; checks the dtype."""
    array = as_numpy(cache.raw(column.key, column))
    got = kind(array)
    if expected == "string" and got != "string" or \
            expected == "int" and got != "int":
        raise ValueError(
            f"Column {column.name!r} expects {expected} values in feature "
            f"{column.key!r}, but the feature has dtype {array.dtype}.")
    if got == "string":
        array = as_strings(array)
        return array, array != _MISSING_STRING
    array = array.astype(np.int64)
    return array, array != _MISSING_INT


def normalize_columns(feature_columns, expected_type, what):
    """Columns sorted by name; checks types and duplicate names."""
    if isinstance(feature_columns, FeatureColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found "
                         "dict.")
    columns = list(feature_columns or [])
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    for column in columns:
        if not isinstance(column, expected_type):
            raise ValueError(
                f"Items of feature_columns must be a {what}. You can wrap a "
                "categorical column with an embedding_column or "
                f"indicator_column. Given: {column!r}")
    columns = sorted(columns, key=lambda c: c.name)
    for a, b in zip(columns, columns[1:]):
        if a.name == b.name:
            raise ValueError(
                f"Duplicate feature column name found for columns: {a} and "
                f"{b}. This usually means that these columns refer to same "
                "base feature. Either one must be discarded or a duplicated "
                "but renamed item must be inserted in features dict.")
    return columns
