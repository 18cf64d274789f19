"""`train_validation_split`: the last fraction of the arrays, unshuffled."""
import math

import numpy as np

from kerasish import tree
from kerasish.engine.data_adapters.scipy_sparse import is_scipy_sparse


def train_validation_split(arrays, validation_split):
    """Split `(x, y, sample_weight)` into training and validation parts.

    The *last* `validation_split` fraction becomes validation data, taken
    before any shuffling, as in Keras.
    """
    flat = tree.flatten(arrays)
    bad = [type(t).__name__ for t in flat
           if t is not None and not (isinstance(t, np.ndarray) or
                                     hasattr(t, "__array__") or
                                     isinstance(t, list) or
                                     is_scipy_sparse(t))]
    if bad:
        raise ValueError(
            "Argument `validation_split` is only supported for tensors or "
            f"NumPy arrays. Found incompatible type in the input: {bad}")
    if all(t is None for t in flat):
        return arrays, arrays
    arrays = tree.map_structure(_sliceable, arrays)
    n = int(next(t for t in tree.flatten(arrays) if t is not None).shape[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))
    if split_at == 0 or split_at == n:
        raise ValueError(
            f"Training data contains {n} samples, which is not sufficient to "
            "split it into a validation and training set as specified by "
            f"`validation_split={validation_split}`. Either provide more "
            "data, or a different value for the `validation_split` "
            "argument.")
    train = tree.map_structure(
        lambda t: None if t is None else t[:split_at], arrays)
    val = tree.map_structure(
        lambda t: None if t is None else t[split_at:], arrays)
    return train, val


def _sliceable(t):
    if t is None:
        return None
    # Sparse inputs stay sparse (CSR slices by rows; COO cannot slice).
    return t.tocsr() if is_scipy_sparse(t) else np.asarray(t)
