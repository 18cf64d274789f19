"""`IndexedSlices`: a gradient that touches only some rows of a table.

The VJP of a row gather (Embedding lookups) returns one, so an embedding
table's gradient is `(indices, values)` rows rather than a dense table of
mostly zeros. Optimizers apply it as row updates; `np.asarray` densifies it.
"""
import numpy as np


class IndexedSlices:
    """Rows `values[i]` to be added at row `indices[i]` of `dense_shape`.

    Repeated indices add up. `to_dense()` (or `np.asarray`) gives the full
    array; adding a dense array scatters the rows into a copy of it.

    Args:
        indices: Integer array of row indices, shape `(n,)`.
        values: Array of rows, shape `(n,) + dense_shape[1:]`.
        dense_shape: Shape of the full (dense) tensor.

    Example:

    >>> rows = IndexedSlices(np.array([0, 2, 0]),
    ...                      np.ones((3, 2), "float32"), (3, 2))
    >>> rows.to_dense()
    array([[2., 2.],
           [0., 0.],
           [1., 1.]], dtype=float32)

    An embedding table's gradient is one:

    >>> table = kerasish.Variable(np.ones((5, 2), "float32"))
    >>> with kerasish.GradientTape() as tape:
    ...     out = kerasish.ops.sum(kerasish.ops.take(table, [1, 3], axis=0))
    >>> grad = tape.gradient(out, table)
    >>> type(grad).__name__, grad.indices.tolist(), grad.dense_shape
    ('IndexedSlices', [1, 3], (5, 2))
    """

    __slots__ = ("indices", "values", "dense_shape")

    def __init__(self, indices, values, dense_shape):
        self.indices = indices
        self.values = values
        self.dense_shape = tuple(dense_shape)

    @property
    def shape(self):
        return self.dense_shape

    @property
    def dtype(self):
        return self.values.dtype

    def __add__(self, other):
        if isinstance(other, IndexedSlices):
            return IndexedSlices(
                np.concatenate([self.indices, other.indices]),
                np.concatenate([self.values, other.values]),
                self.dense_shape)
        dense = np.array(other, copy=True)
        return self._scatter_into(dense)

    __radd__ = __add__

    def deduplicate(self, groups=None):
        """Return `(unique_rows, summed_values)`, one entry per distinct row.

        Args:
            groups: Optional `row_groups(self.indices)`, when the caller
                already has it (tables looked up with the same ids).
        """
        rows, order, starts = groups or row_groups(self.indices)
        values = self.values[order]
        if len(starts) == len(order):
            return rows, values
        summed = np.add.reduceat(values, starts, axis=0)
        return rows, summed.astype(self.values.dtype, copy=False)

    def _scatter_into(self, dense):
        rows, summed = self.deduplicate()
        dense[rows] += summed
        return dense

    def to_dense(self):
        """The gradient as a full array."""
        return self._scatter_into(
            np.zeros(self.dense_shape, dtype=self.values.dtype))

    def __array__(self, dtype=None, copy=None):
        dense = self.to_dense()
        return dense if dtype is None else dense.astype(dtype)

    def numpy(self):
        return self.to_dense()

    def __repr__(self):
        return (f"IndexedSlices(rows={len(self.indices)}, "
                f"dense_shape={self.dense_shape}, dtype={self.dtype})")


def row_groups(indices):
    """`(rows, order, starts)` of an index vector: the distinct `rows` in
    increasing order, a stable sorting permutation `order`, and where each
    row's run begins in `indices[order]`.

    >>> row_groups(np.array([3, 1, 3]))
    (array([1, 3]), array([1, 0, 2]), array([0, 1]))
    """
    order = np.argsort(indices, kind="stable")
    ranked = indices[order]
    first = np.ones(len(ranked), bool)
    np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return ranked[starts], order, starts


def shared_row_groups(cache, indices):
    """`row_groups(indices)`, sorted once per index vector seen by `cache`.

    Tables looked up with the same ids (a deep and a wide embedding of one
    input) have index vectors that view the same memory. The key is that
    memory; the entry holds `indices` so that no other array can take its
    place while `cache` lives.
    """
    key = (indices.__array_interface__["data"][0], indices.shape,
           indices.strides, indices.dtype.str)
    entry = cache.get(key)
    if entry is None:
        entry = cache[key] = (indices, row_groups(indices))
    return entry[1]
