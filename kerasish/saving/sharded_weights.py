"""Sharded weights: `<name>.weights.json` and `<name>_NNNNN.weights.h5`.

Keras 3's layout for weights too big for one file. Each shard is a
`.weights.h5` file holding some of the variables, at their usual paths
(`layers/dense/vars/0`, ...). The JSON file maps every `vars` group to the
shard file(s) holding its variables, and records the total size in bytes:

    {"metadata": {"total_size": 1105232.0},
     "weight_map": {"/layers/dense/vars": ["big_00000.weights.h5"], ...}}

Saving deals the variables into shards in the order they are written,
starting a new shard when the next variable would take the current one
past `max_shard_size` (in GB), as Keras does; the shards are written
first and the JSON file last, each atomically. Loading merges the shards
into one in-memory file and reads it as a `.weights.h5` file.
"""
import io
import json
import os
import warnings

from kerasish.saving import errors
from kerasish.saving.file_utils import atomic_h5, write_bytes
import h5py
from kerasish.saving.saving_lib import write_weights

_SUFFIX = ".weights.json"


def _h5py():
    return h5py


def sharded_path(filepath):
    """`filepath` with Keras's `.json` suffix (with its warning)."""
    root, ext = os.path.splitext(filepath)
    if ext == ".json":
        return filepath
    new_path = root + ".json"
    warnings.warn(
        "Saving sharded weights requires `*.json` as the extension. The "
        f"original path: {filepath} will be renamed to {new_path}.",
        stacklevel=4)
    return new_path


def _base_name(filepath):
    name = os.path.basename(filepath)
    return name[:-len(".json")].replace(".weights", "")


def save(model, filepath, max_shard_size, overwrite=True):
    """Write `model`'s weights as shards of at most `max_shard_size` GB."""
    h5py = _h5py()
    limit = float(max_shard_size) * 1024 ** 3
    buffer = io.BytesIO()
    with h5py.File(buffer, "w", track_order=True) as whole:
        with _tracking_order(h5py):
            write_weights(model, whole)
        shards = _deal(whole, limit)
        folder = os.path.dirname(os.path.abspath(filepath))
        base = _base_name(filepath)
        weight_map, total = {}, 0.0
        for index, datasets in enumerate(shards):
            name = f"{base}_{index:05}.weights.h5"
            with atomic_h5(os.path.join(folder, name),
                           track_order=True) as shard:
                for dataset in datasets:
                    _copy_dataset(whole, dataset, shard)
                    total += dataset.nbytes
                    files = weight_map.setdefault(dataset.parent.name, [])
                    if name not in files:
                        files.append(name)
    text = json.dumps({"metadata": {"total_size": total},
                       "weight_map": weight_map}, indent=4)
    # The index last, once every shard it names is in place.
    write_bytes(filepath, text.encode(), overwrite)


class _tracking_order:
    """Groups made inside remember their creation order (write order)."""

    def __init__(self, h5py):
        self._config = h5py.get_config()

    def __enter__(self):
        self._before = self._config.track_order
        self._config.track_order = True

    def __exit__(self, *exc):
        self._config.track_order = self._before


def _datasets(group):
    """Every dataset under `group`, in the group's iteration order (the
    write order where creation order is tracked)."""
    h5py = _h5py()
    for key in group:
        obj = group[key]
        if isinstance(obj, h5py.Dataset):
            yield obj
        else:
            yield from _datasets(obj)


def _deal(whole, limit):
    """The datasets of `whole`, in write order, split into shards."""
    shards, size = [[]], 0
    for dataset in _datasets(whole):
        nbytes = dataset.nbytes
        if nbytes > limit:
            raise ValueError(
                f"The size of {dataset.name.rsplit('/', 1)[-1]!r} in "
                f"{dataset.parent.name} is {nbytes} bytes, which exceeds the "
                f"maximum shard size ({limit:.0f} bytes). You can increase "
                "the `max_shard_size` parameter to accommodate the size.")
        if size + nbytes > limit and shards[-1]:
            shards.append([])
            size = 0
        shards[-1].append(dataset)
        size += nbytes
    return shards


def _copy_dataset(source, dataset, target):
    """Copy `dataset` to the same path in `target`, with its groups' attrs."""
    group = target
    for part in dataset.parent.name.strip("/").split("/"):
        if not part:
            continue
        if part not in group:
            made = group.create_group(part)
            for key, value in source[made.name].attrs.items():
                made.attrs[key] = value
        group = group[part]
    source.copy(dataset, group, name=dataset.name.rsplit("/", 1)[-1])


def open_merged(filepath):
    """The shards of `filepath` merged into one in-memory HDF5 file."""
    h5py = _h5py()
    if not os.path.exists(filepath):
        raise errors.missing_file(filepath)
    try:
        with open(filepath) as f:
            weight_map = json.load(f)["weight_map"]
    except (ValueError, KeyError, TypeError) as e:
        raise errors.UnreadableFileError(
            f"{filepath!r} is not a sharded weights index (a JSON file "
            f"with a `weight_map`): {e}") from None
    names = []
    for files in weight_map.values():
        for name in [files] if isinstance(files, str) else files:
            if name not in names:
                names.append(name)
    folder = os.path.dirname(os.path.abspath(filepath))
    merged = h5py.File(io.BytesIO(), "w")
    for name in names:
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            merged.close()
            raise errors.missing_file(path)
        with errors.reading(path, "a weights shard"), \
                h5py.File(path, "r") as shard:
            for dataset in _datasets(shard):
                _copy_dataset(shard, dataset, merged)
    return merged
