"""Helpers of the `adapt()` methods: batches of data and streaming moments."""
import itertools

import numpy as np


def _as_array(batch):
    if isinstance(batch, (tuple, list)) and len(batch) in (1, 2, 3) and \
            hasattr(batch[0], "shape"):
        batch = batch[0]     # (x,), (x, y) or (x, y, sample_weight)
    if hasattr(batch, "_value"):
        batch = batch._value
    return np.asarray(batch)


def peek_batches(data):
    """`(first_batch, iterator over all batches)` for arrays or iterables."""
    if isinstance(data, np.ndarray) or hasattr(data, "_value"):
        array = _as_array(data)
        return array, iter([array])
    if hasattr(data, "__getitem__") and hasattr(data, "__len__") and \
            hasattr(data, "num_batches"):
        data = (data[i] for i in range(len(data)))
    if not hasattr(data, "__iter__"):
        raise TypeError(
            f"Unsupported data type: {type(data)}. `adapt` supports numpy "
            "arrays, tensors, `PyDataset`s and iterables of batches (e.g. a "
            "list or a generator).")
    iterator = iter(data)
    first = next(iterator, None)
    if first is None:
        raise ValueError(
            "adapt() received an empty iterable (no batches). Expected at "
            "least one batch, e.g. layer.adapt([x]).")
    first = _as_array(first)
    return first, itertools.chain([first], (_as_array(b) for b in iterator))


def streaming_moments(batches, reduce_axes, keep_axes, build_shape):
    """Mean, variance and count over `reduce_axes`, merged batch by batch
    (Chan et al.'s parallel update, so one pass suffices)."""
    mean = var = None
    count = 0
    for batch in batches:
        batch = batch.astype(np.float64)
        for d in keep_axes:
            if batch.shape[d] != build_shape[d]:
                raise ValueError(
                    "adapt() yielded a batch with incompatible shape. "
                    f"Expected {tuple(build_shape)}, got {batch.shape}.")
        n = int(np.prod([batch.shape[d] for d in reduce_axes])) \
            if reduce_axes else 1
        b_mean = batch.mean(axis=reduce_axes) if reduce_axes else batch
        b_var = batch.var(axis=reduce_axes) if reduce_axes else \
            np.zeros_like(batch)
        if mean is None:
            mean, var, count = b_mean, b_var, n
            continue
        total = count + n
        w_new = n / total
        new_mean = mean * (1 - w_new) + b_mean * w_new
        var = (var + (mean - new_mean) ** 2) * (1 - w_new) + \
            (b_var + (b_mean - new_mean) ** 2) * w_new
        mean, count = new_mean, total
    return mean, var, count
