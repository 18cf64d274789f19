"""Batches for `TextVectorization`: what `adapt` reads, and ids of
ragged token rows laid out as padded arrays."""
import numpy as np

from kerasish.backend.tensor import Tensor


def adapt_batches(data, batch_size):
    """The batches `adapt` reads: one (or `batch_size` chunks) for arrays
    and lists, each element of a dataset or other iterable."""
    if isinstance(data, (list, tuple, np.ndarray, Tensor, str, bytes)):
        values = np.asarray(data._value if isinstance(data, Tensor)
                            else data)
        if values.ndim == 1:
            values = values[:, None]
        step = batch_size or max(len(values), 1)
        return [values[i:i + step] for i in range(0, len(values), step)] \
            if values.ndim else [values]
    if not hasattr(data, "__iter__"):
        raise TypeError(
            "TextVectorization.adapt() expects strings: a list, a numpy "
            "array, a kerasish.data.Dataset or an iterable of batches. "
            f"Received: data of type {type(data).__name__}")
    return (_features(batch) for batch in data)


def _features(batch):
    """The strings of a dataset element (`x` of an `(x, y)` pair)."""
    if isinstance(batch, tuple) and batch and not isinstance(
            batch[0], (str, bytes)):
        return batch[0]
    return batch


def fit_last_axis(ids, length):
    """`ids` cut or zero-padded to `length` entries on the last axis."""
    ids = ids[..., :length]
    missing = length - ids.shape[-1] if ids.ndim else 0
    if missing > 0:
        ids = np.pad(ids, [(0, 0)] * (ids.ndim - 1) + [(0, missing)])
    return ids


def pad_ids(ids, rows, length):
    """The flat `ids` of ragged `rows` as a zero-padded `(rows, width)`
    array (`width=length`, or the longest row; longer rows are cut)."""
    lengths = np.fromiter(map(len, rows), np.int64, len(rows))
    width = int(lengths.max(initial=0)) if length is None else length
    out = np.zeros((len(rows), width), np.int64)
    row = np.repeat(np.arange(len(rows)), lengths)
    col = np.arange(len(ids)) - np.repeat(np.cumsum(lengths) - lengths,
                                          lengths)
    keep = col < width
    out[row[keep], col[keep]] = ids[keep]
    return out
