"""`IndexedSlices`: a gradient that touches only some rows of a table.

The VJP of a row gather (Embedding lookups) returns one, so an embedding
table's gradient is `(indices, values)` rows rather than a dense table of
mostly zeros. Optimizers apply it as row updates; `np.asarray` densifies it.
"""
import numpy as np


class IndexedSlices:
    """Rows `values[i]` to be added at row `indices[i]` of `dense_shape`."""

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

    def deduplicate(self):
        """Return `(unique_rows, summed_values)`, one entry per distinct row."""
        rows, inverse = np.unique(self.indices, return_inverse=True)
        if len(rows) == len(self.indices):
            order = np.argsort(inverse)
            return rows, self.values[order]
        order = np.argsort(inverse, kind="stable")
        starts = np.searchsorted(inverse[order], np.arange(len(rows)))
        summed = np.add.reduceat(self.values[order], starts, axis=0)
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
