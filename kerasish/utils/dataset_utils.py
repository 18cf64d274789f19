"""`split_dataset`, and the machinery shared by the `*_dataset_from_directory`
utilities: indexing a folder tree, the validation split, label encoding.

Folder datasets follow Keras exactly up to the pipeline: the same files in
the same order (class folders sorted, or in `class_names` order; files
sorted within each folder), the same global shuffle
(`np.random.RandomState(seed)` over the file list), hence the same
training/validation membership for a given seed. The per-epoch shuffle
buffer then draws with kerasish's own generator (tf.data's cannot be
reproduced without TensorFlow).
"""
import numbers
import os
import random

import numpy as np

from kerasish import tree
from kerasish.utils.config_utils import print_msg

LABEL_MODES = ("int", "categorical", "binary", None)


# -- split_dataset --------------------------------------------------------------
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
    from kerasish.data import Dataset
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
    from kerasish.data import Dataset
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
    import torch
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


# -- folder datasets -------------------------------------------------------------
def check_labels_args(labels, label_mode, class_names, what):
    """Keras's checks of `labels`/`label_mode`/`class_names`; `what` names
    the files ("image", "text", "audio")."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                "`labels` argument should be a list/tuple of integer labels, "
                f"of the same size as the number of {what} files in the "
                "target directory. If you wish to infer the labels from the "
                "subdirectory names in the target directory, pass "
                '`labels="inferred"`. If you wish to get a dataset that only '
                f"contains {what} samples (no labels), pass `labels=None`. "
                f"Received: labels={labels}")
        if class_names:
            raise ValueError(
                'You can only pass `class_names` if `labels="inferred"`. '
                f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in LABEL_MODES:
        raise ValueError(
            '`label_mode` argument must be one of "int", "categorical", '
            f'"binary", or None. Received: label_mode={label_mode}')


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    """Raise errors in case of invalid validation-split arguments."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, "
                         f"received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be "
                         "set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be either "training", "validation" '
                         f'or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError(
            "If using `validation_split` and shuffling the data, you must "
            "provide a `seed` argument, to make sure that there is no "
            "overlap between the training and validation subset.")


def _class_folders(directory, class_names):
    folders = sorted(name for name in os.listdir(directory)
                     if os.path.isdir(os.path.join(directory, name))
                     and not name.startswith("."))
    if class_names is None:
        return folders
    if not set(class_names).issubset(folders):
        raise ValueError(
            "The `class_names` passed did not match the names of the "
            "subdirectories of the target directory. Expected: "
            f"{folders} (or a subset of it), but received: "
            f"class_names={class_names}")
    return list(class_names)


def _files_in(folder, follow_links, formats):
    """Relative paths (prefixed by the folder's name) of the allowed files
    under `folder`, walked in sorted order."""
    name = os.path.basename(folder)
    found = []
    walk = sorted(os.walk(folder, followlinks=follow_links),
                  key=lambda entry: entry[0])
    for root, _, files in walk:
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                found.append(os.path.join(name, os.path.relpath(
                    os.path.join(root, fname), folder)))
    return found


def _check_directory(directory):
    if not os.path.isdir(directory):
        raise ValueError(f"`directory` must be an existing folder. Received: "
                         f"directory={directory!r}")


def index_directory(directory, labels, formats, class_names=None,
                    shuffle=True, seed=None, follow_links=False,
                    verbose=True):
    """All allowed files under `directory`, with their labels.

    Returns:
        `(file_paths, labels, class_names)`: paths joined to `directory`;
        int32 labels (`None` without labels); the class names in label
        order (`None` without labels).
    """
    directory = os.fspath(directory)
    _check_directory(directory)
    if labels == "inferred":
        folders = _class_folders(directory, class_names)
    elif class_names is not None:
        raise ValueError(
            "When `labels=None` (no labels), argument `class_names` cannot "
            "be specified." if labels is None else
            "When argument `labels` is specified, argument `class_names` "
            "cannot be specified (the `class_names` will be the sorted list "
            "of labels).")
    else:
        folders = [""]
    filenames, label_list = [], []
    for index, folder in enumerate(folders):
        files = _files_in(os.path.join(directory, folder), follow_links,
                          formats)
        filenames += files
        label_list += [index] * len(files)
    labels, class_names = _resolve_labels(labels, label_list, folders,
                                          filenames, directory)
    if verbose:
        print_msg(f"Found {len(filenames)} files." if labels is None else
                  f"Found {len(filenames)} files belonging to "
                  f"{len(class_names)} classes.")
    paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        # Keras shuffles paths and labels with two generators of one seed:
        # the same permutation.
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def _resolve_labels(labels, inferred, folders, filenames, directory):
    if labels == "inferred":
        return np.array(inferred, dtype="int32"), folders
    if labels is None:
        return None, None
    if len(labels) != len(filenames):
        raise ValueError(
            "Expected the lengths of `labels` to match the number of files "
            f"in the target directory. len(labels) is {len(labels)} while "
            f"we found {len(filenames)} files in directory {directory}.")
    labels = np.array(labels)
    return labels, [str(label) for label in sorted(set(labels.tolist()))]


def get_training_or_validation_split(samples, labels, validation_split,
                                     subset):
    """`samples`/`labels` restricted to the training or validation part
    (the last `int(validation_split * n)` samples are for validation)."""
    if not validation_split:
        return samples, labels
    num_val = int(validation_split * len(samples))
    if subset == "training":
        print_msg(f"Using {len(samples) - num_val} files for training.")
        keep = slice(None, -num_val)
    elif subset == "validation":
        print_msg(f"Using {num_val} files for validation.")
        keep = slice(-num_val, None)
    else:
        raise ValueError('`subset` must be either "training" or '
                         f'"validation", received: {subset}')
    return samples[keep], None if labels is None else labels[keep]


def encode_labels(labels, label_mode, num_classes):
    """Labels as Keras's datasets yield them: int32 for "int", float32
    `(n, 1)` for "binary", one-hot float32 for "categorical" (labels
    outside `[0, num_classes)` give all-zero rows, as `tf.one_hot`)."""
    labels = np.asarray(labels)
    if label_mode == "binary":
        return labels.astype("float32")[:, None]
    if label_mode == "categorical":
        return (labels[:, None] == np.arange(num_classes)).astype("float32")
    return labels.astype("int32")


def folder_dataset(paths, labels, label_mode, num_classes, load,
                   shuffle=False, shuffle_buffer_size=None, seed=None):
    """Unbatched `Dataset` of `load(path)` (with encoded labels)."""
    from kerasish.data import Dataset
    paths = np.array(paths, dtype=str)
    if label_mode:
        ds = Dataset.from_tensor_slices(
            (paths, encode_labels(labels, label_mode, num_classes)))
    else:
        ds = Dataset.from_tensor_slices(paths)
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        return ds.map(lambda path, label: (load(str(path)), label))
    return ds.map(lambda path: load(str(path)))


def folder_splits(paths, labels, validation_split, subset, shuffle, make,
                  not_found):
    """`make(paths, labels, shuffle)` on the requested subset (a pair of
    datasets for `subset="both"`; the validation one is not shuffled).
    `not_found` completes the "No ... found" error of an empty subset."""
    def part(name):
        part_paths, part_labels = get_training_or_validation_split(
            paths, labels, validation_split, name)
        return part_paths, part_labels

    def check(part_paths, name):
        if not part_paths:
            kind = f"{name} " if name in ("training", "validation") else ""
            raise ValueError(f"No {kind}{not_found}")

    if subset == "both":
        train, val = part("training"), part("validation")
        check(train[0], "training")
        check(val[0], "validation")
        return make(*train, shuffle), make(*val, False)
    split = part(subset)
    check(split[0], subset)
    return make(*split, shuffle)
