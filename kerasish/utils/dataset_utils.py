"""`split_dataset`: split a dataset (arrays, `Dataset`, torch dataset)
into two `Dataset`s, as Keras's `keras.utils.split_dataset`.

The folder machinery of the `*_dataset_from_directory` utilities is in
`kerasish.utils.directory_utils`.
"""
import numbers
import random

import numpy as np

from kerasish import tree
from kerasish.data import Dataset


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False,
                  seed=None, preferred_backend=None):
    """Splits a dataset into a left half and a right half (e.g. train/test).

    Args:
        dataset: A `kerasish.data.Dataset`, a `torch.utils.data.Dataset`, a
            NumPy array, or a list/tuple of arrays with the same length.
        left_size: If float (in the range `[0, 1]`), the fraction of the
            data to pack in the left dataset; if int, the number of samples.
            If `None`, the complement of `right_size`. Defaults to `None`.
        right_size: Same for the right dataset. Defaults to `None`.
        shuffle: Whether to shuffle the data before splitting it (Python's
            `random` shuffle seeded with `seed`, as Keras). Defaults to
            `False`.
        seed: A random seed for shuffling.
        preferred_backend: `"torch"` to return `torch.utils.data` subsets
            (as Keras's torch backend does); anything else returns
            `kerasish.data.Dataset`s. Defaults to `None`.

    Returns:
        A tuple of two datasets, the left and right splits. A batched
        `Dataset` gives splits batched with the same batch size.

    Example:

    >>> data = np.random.random(size=(1000, 4))
    >>> left_ds, right_ds = split_dataset(data, left_size=0.8)
    >>> int(left_ds.cardinality()), int(right_ds.cardinality())
    (800, 200)
    """
    kind = _dataset_kind(dataset)
    if kind is None:
        raise TypeError(
            "The `dataset` argument must be either a `kerasish.data."
            "Dataset`, a `torch.utils.data.Dataset` object, or a list/tuple "
            f"of arrays. Received: dataset={dataset!r} of type "
            f"{type(dataset)}")
    if right_size is None and left_size is None:
        raise ValueError(
            "At least one of the `left_size` or `right_size` must be "
            "specified. Received: left_size=None and right_size=None")
    if preferred_backend == "torch":
        return _split_torch(dataset, kind, left_size, right_size, shuffle,
                            seed)
    samples = _samples(dataset, kind)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        # Same permutation as Keras's `random.seed(seed); random.shuffle`,
        # without reseeding the global generator.
        random.Random(seed).shuffle(samples)
    left, right = _split_sizes(left_size, right_size, len(samples))
    return (_to_dataset(samples[:left], dataset, kind),
            _to_dataset(samples[len(samples) - right:], dataset, kind))


def _dataset_kind(dataset):
    if isinstance(dataset, (tuple, list, np.ndarray, Dataset)):
        return type(dataset) if not isinstance(dataset, Dataset) else Dataset
    if _is_torch_dataset(dataset):
        return "torch"
    return None


def _is_torch_dataset(dataset):
    return any(c.__name__ == "Dataset" and
               c.__module__.startswith("torch.utils.data")
               for c in type(dataset).__mro__)


def _check_arrays(arrays, kind):
    if len(arrays) == 0:
        raise ValueError(f"Received an empty {kind.__name__} dataset. "
                         f"Please provide a non-empty {kind.__name__} of "
                         "arrays.")
    for i, array in enumerate(arrays):
        if not isinstance(array, np.ndarray):
            raise ValueError(f"Expected a {kind.__name__} of `numpy.ndarray`"
                             f" objects. Received: {type(array)} at index "
                             f"{i}.")
        if array.shape[0] != arrays[0].shape[0]:
            raise ValueError(
                f"Received a {kind.__name__} of NumPy arrays with different "
                f"lengths. Mismatch found at index {i}, Expected shape="
                f"{arrays[0].shape} Received shape={array.shape}. Please "
                f"provide a {kind.__name__} of NumPy arrays of the same "
                "length.")


def _samples(dataset, kind):
    """The dataset as a list of samples (batched datasets are unbatched)."""
    if kind in (list, tuple):
        _check_arrays(dataset, kind)
        samples = list(zip(*dataset))
    elif kind is np.ndarray:
        samples = list(dataset)
    elif kind == "torch":
        samples = [dataset[i] for i in range(len(dataset))]
    else:
        if getattr(dataset, "_batch_size", None) is not None:
            dataset = dataset.unbatch()
        samples = list(dataset)
    if not samples:
        raise ValueError(
            "Received an empty dataset. Argument `dataset` must be a "
            "non-empty list/tuple of `numpy.ndarray` objects or a "
            "non-empty `Dataset`.")
    _check_sample_shapes(samples)
    return samples


def _check_sample_shapes(samples):
    first = samples[0]
    if not isinstance(first, np.ndarray):
        return
    for i, sample in enumerate(samples[1:]):
        if np.shape(sample) != first.shape:
            raise ValueError(
                "All `dataset` samples must have same shape, Expected "
                f"shape: {first.shape} Received shape: {np.shape(sample)} "
                f"at index {i}.")


def _to_dataset(samples, original, kind):
    if kind is np.ndarray:
        return Dataset.from_tensor_slices(np.array(samples))
    structure = samples[0]
    columns = [np.array(column) for column in
               zip(*[tree.flatten(s) for s in samples])]
    packed = tree.pack_sequence_as(structure, columns)
    packed = _lists_to_tuples(packed)
    out = Dataset.from_tensor_slices(packed)
    batch_size = getattr(original, "_batch_size", None)
    if kind is Dataset and batch_size is not None:
        out = out.batch(batch_size)
    return out


def _lists_to_tuples(structure):
    if isinstance(structure, (list, tuple)):
        return tuple(_lists_to_tuples(s) for s in structure)
    if isinstance(structure, dict):
        return {k: _lists_to_tuples(v) for k, v in structure.items()}
    return structure


def _split_torch(dataset, kind, left_size, right_size, shuffle, seed):
    import torch  # lazy: optional dependency
    # lazy: optional dependency
    from torch.utils.data import TensorDataset, random_split
    if kind is np.ndarray:
        dataset = TensorDataset(torch.from_numpy(dataset))
    elif kind in (list, tuple):
        _check_arrays(dataset, kind)
        dataset = TensorDataset(*[torch.from_numpy(x) for x in dataset])
    elif kind != "torch":
        columns = zip(*[tree.flatten(s) for s in _samples(dataset, kind)])
        dataset = TensorDataset(*[torch.from_numpy(np.array(c))
                                  for c in columns])
    left, right = _split_sizes(left_size, right_size, len(dataset))
    generator = None
    if shuffle:
        generator = torch.Generator()
        if seed is None:
            generator.seed()
        else:
            generator.manual_seed(seed)
    return tuple(random_split(dataset, [left, right], generator=generator))


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_size(name, size, total):
    if size is None:
        return
    if not _is_number(size):
        raise TypeError(f"Invalid `{name}` Type. Expected: int or float or "
                        f"None, Received: type({name})={type(size)}.")
    integral = isinstance(size, numbers.Integral)
    if integral and not 0 < size < total or \
            not integral and not 0 < size < 1:
        raise ValueError(
            f"`{name}` should be either a positive integer smaller than "
            f"{total}, or a float within the range `[0, 1]`. Received: "
            f"{name}={size}")


def _split_sizes(left_size, right_size, total):
    """Integer `(left, right)` sizes, with Keras's checks and rounding."""
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At "
                         "least one of the split sizes must be non-zero.")
    _check_size("left_size", left_size, total)
    _check_size("right_size", right_size, total)
    floats = [isinstance(s, numbers.Real) and
              not isinstance(s, numbers.Integral)
              for s in (left_size, right_size)]
    if all(floats) and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater "
                         "than 1. It must be less than or equal to 1.")
    left = round(left_size * total) if floats[0] else left_size
    right = round(right_size * total) if floats[1] else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(
            "The sum of `left_size` and `right_size` should be smaller than "
            f"the {total}. Received: left_size + right_size = "
            f"{left + right} and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(
                f"With `dataset` of length={total}, `left_size`={left} and "
                f"`right_size`={right}. Resulting {side} side dataset split "
                "will be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)
