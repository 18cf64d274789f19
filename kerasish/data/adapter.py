"""Feeding a `Dataset` to `fit` / `evaluate` / `predict`.

A dataset already yields batches of `(x, y[, sample_weight])`: `y` and
`sample_weight` may not be passed separately (Keras's rule for tf.data);
`class_weight` is applied to each batch. Each epoch iterates the dataset
again; an infinite (`repeat()`ed) dataset needs `steps_per_epoch`.
"""
from kerasish.engine.data_adapters.data_adapter import DataAdapter
from kerasish.engine.data_adapters.utils import (
    class_weight_to_sample_weights, unpack_x_y_sample_weight)
from kerasish.data.dataset import Dataset
from kerasish.engine.data_adapters import ADAPTERS


def _unsupported(arg, description):
    raise ValueError(
        f"When providing `x` as a kerasish.data.Dataset, `{arg}` should not "
        f"be passed. Instead, {description} should be included as part of "
        "the Dataset.")


class DatasetAdapter(DataAdapter):
    """Adapter for `kerasish.data.Dataset` inputs."""

    def __init__(self, dataset, y=None, sample_weight=None, batch_size=None,
                 steps=None, shuffle=False, class_weight=None):
        if y is not None:
            _unsupported("y", "the targets")
        if sample_weight is not None:
            _unsupported("sample_weights", "the sample weights")
        self._dataset = dataset
        self._class_weight = class_weight

    @property
    def num_batches(self):
        card = self._dataset.cardinality()
        return card if card >= 0 else None

    def get_numpy_iterator(self, epoch=0):
        # Plain arrays: a batch's `.numpy()` is for user code, not models.
        for batch in self._dataset.as_numpy_iterator():
            yield self._with_class_weight(batch)

    def peek_batch(self):
        for batch in self._dataset.as_numpy_iterator():
            return self._with_class_weight(batch)
        raise ValueError("The Dataset passed to fit/evaluate/predict is "
                         "empty.")

    def _with_class_weight(self, batch):
        if self._class_weight is None:
            return batch
        x, y, sw = unpack_x_y_sample_weight(batch)
        if y is None:
            raise ValueError("`class_weight` needs targets: the Dataset must "
                             "yield (x, y) batches.")
        return (x, y, class_weight_to_sample_weights(y, self._class_weight))


def _is_dataset(x, y=None):
    return isinstance(x, Dataset)


def register():
    entry = (_is_dataset, DatasetAdapter)
    if not any(e[0] is _is_dataset for e in ADAPTERS):
        ADAPTERS.insert(0, entry)
