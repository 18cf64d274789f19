"""`numeric_column` and `bucketized_column`."""
import collections
import math

import numpy as np

from kerasish.feature_column.base import (CategoricalColumn, CategoricalIds,
                                          DenseColumn, as_numpy, kind)
from kerasish import ops
from kerasish.backend.tensor import Tensor


def _check_shape(shape, key):
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise ValueError(f"shape must be an int or an iterable of ints. "
                         f"shape: {shape!r}, key: {key}") from None
    if not shape or any(d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: "
                         f"{shape}, key: {key}")
    return shape


def _check_default(default_value, shape, key):
    if default_value is None:
        return None
    array = np.asarray(default_value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"default_value must be compatible with dtype. "
                        f"default_value: {default_value!r}, key: {key}")
    if array.ndim == 0:
        return float(array)
    if array.shape != shape:
        raise ValueError(
            f"The shape of default_value must be equal to given shape. "
            f"default_value: {default_value}, shape: {shape}, key: {key}")
    return tuple(array.ravel().tolist())


class NumericColumn(DenseColumn, collections.namedtuple(
        "NumericColumn", ("key", "shape", "default_value", "dtype",
                          "normalizer_fn"))):
    """A number (or fixed-shape array of numbers) per example.

    Made by `numeric_column`.

    Example:

    >>> from kerasish.feature_column import FeatureCache
    >>> point = numeric_column("point", shape=(2,))
    >>> type(point).__name__, point.variable_shape
    ('NumericColumn', (2,))
    >>> cache = FeatureCache({"point": np.array([[1, 2], [3, 4]])})
    >>> point.get_dense_tensor(cache).numpy()
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    """

    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def variable_shape(self):
        return tuple(self.shape)

    def _raw(self, cache):
        try:
            return cache.raw(self.key, self)
        except ValueError:
            if self.default_value is None or self.key in cache._features:
                raise
        # As TF's parsing fills an absent feature with `default_value`.
        fill = np.asarray(self.default_value, np.float32)
        return np.broadcast_to(fill.reshape((1, -1)),
                               (cache.batch_size, math.prod(self.shape)))

    def transform(self, cache):
        value = self._raw(cache)
        array_kind = kind(as_numpy(value)) if not hasattr(value, "_value") \
            else kind(value._value)
        if array_kind not in ("int", "float", "bool"):
            raise ValueError(
                f"numeric_column {self.key!r} expects numbers, but feature "
                f"{self.key!r} has dtype {as_numpy(value).dtype}.")
        shape = np.shape(value)
        if math.prod(shape[1:]) != math.prod(self.shape):
            raise ValueError(
                f"numeric_column {self.key!r} expects shape {self.shape} per "
                f"example ({math.prod(self.shape)} values), but feature "
                f"{self.key!r} has shape {shape}.")
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        value = ops.cast(value, "float32")
        return ops.reshape(value, (shape[0],) + tuple(self.shape))

    def get_dense_tensor(self, cache, layer=None):
        return cache.get(self, requester=self)


def numeric_column(key, shape=(1,), default_value=None, dtype="float32",
                   normalizer_fn=None):
    """A column of real values (TF's `numeric_column`).

    Args:
        key: The feature's key in the features dict.
        shape: Shape of one example's value. Defaults to `(1,)`.
        default_value: Value used when the feature is absent from the
            features dict (as TF's parsing used it); None: an absent feature
            is an error.
        dtype: Float or int dtype of the feature. Defaults to float32.
        normalizer_fn: Function applied to the raw values (before the cast
            to float32), e.g. `lambda x: (x - mean) / std`.

    Returns:
        A `NumericColumn`.

    Example:

    >>> from kerasish.feature_column import DenseFeatures
    >>> age = numeric_column("age", normalizer_fn=lambda x: x / 10)
    >>> DenseFeatures([age])({"age": np.array([20.0, 35.0])}).numpy()
    array([[2. ],
           [3.5]], dtype=float32)
    """
    shape = _check_shape(shape, key)
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key!r}")
    default_value = _check_default(default_value, shape, key)
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in "iuf":
        raise ValueError(f"dtype must be convertible to float. dtype: "
                         f"{dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: "
                        f"{normalizer_fn!r}")
    return NumericColumn(key, shape, default_value, dtype.name,
                         normalizer_fn)


class BucketizedColumn(DenseColumn, CategoricalColumn,
                       collections.namedtuple(
                           "BucketizedColumn",
                           ("source_column", "boundaries"))):
    """A numeric column cut into ranges by `boundaries`.

    Made by `bucketized_column`. It is dense (one-hot buckets) and
    categorical (bucket ids) at once.

    Example:

    >>> from kerasish.feature_column import FeatureCache
    >>> buckets = bucketized_column(numeric_column("age"), [18, 30])
    >>> buckets.name, buckets.num_buckets, buckets.variable_shape
    ('age_bucketized', 3, (1, 3))
    >>> cache = FeatureCache({"age": np.array([15.0, 30.0, 40.0])})
    >>> buckets.get_ids(cache).values.tolist()
    [[0], [2], [2]]
    """

    __slots__ = ()

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def parents(self):
        return [self.source_column]

    @property
    def _depth(self):
        return len(self.boundaries) + 1

    @property
    def variable_shape(self):
        return tuple(self.source_column.shape) + (self._depth,)

    @property
    def num_buckets(self):
        return math.prod(self.source_column.shape) * self._depth

    def transform(self, cache):
        values = as_numpy(cache.get(self.source_column, requester=self))
        # TF's Bucketize compares float32 values with float32 boundaries;
        # a value equal to a boundary goes to the bucket above it.
        return np.searchsorted(np.asarray(self.boundaries, np.float32),
                               values.astype(np.float32),
                               side="right").astype(np.int64)

    def get_dense_tensor(self, cache, layer=None):
        buckets = cache.get(self, requester=self)
        one_hot = np.eye(self._depth, dtype=np.float32)[buckets]
        return Tensor(one_hot)

    def get_ids(self, cache):
        buckets = cache.get(self, requester=self)
        flat = buckets.reshape((buckets.shape[0], -1))
        offsets = np.arange(flat.shape[1], dtype=np.int64) * self._depth
        values = flat + offsets
        return CategoricalIds(values, np.ones(values.shape, bool), None)


def bucketized_column(source_column, boundaries):
    """Buckets of a numeric column (TF's `bucketized_column`).

    With boundaries `[b0, b1, ..., bn]` a value `v` falls in bucket 0 if
    `v < b0`, bucket `i` if `b(i-1) <= v < bi`, bucket `n+1` if `v >= bn`.
    As a dense column it is the one-hot of the bucket; as a categorical
    column its ids are the buckets (offset per element of a multi-element
    source).

    Args:
        source_column: A `numeric_column` (one-dimensional shape).
        boundaries: Strictly increasing list of floats.

    Returns:
        A `BucketizedColumn`.

    Example:

    >>> from kerasish.feature_column import DenseFeatures
    >>> age = bucketized_column(numeric_column("age"), [18, 65])
    >>> DenseFeatures([age])({"age": np.array([10, 18, 70])}).numpy()
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]], dtype=float32)
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with "
                         f"numeric_column(). Given: {source_column!r}")
    if len(source_column.shape) > 1:
        raise ValueError("source_column must be one-dimensional column. "
                         f"Given: {source_column!r}")
    if not boundaries or not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must be a sorted list. Given: "
                         f"{boundaries!r}")
    boundaries = tuple(float(b) for b in boundaries)
    if any(a >= b for a, b in zip(boundaries, boundaries[1:])):
        raise ValueError(f"boundaries must be a sorted list. Given: "
                         f"{list(boundaries)}")
    return BucketizedColumn(source_column, boundaries)
