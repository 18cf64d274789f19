"""Turning every supported input form into batches: `get_data_adapter`.

Arrays (and lists/dicts of arrays) are sliced into batches; a `PyDataset`
gives batches by index; generators, iterators and re-iterable objects
yield batches. Other input types can be plugged in through `ADAPTERS`.
"""
import numpy as np

from kerasish import tree
from kerasish.engine.data_adapters.data_adapter import DataAdapter  # noqa
from kerasish.engine.data_adapters.array_data_adapter import (  # noqa
    ArrayDataAdapter)
from kerasish.engine.data_adapters.generator_data_adapter import (  # noqa
    CachingDataAdapter, GeneratorDataAdapter)
from kerasish.engine.data_adapters.py_dataset_adapter import (  # noqa
    PyDatasetAdapter)
from kerasish.engine.data_adapters.scipy_sparse import is_scipy_sparse
from kerasish.engine.data_adapters.utils import (  # noqa: F401
    unpack_x_y_sample_weight, pack_x_y_sample_weight)

# Extra adapters (for example a tf.data-like object) register here: each
# entry is `(can_handle(x, y) -> bool, factory(x, **kwargs) -> adapter)`.
ADAPTERS = []


def _is_array_like(x):
    if isinstance(x, (str, bytes)) or np.isscalar(x):
        return False
    return all(a is None or isinstance(a, np.ndarray) or
               hasattr(a, "__array__") or np.isscalar(a) or
               is_scipy_sparse(a) for a in tree.flatten(x))


def _is_batch_stream(x):
    """Generators, iterators and iterable objects that are not arrays."""
    if isinstance(x, (list, tuple, dict, str, bytes, np.ndarray)) or \
            hasattr(x, "__array__") or is_scipy_sparse(x):
        return False
    return hasattr(x, "__iter__")


def _reject(argument, description, kind, value):
    if value is not None:
        raise ValueError(
            f"When providing `x` as a {kind}, `{argument}` should not be "
            f"passed. Instead, {description} should be included as part "
            f"of the {kind}.")


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None,
                     steps_per_epoch=None, shuffle=False, class_weight=None):
    """Pick the adapter for `x`.

    Args:
        x, y, sample_weight: The data, in any supported form.
        batch_size: Samples per batch (arrays only).
        steps_per_epoch: Batches per epoch, if fixed.
        shuffle: `True`, `False` or `"batch"` (arrays); a PyDataset's batch
            order is permuted when true; streams ignore it.
        class_weight: `{class_index: weight}` (not for generators).

    Returns:
        A `DataAdapter`.
    """
    # lazy: a top-level import would close an import circle
    from kerasish.utils.py_dataset import PyDataset
    if isinstance(x, DataAdapter):
        return x
    for can_handle, factory in ADAPTERS:
        if can_handle(x, y):
            return factory(x, y=y, sample_weight=sample_weight,
                           batch_size=batch_size, steps=steps_per_epoch,
                           shuffle=shuffle, class_weight=class_weight)
    if isinstance(x, PyDataset):
        _reject("y", "the targets", "PyDataset", y)
        _reject("sample_weights", "the sample weights", "PyDataset",
                sample_weight)
        return PyDatasetAdapter(x, class_weight=class_weight,
                                shuffle=shuffle)
    if x is None:
        raise ValueError("Unrecognized data type: x=None (you passed no "
                         "input data).")
    if _is_batch_stream(x):
        _reject("y", "the targets", "generator", y)
        _reject("sample_weights", "the sample weights", "generator",
                sample_weight)
        if class_weight is not None:
            raise ValueError(
                "Argument `class_weight` is not supported for Python "
                f"generator inputs. Received: class_weight={class_weight}")
        return GeneratorDataAdapter(x)
    if not _is_array_like(x):
        raise ValueError(f"Unrecognized data type: x={x!r:.200} "
                         f"(of type {type(x)})")
    return ArrayDataAdapter(x, y, sample_weight=sample_weight,
                            batch_size=batch_size, steps=steps_per_epoch,
                            shuffle=shuffle, class_weight=class_weight)
