"""The data a `FeatureSpace` adapts on and is called with."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.data import Dataset

# Keras adapts on `Dataset.from_tensor_slices(dict).batch(32)` when given a
# dict; batches matter to Discretization's quantile sketches, so kerasish
# feeds the same batches.
_ADAPT_BATCH = 32


def _array(value):
    if isinstance(value, Tensor):
        return value._value
    return np.asarray(value)


def _features(element):
    """The feature dict of a dataset element (`x` of an `(x, y)` pair)."""
    if isinstance(element, tuple) and element and isinstance(element[0],
                                                             dict):
        return element[0]
    return element


def feature_batches(data, name):
    """Batches `(n, 1)` of one feature, to hand to a layer's `adapt`."""
    if isinstance(data, dict):
        column = _array(data[name])
        column = column.reshape(-1, 1) if column.ndim <= 1 else column
        return [column[i:i + _ADAPT_BATCH]
                for i in range(0, len(column), _ADAPT_BATCH)]
    return _dataset_batches(data, name)


def _dataset_batches(dataset, name):
    elements = (_array(_features(e)[name]) for e in dataset)
    first = next(elements, None)
    if first is None:
        raise ValueError("adapt() received an empty dataset.")
    if first.ndim == 0:
        # Unbatched scalars: batch them as Keras does.
        return _rebatch(first, elements)
    return [_expand(b) for b in _chain(first, elements)]


def _chain(first, rest):
    yield first
    yield from rest


def _expand(batch):
    return batch.reshape(-1, 1) if batch.ndim <= 1 else batch


def _rebatch(first, rest):
    batches, current = [], [first]
    for value in rest:
        current.append(value)
        if len(current) == _ADAPT_BATCH:
            batches.append(np.stack(current).reshape(-1, 1))
            current = []
    if current:
        batches.append(np.stack(current).reshape(-1, 1))
    return batches


def check_adapt_data(data):
    if isinstance(data, (dict, Dataset)):
        return
    raise ValueError(
        "`adapt()` can only be called on a kerasish.data.Dataset or a dict "
        f"of arrays/lists. Received instead: {data!r:.100} (of type "
        f"{type(data)})")


def as_batch(data):
    """`(dict of (n, 1)-or-wider arrays, rebatched)`: scalars become
    `(1, 1)` (and the output is squeezed back), vectors `(n, 1)`."""
    out, rebatched = {}, False
    for key, value in data.items():
        x = _array(value)
        if x.ndim == 0:
            x, rebatched = x.reshape(1, 1), True
        elif x.ndim == 1:
            x = x[:, None]
        out[key] = x
    return out, rebatched
