"""Scatter primitives: sums and reductions of rows into positions.

Rows with the same target position are combined after one stable sort,
with `ufunc.reduceat` (no `np.add.at`); the gradient of a scatter-add is a
gather of the upstream gradient.
"""
import numpy as np

from kerasish.backend.primitive import primitive


def _grouped(positions, rows, ufunc):
    """`(unique positions, ufunc-reduced rows per position)`."""
    order = np.argsort(positions, kind="stable")
    sorted_pos = positions[order]
    starts = np.flatnonzero(np.r_[True, sorted_pos[1:] != sorted_pos[:-1]])
    return sorted_pos[starts], ufunc.reduceat(rows[order], starts, axis=0)


@primitive
def scatter_add(rows, *, positions, size):
    """A `(size, *row_shape)` array with `rows[i]` added at `positions[i]`."""
    out = np.zeros((size,) + rows.shape[1:], rows.dtype)
    if len(positions):
        where, summed = _grouped(positions, rows, np.add)
        out[where] = summed
    return out


@scatter_add.defvjp
def _scatter_add_vjp(g, out, rows, *, positions, size):
    return (g[positions],)


def scatter_reduce(base, positions, rows, reduction):
    """`base` (2-D, rows by position) combined with `rows` by `reduction`
    ("max", "min" or "mul") at `positions`; no gradient."""
    ufunc = {"max": np.maximum, "min": np.minimum, "mul": np.multiply}[
        reduction]
    out = np.array(base, copy=True)
    if len(positions):
        where, combined = _grouped(positions, rows.astype(out.dtype), ufunc)
        out[where] = ufunc(out[where], combined)
    return out


# -- segment reductions -------------------------------------------------------
_UFUNCS = {"min": np.minimum, "max": np.maximum, "prod": np.multiply,
           "sum": np.add}


def _identity(kind, dtype):
    """Value of an empty segment: 0, 1, or +-inf (the int limits)."""
    if kind in ("sum", "prod"):
        return int(kind == "prod")
    if np.dtype(dtype).kind == "f":
        return np.inf if kind == "min" else -np.inf
    info = np.iinfo(dtype)
    return info.max if kind == "min" else info.min


@primitive
def segment_reduce(data, *, ids, num_segments, kind):
    """Sum, min, max or product of the rows of `data` per segment id; rows
    with an id outside `[0, num_segments)` are dropped, as in JAX."""
    out = np.full((num_segments,) + data.shape[1:],
                  _identity(kind, data.dtype), data.dtype)
    keep = (ids >= 0) & (ids < num_segments)
    if keep.any():
        where, combined = _grouped(ids[keep], data[keep], _UFUNCS[kind])
        out[where] = combined
    return out


def _segment_count(ids, mask, num_segments):
    """Per segment, how many rows satisfy `mask` (rowwise over trailing)."""
    keep = (ids >= 0) & (ids < num_segments)
    counts = np.zeros((num_segments,) + mask.shape[1:], np.int64)
    if keep.any():
        where, summed = _grouped(ids[keep], mask[keep].astype(np.int64),
                                 np.add)
        counts[where] = summed
    return counts


@segment_reduce.defvjp
def _segment_reduce_vjp(g, out, data, *, ids, num_segments, kind):
    keep = (ids >= 0) & (ids < num_segments)
    safe = np.where(keep, ids, 0)
    g_rows = np.where(keep.reshape((-1,) + (1,) * (data.ndim - 1)),
                      g[safe], 0)
    if kind == "sum":
        return (g_rows,)
    if kind in ("min", "max"):
        # Ties share the gradient equally (JAX's rule).
        hit = data == out[safe]
        counts = _segment_count(ids, hit, num_segments)
        return (g_rows * hit / np.maximum(counts[safe], 1),)
    zeros = _segment_count(ids, data == 0, num_segments)[safe]
    nonzero = np.where(data == 0, 1, data)
    prod_nonzero = segment_reduce.fwd(nonzero, ids=ids,
                                      num_segments=num_segments,
                                      kind="prod")[safe]
    with np.errstate(divide="ignore", invalid="ignore"):
        others = np.where(zeros == 0, prod_nonzero / nonzero,
                          np.where((zeros == 1) & (data == 0),
                                   prod_nonzero, 0))
    return (g_rows * others,)
