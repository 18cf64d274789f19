"""`text_dataset_from_directory`: a labelled text `Dataset` from folders.

Texts are numpy unicode strings (kerasish's "string" tensors, which its
text layers take), read as UTF-8 with line endings kept as they are in the
file, as `tf.io.read_file` does.
"""
import numpy as np

from kerasish.utils import directory_utils


def text_dataset_from_directory(
        directory, labels="inferred", label_mode="int", class_names=None,
        batch_size=32, max_length=None, shuffle=True, seed=None,
        validation_split=None, subset=None, follow_links=False, format="tf",
        verbose=True):
    """Generates a `Dataset` from text files in a directory.

    With `main_directory/class_a/*.txt` and `main_directory/class_b/*.txt`,
    `text_dataset_from_directory(main_directory)` yields batches of texts
    with labels 0 (`class_a`) and 1 (`class_b`). Only `.txt` files are read.

    Args:
        directory: Folder of the data. With `labels="inferred"`, it holds
            one subfolder of text files per class; otherwise its structure
            is ignored.
        labels: `"inferred"` (from the subfolder names, the default),
            `None` (no labels), or a list/tuple of integer labels, one per
            text file, in the alphanumeric order of the file paths.
        label_mode: `"int"` (int32 labels, the default), `"categorical"`
            (one-hot float32 vectors), `"binary"` (float32 0/1 of shape
            `(batch_size, 1)`, for exactly 2 classes) or `None` (no labels).
        class_names: With `labels="inferred"`, the explicit list (and order)
            of the class subfolders to use. Defaults to all, sorted.
        batch_size: Size of the batches. Defaults to 32. `None` yields
            single texts.
        max_length: Maximum length of a text string (in characters); longer
            texts are truncated. Defaults to `None` (no limit).
        shuffle: Whether to shuffle the data. Defaults to `True`; `False`
            keeps the alphanumeric order.
        seed: Optional random seed for shuffling.
        validation_split: Optional float between 0 and 1, the fraction of
            the data reserved for validation.
        subset: `"training"`, `"validation"` or `"both"` (returns the two
            datasets). Only used with `validation_split`.
        follow_links: Whether to visit subfolders pointed to by symlinks.
            Defaults to `False`.
        format: Accepted for compatibility: `"tf"` (default) or `"grain"`;
            both give a `kerasish.data.Dataset`.
        verbose: Whether to print the number of files and classes found.
            Defaults to `True`.

    Returns:
        A `kerasish.data.Dataset` yielding string arrays of shape
        `(batch_size,)`, paired with labels unless `label_mode` is `None`;
        with `subset="both"`, a `(train, validation)` pair. The datasets
        carry a `class_names` attribute.

    Example:

    >>> import os
    >>> for name, text in [("neg", "dull"), ("pos", "great"),
    ...                    ("pos", "superb")]:
    ...     os.makedirs(f"reviews/{name}", exist_ok=True)
    ...     with open(f"reviews/{name}/{text}.txt", "w") as f:
    ...         _ = f.write(f"A {text} film.")
    >>> ds = text_dataset_from_directory("reviews", shuffle=False)
    Found 3 files belonging to 2 classes.
    >>> texts, labels = next(iter(ds))
    >>> texts.tolist(), labels.tolist()
    (['A dull film.', 'A great film.', 'A superb film.'], [0, 1, 1])
    """
    directory_utils.check_labels_args(labels, label_mode, class_names, "text")
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")
    _check_max_length(max_length)
    if labels is None or label_mode is None:
        labels = label_mode = None
    directory_utils.check_validation_split_arg(validation_split, subset,
                                             shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = directory_utils.index_directory(
        directory, labels, formats=(".txt",), class_names=class_names,
        shuffle=shuffle, seed=seed, follow_links=follow_links,
        verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be '
                         "exactly 2 class_names. Received: "
                         f"class_names={class_names}")

    def make(split_paths, split_labels, shuffled):
        ds = directory_utils.folder_dataset(
            split_paths, split_labels, label_mode,
            len(class_names) if class_names else 0,
            lambda path: read_text(path, max_length), shuffle=shuffled,
            shuffle_buffer_size=batch_size * 8 if batch_size else 1024,
            seed=seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(2)
        ds.class_names = class_names
        return ds

    return directory_utils.folder_splits(
        paths, labels, validation_split, subset, shuffle, make,
        f"text files found in directory {directory}. Allowed format: .txt")


def _check_max_length(max_length):
    if max_length is not None and (not isinstance(max_length, int) or
                                   max_length < 0):
        raise ValueError("`max_length` must be a non-negative int or None. "
                         f"Received: max_length={max_length!r}")


def read_text(path, max_length=None):
    """The text of a file (UTF-8, newlines untouched), optionally cut to
    `max_length` characters."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    return text if max_length is None else text[:max_length]
