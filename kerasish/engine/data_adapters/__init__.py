"""Turning every supported input form into batches: `get_data_adapter`."""
from kerasish.engine.data_adapters.data_adapter import DataAdapter  # noqa
from kerasish.engine.data_adapters.array_data_adapter import (  # noqa
    ArrayDataAdapter)
from kerasish.engine.data_adapters.utils import (  # noqa: F401
    unpack_x_y_sample_weight, pack_x_y_sample_weight)

# Extra adapters (generators, PyDataset, Dataset, ...) register here:
# each entry is `(can_handle(x, y) -> bool, factory(**kwargs) -> adapter)`.
ADAPTERS = []


def _is_array_like(x):
    import numpy as np
    from kerasish import tree
    return all(a is None or isinstance(a, np.ndarray) or
               hasattr(a, "__array__") or isinstance(a, (list, tuple)) and
               not any(isinstance(b, (dict,)) for b in a)
               for a in tree.flatten(x))


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None,
                     steps_per_epoch=None, shuffle=False, class_weight=None,
                     seed=None):
    """Pick the adapter for `x` (arrays by default)."""
    if isinstance(x, DataAdapter):
        return x
    for can_handle, factory in ADAPTERS:
        if can_handle(x, y):
            return factory(x, y=y, sample_weight=sample_weight,
                           batch_size=batch_size, steps=steps_per_epoch,
                           shuffle=shuffle, class_weight=class_weight)
    if x is None:
        raise ValueError("Unrecognized data type: x=None (you passed no "
                         "input data).")
    if not _is_array_like(x):
        raise ValueError(f"Unrecognized data type: x={x!r:.200} "
                         f"(of type {type(x)})")
    return ArrayDataAdapter(x, y, sample_weight=sample_weight,
                            batch_size=batch_size, steps=steps_per_epoch,
                            shuffle=shuffle, class_weight=class_weight,
                            seed=seed)
