"""Partitioners: how many parts a variable is split into, along its rows.

As TF's: a partitioner is called as `partitioner(shape, dtype)` and returns
one count per axis, all 1 but the split axis. TF1's functions
(`fixed_size_partitioner`, `min_max_variable_partitioner`,
`variable_axis_size_partitioner`) and TF2's classes (`FixedShardsPartitioner`,
`MinSizePartitioner`, `MaxSizePartitioner`, which take `axis=0` too) are
both here. A split variable is cut into contiguous row ranges, the first
ones one row longer when the rows do not divide evenly (13 rows in 5 parts:
3, 3, 3, 2, 2), and the parts are placed on ps tasks like variables.
"""
import math

import numpy as np


def _element_bytes(dtype, bytes_per_string_element):
    dtype = np.dtype(str(dtype)) if not isinstance(dtype, np.dtype) \
        else dtype
    if dtype.kind in "OSU":
        return bytes_per_string_element
    return dtype.itemsize


def _checked_axis(shape, axis):
    if len(shape) == 0 or not 0 <= axis < len(shape):
        raise ValueError(
            f"Cannot partition a variable of shape {tuple(shape)} along "
            f"axis {axis}: it has no such axis. Received: shape="
            f"{tuple(shape)}, axis={axis}")


def _counts(shape, axis, parts):
    counts = [1] * len(shape)
    counts[axis] = int(parts)
    return counts


def fixed_size_partitioner(num_shards, axis=0):
    """Split every variable into `num_shards` parts along `axis`.

    Example:

    >>> fixed_size_partitioner(3)((12, 4), "float32")
    [3, 1]
    """
    if isinstance(num_shards, bool) or not isinstance(num_shards, int) or \
            num_shards < 1:
        raise ValueError("`num_shards` must be a positive int. "
                         f"Received: num_shards={num_shards!r}")

    def partitioner(shape, dtype=None):
        _checked_axis(shape, axis)
        if shape[axis] < num_shards:
            raise ValueError(
                f"Cannot split a variable of shape {tuple(shape)} into "
                f"{num_shards} parts along axis {axis}: it has only "
                f"{shape[axis]} rows. Received: num_shards={num_shards}")
        return _counts(shape, axis, num_shards)
    return partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0,
                                 min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """As many parts as keep each at least `min_slice_size` bytes, at
    most `max_partitions` (and at most the number of rows).

    Example:

    >>> min_max_variable_partitioner(4, min_slice_size=1000)((100, 10),
    ...                                                      "float32")
    [4, 1]
    """
    if max_partitions < 1 or min_slice_size < 1:
        raise ValueError(
            "`max_partitions` and `min_slice_size` must be >= 1. Received: "
            f"max_partitions={max_partitions!r}, "
            f"min_slice_size={min_slice_size!r}")

    def partitioner(shape, dtype="float32"):
        _checked_axis(shape, axis)
        total = int(np.prod(shape)) * _element_bytes(
            dtype, bytes_per_string_element)
        parts = max(1, min(int(shape[axis]), int(max_partitions),
                           int(math.ceil(total / min_slice_size))))
        return _counts(shape, axis, parts)
    return partitioner


def variable_axis_size_partitioner(max_shard_bytes, axis=0,
                                   bytes_per_string_element=16,
                                   max_shards=None):
    """As few parts as keep each at most `max_shard_bytes` (a row is never
    cut; `max_shards` caps the count).

    Example:

    >>> variable_axis_size_partitioner(400)((100, 10), "float32")
    [10, 1]
    """
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError(
            "`max_shard_bytes` and `bytes_per_string_element` must be "
            f">= 1. Received: max_shard_bytes={max_shard_bytes!r}")
    if max_shards is not None and max_shards < 1:
        raise ValueError("`max_shards` must be >= 1 or None. "
                         f"Received: max_shards={max_shards!r}")

    def partitioner(shape, dtype="float32"):
        _checked_axis(shape, axis)
        rows = int(shape[axis])
        row_bytes = int(np.prod(shape)) // max(rows, 1) * _element_bytes(
            dtype, bytes_per_string_element)
        rows_per_part = max(1, int(max_shard_bytes // max(row_bytes, 1)))
        parts = int(math.ceil(rows / rows_per_part))
        if max_shards is not None:
            parts = min(parts, int(max_shards))
        return _counts(shape, axis, max(parts, 1))
    return partitioner


max_size_partitioner = variable_axis_size_partitioner


class FixedShardsPartitioner:
    """TF2's: `num_shards` parts (fewer for a variable with fewer rows).

    Example:

    >>> FixedShardsPartitioner(4)((3, 2), "float32")
    [3, 1]
    """

    def __init__(self, num_shards):
        if isinstance(num_shards, bool) or not isinstance(num_shards, int) \
                or num_shards < 1:
            raise ValueError("`num_shards` must be a positive int. "
                             f"Received: num_shards={num_shards!r}")
        self._num_shards = num_shards

    def __call__(self, shape, dtype="float32", axis=0):
        _checked_axis(shape, axis)
        return _counts(shape, axis, min(self._num_shards, int(shape[axis])))


class MinSizePartitioner:
    """TF2's: parts of at least `min_shard_bytes`, at most `max_shards`.

    Example:

    >>> MinSizePartitioner(min_shard_bytes=400, max_shards=2)((100, 10))
    [2, 1]
    """

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1,
                 bytes_per_string=16):
        self._fn = lambda axis: min_max_variable_partitioner(
            max_shards, axis, min_shard_bytes, bytes_per_string)

    def __call__(self, shape, dtype="float32", axis=0):
        return self._fn(axis)(shape, dtype)


class MaxSizePartitioner:
    """TF2's: parts of at most `max_shard_bytes` (`max_shards` caps them).

    Example:

    >>> MaxSizePartitioner(max_shard_bytes=4000)((100, 10))
    [1, 1]
    """

    def __init__(self, max_shard_bytes, max_shards=None,
                 bytes_per_string=16):
        self._fn = lambda axis: variable_axis_size_partitioner(
            max_shard_bytes, axis, bytes_per_string, max_shards)

    def __call__(self, shape, dtype="float32", axis=0):
        return self._fn(axis)(shape, dtype)


def row_ranges(rows, parts):
    """The `(start, stop)` rows of each part ("div": the first
    `rows % parts` parts one row longer).

    Example:

    >>> row_ranges(13, 5)
    [(0, 3), (3, 6), (6, 9), (9, 11), (11, 13)]
    """
    base, extra = divmod(int(rows), int(parts))
    out, start = [], 0
    for i in range(int(parts)):
        stop = start + base + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


def partition_count(partitioner, shape, dtype):
    """How many row parts `partitioner` gives a variable (1: unsplit).
    Only axis 0 can be split, as in TF2's parameter-server strategy."""
    if partitioner is None or len(shape) == 0:
        return 1
    counts = list(partitioner(tuple(shape), str(dtype)))
    if len(counts) != len(shape) or any(c != 1 for c in counts[1:]):
        raise ValueError(
            "The parameter-server runtime splits variables along axis 0 "
            f"only; the partitioner returned {counts} for a variable of "
            f"shape {tuple(shape)}.")
    if counts[0] > shape[0]:
        raise ValueError(
            f"Cannot split a variable of shape {tuple(shape)} into "
            f"{counts[0]} parts: it has only {shape[0]} rows.")
    return int(counts[0])
