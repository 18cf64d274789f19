"""`encode_categorical`: integer ids -> one_hot / multi_hot / count.

Shared by CategoryEncoding, Discretization, the lookup layers and
HashedCrossing, with Keras's shape rules: a trailing axis of size 1 is
replaced by the depth in `one_hot` mode; `multi_hot` and `count` reduce the
last axis (each row is a bag of ids).
"""
import numpy as np


def _to_rank_1_plus(ids):
    return ids.reshape(1) if ids.ndim == 0 else ids


def _check_range(ids, depth, what):
    if ids.size and (ids.min() < 0 or ids.max() >= depth):
        raise ValueError(
            f"{what} received ids outside [0, {depth}): found values in "
            f"[{ids.min()}, {ids.max()}]. Ids must be less than the number "
            "of tokens (`num_tokens`).")


def bag_counts(ids, depth, weights=None, dtype="float32"):
    """Per-row counts (or summed weights) of each id over the last axis."""
    ids = _to_rank_1_plus(ids)
    rows = ids.reshape(-1, ids.shape[-1]) if ids.ndim > 1 else \
        ids.reshape(1, -1)
    flat_rows = np.repeat(np.arange(rows.shape[0]), rows.shape[1])
    positions = flat_rows * depth + rows.ravel()
    w = None if weights is None else np.asarray(weights).reshape(-1)
    counts = np.bincount(positions, weights=w,
                         minlength=rows.shape[0] * depth)
    counts = counts.reshape(rows.shape[0], depth).astype(dtype)
    shape = ids.shape[:-1] + (depth,) if ids.ndim > 1 else (depth,)
    return counts.reshape(shape)


def encode_categorical(ids, output_mode, depth, dtype="float32",
                       count_weights=None, what="Layer"):
    """Encode integer `ids` (numpy) as Keras's categorical encoders do."""
    ids = np.asarray(ids)
    if output_mode == "int":
        return ids.astype(dtype)
    ids = _to_rank_1_plus(ids).astype(np.int64)
    _check_range(ids, depth, what)
    if output_mode == "one_hot":
        if ids.ndim > 1 and ids.shape[-1] == 1:
            ids = ids.reshape(ids.shape[:-1])
        out = np.zeros(ids.shape + (depth,), dtype=dtype)
        np.put_along_axis(out, ids[..., None], 1, axis=-1)
        return out
    if output_mode == "multi_hot":
        return (bag_counts(ids, depth) > 0).astype(dtype)
    if output_mode == "count":
        if count_weights is not None:
            dtype = np.asarray(count_weights).dtype
        return bag_counts(ids, depth, count_weights, dtype)
    raise ValueError(f"Unknown arg for output_mode: {output_mode}")


def encoded_shape(input_shape, output_mode, depth):
    """The output shape `encode_categorical` gives for `input_shape`."""
    input_shape = tuple(input_shape)
    if output_mode == "int":
        return input_shape
    if not input_shape:
        return (depth,)
    if output_mode == "one_hot":
        if input_shape[-1] == 1 and len(input_shape) > 1:
            return input_shape[:-1] + (depth,)
        return input_shape + (depth,)
    return input_shape[:-1] + (depth,)
