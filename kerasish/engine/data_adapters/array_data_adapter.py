"""Batches from in-memory arrays (and lists/dicts of arrays).

Floats are converted to floatx once; strings and Python objects are refused
with a clear error. Shuffling draws from numpy's global RNG as Keras does:
`np.random.permutation(num_samples)` when a pass yields its first batch, or
with `shuffle="batch"` a permutation of each batch as it is sliced.
"""
import math

import numpy as np

from kerasish import tree
from kerasish.backend import config
from kerasish.engine.data_adapters.data_adapter import DataAdapter
from kerasish.engine.data_adapters import utils
from kerasish.engine.data_adapters.scipy_sparse import (
    is_scipy_sparse, rows, take_rows, to_csr)
from kerasish.engine.data_adapters.shuffle_draws import ShuffleDraws


def _check_numeric(name, a):
    # Strings are allowed (string-lookup layers take them); the model's
    # first layer refuses them when it expects numbers.
    if a.dtype.kind in "OV" and not (a.dtype.kind == "O" and all(
            isinstance(v, str) for v in a.ravel()[:100])):
        raise ValueError(
            f"Expected numeric or string data in `{name}`, but found an "
            f"array of dtype {a.dtype} (Python objects) with shape "
            f"{a.shape}. Convert it with `np.asarray(..., dtype='float32')`.")


def convert_array(x, name):
    """Array-like -> numpy array with floats in floatx; None passes."""
    if x is None:
        return None
    if is_scipy_sparse(x):
        return to_csr(x)
    if hasattr(x, "_value") and not hasattr(x, "_keras_history"):
        x = np.asarray(x)
    elif not isinstance(x, np.ndarray):
        try:
            x = np.asarray(x)
        except (ValueError, TypeError) as e:
            raise ValueError(
                f"Could not convert `{name}` to a numpy array: {e}") from None
    _check_numeric(name, x)
    if x.ndim == 0:
        raise ValueError(
            f"`{name}` must have a batch (first) axis; received a scalar "
            f"{x!r}.")
    if x.dtype.kind == "f" and x.dtype != config.floatx():
        x = x.astype(config.floatx())
    return x


def _is_number_list(x):
    return isinstance(x, (list, tuple)) and len(x) > 0 and all(
        np.isscalar(v) or _is_number_list(v) for v in x)


def _size(row):
    return f"{len(row)} entries" if isinstance(row, (list, tuple)) \
        else "a scalar"


def _ragged_entry(rows, path):
    """`(path, row, first)`: the first row unlike its first sibling."""
    if not any(isinstance(r, (list, tuple)) for r in rows):
        return None
    for i, row in enumerate(rows):
        if _size(row) != _size(rows[0]):
            return f"{path}[{i}]", row, rows[0]
    for i, row in enumerate(rows):
        found = _ragged_entry(row, f"{path}[{i}]")
        if found:
            return found
    return None


def _check_not_ragged(rows, name):
    # numpy's own error ("inhomogeneous shape after 1 dimensions") names
    # neither the argument nor the row.
    found = _ragged_entry(rows, name)
    if found is None:
        return
    path, row, first = found
    text = repr(rows)
    text = text if len(text) <= 120 else text[:117] + "..."
    raise ValueError(
        f"`{name}` is a ragged nested list: {path} has {_size(row)} where "
        f"its first sibling has {_size(first)}. Pad the rows to one length "
        "(`keras.utils.pad_sequences`) or pass a numpy array. "
        f"Received: {name}={text}")


def convert_arrays(structure, name):
    """Arrays for a structure of array-likes; a (nested) list of plain
    numbers (or strings) is one array, as tf.keras read it, not a
    structure of scalars."""
    if _is_number_list(structure):
        _check_not_ragged(structure, name)
        return convert_array(np.asarray(structure), name)
    return tree.map_structure(lambda a: convert_array(a, name), structure)


def _check_sample_weight(y, sample_weight):
    if sample_weight is None or not tree.is_nested(y):
        return
    if isinstance(sample_weight, (list, tuple, dict)):
        if len(tree.flatten(sample_weight)) != len(tree.flatten(y)):
            raise ValueError(
                "You should provide one `sample_weight` array per output in "
                "`y`. The two structures did not match:\n"
                f"- y: {tree.map_structure(lambda a: a.shape, y)}\n"
                "- sample_weight: "
                f"{tree.map_structure(lambda a: a.shape, sample_weight)}")
        return
    shape = sample_weight.shape
    if not (len(shape) == 1 or (len(shape) == 2 and shape[1] == 1)):
        raise ValueError(
            "For a model with multiple outputs, when providing a single "
            "`sample_weight` array, it should only have one scalar score per "
            "sample (i.e. shape `(num_samples,)`). If you want to use "
            "non-scalar sample weights, pass a `sample_weight` argument with "
            "one array per model output.")


class ArrayDataAdapter(DataAdapter):
    """Slice `(x, y, sample_weight)` arrays into batches.

    Args:
        x, y, sample_weight: Arrays, or lists/dicts of arrays.
        batch_size: Samples per batch (default 32, or
            `ceil(n / steps)` when `steps` is given).
        steps: Batches per epoch, if fixed.
        shuffle: `True` (global permutation per epoch), `"batch"`
            (within each batch) or `False`.
        class_weight: `{class_index: weight}`, turned into sample weights.
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=None,
                 steps=None, shuffle=False, class_weight=None):
        if sample_weight is not None and class_weight is not None:
            raise ValueError(
                "You cannot `class_weight` and `sample_weight` at the same "
                "time.")
        x = convert_arrays(x, "x")
        y = convert_arrays(y, "y")
        sample_weight = convert_arrays(sample_weight, "sample_weight")
        _check_sample_weight(y, sample_weight)
        if class_weight is not None:
            sample_weight = utils.class_weight_to_sample_weights(
                y, class_weight)
        # As Keras's adapters, lists reach the steps as tuples.
        self._data = tree.lists_to_tuples(
            utils.pack_data(x, y, sample_weight))
        # Batches of `x` alone are `x` itself, as Keras gives them to the
        # steps (`pack_x_y_sample_weight`); a list/tuple `x` stays `(x,)`.
        self._bare_x = y is None and not isinstance(x, (list, tuple))
        self._num_samples = utils.check_data_cardinality(self._data)
        if self._num_samples == 0:
            raise ValueError(
                "Expected at least one sample, but the input arrays are "
                f"empty: x shapes "
                f"{[a.shape for a in tree.flatten(x) if a is not None]}.")
        if batch_size is None:
            batch_size = 32 if not steps else int(
                math.ceil(self._num_samples / steps))
        if not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError("`batch_size` must be a positive integer. "
                             f"Received: batch_size={batch_size}")
        self._batch_size = int(batch_size)
        self._shuffle = shuffle
        self._draws = ShuffleDraws("numpy")

    @property
    def num_batches(self):
        return int(math.ceil(self._num_samples / self._batch_size))

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def num_samples(self):
        return self._num_samples

    @property
    def has_partial_batch(self):
        return self._num_samples % self._batch_size > 0

    @property
    def partial_batch_size(self):
        return self._num_samples % self._batch_size or None

    def get_numpy_iterator(self, epoch=0):
        self._draws.new_pass()
        return self._batches()

    def _batches(self):
        n, bs = self._num_samples, self._batch_size
        leaves = tree.flatten(self._data)
        pack = self._packer()
        order = None
        if self._shuffle and self._shuffle != "batch":
            order = self._draws.rng().permutation(n)
        for start in range(0, n, bs):
            stop = min(start + bs, n)
            if self._shuffle == "batch":
                index = self._draws.rng().permutation(stop - start) + start
            elif order is not None:
                index = order[start:stop]
            else:
                yield pack([None if a is None else rows(a, start, stop)
                            for a in leaves])
                continue
            yield pack([None if a is None else take_rows(a, index)
                        for a in leaves])

    def _packer(self):
        """Leaves -> one batch in the structure the steps receive."""
        pack = tree.unflattener(self._data)
        if self._bare_x:
            return lambda leaves: pack(leaves)[0]
        return pack

    def peek_batch(self):
        stop = min(self._batch_size, self._num_samples)
        return self._packer()([None if a is None else rows(a, 0, stop)
                               for a in tree.flatten(self._data)])

    def peek_pass(self):
        return next(self.get_numpy_iterator())

    def shuffle_state(self):
        return self._draws.get_state() if self._shuffle else None

    def replay_shuffle(self, state):
        self._draws.replay(state)
