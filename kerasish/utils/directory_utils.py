"""The machinery shared by the `*_dataset_from_directory` utilities:
indexing a folder tree, the validation split, label encoding, and the
per-file `Dataset`.

Folder datasets follow Keras exactly up to the pipeline: the same files in
the same order (class folders sorted, or in `class_names` order; files
sorted within each folder), the same global shuffle
(`np.random.RandomState(seed)` over the file list), hence the same
training/validation membership for a given seed. The per-epoch shuffle
buffer then draws with kerasish's own generator (tf.data's cannot be
reproduced without TensorFlow).
"""
import os

import numpy as np

from kerasish.backend.common.global_state import print_msg
from kerasish.data import Dataset

LABEL_MODES = ("int", "categorical", "binary", None)


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
