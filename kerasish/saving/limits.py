"""Bounds on the work loading a file may cause, checked before it is done.

A file states sizes that cost memory, disk and time before anything else
checks them: the members of a zip and their uncompressed sizes, the
nesting of its JSON, the shape of an HDF5 dataset (which can be declared
without storing its data). Each is checked against a bound first, and a
file beyond one is refused with an error naming the file and the member:

- a `.keras` zip holds at most `MAX_ZIP_MEMBERS` members, each name once;
- a member over `SMALL_BYTES` is at most `MAX_COMPRESSION_RATIO` times
  its compressed size, and all members together at most that ratio times
  the archive (or `SMALL_BYTES` times the member bound, if larger);
- `config.json` and `metadata.json` are at most `MAX_CONFIG_BYTES`, an
  asset at most `file_refs.MAX_REFERENCED_FILE_BYTES`;
- JSON nests at most `MAX_JSON_DEPTH` levels;
- an HDF5 dataset read is at most `MAX_COMPRESSION_RATIO` times the bytes
  the file stores for it (or `SMALL_BYTES`);
- the variables a config creates are bounded by the file's weight bytes
  (`kerasish.backend.common.load_budget`).

Keras and kerasish store members uncompressed, so real files are far
from every bound.
"""
import collections
import json
import mmap
import os

from kerasish.saving.file_refs import MAX_REFERENCED_FILE_BYTES

MAX_ZIP_MEMBERS = 10_000
MAX_COMPRESSION_RATIO = 100
SMALL_BYTES = 2 ** 20
MAX_CONFIG_BYTES = 64 * 2 ** 20
MAX_JSON_DEPTH = 100


def check_zip(zf, filepath):
    """Refuse a zip beyond the member, size and ratio bounds, or with a
    member name twice (zipfile would silently read only one of them)."""
    infos = zf.infolist()
    if len(infos) > MAX_ZIP_MEMBERS:
        raise ValueError(
            f"{filepath!r} holds {len(infos)} members, more than the "
            f"{MAX_ZIP_MEMBERS} a model file may hold. The file is refused.")
    counts = collections.Counter(info.filename for info in infos)
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        raise ValueError(
            f"{filepath!r} holds the member {twice[0]!r} {counts[twice[0]]} "
            "times; a model file names each member once. The file is "
            "refused.")
    for info in infos:
        _check_member(info, filepath)
    total = sum(info.file_size for info in infos)
    archive = os.path.getsize(filepath) if isinstance(
        filepath, (str, os.PathLike)) else 0
    limit = max(MAX_COMPRESSION_RATIO * archive, SMALL_BYTES * 64)
    if total > limit:
        raise ValueError(
            f"{filepath!r} declares {total} uncompressed bytes, more than "
            f"{MAX_COMPRESSION_RATIO} times its size. The file is refused.")


def _check_member(info, filepath):
    size, packed = info.file_size, info.compress_size
    if size > SMALL_BYTES and size > MAX_COMPRESSION_RATIO * max(packed, 1):
        raise ValueError(
            f"{filepath!r}: member {info.filename!r} declares {size} bytes "
            f"from {packed} compressed, a ratio over "
            f"{MAX_COMPRESSION_RATIO}. The file is refused.")
    bound = member_bound(info.filename)
    if bound is not None and size > bound:
        raise ValueError(
            f"{filepath!r}: member {info.filename!r} declares {size} bytes, "
            f"more than the {bound} allowed for it. The file is refused.")


def member_bound(name):
    """Largest size of the zip member `name`; None: the ratio bound only."""
    if name in ("config.json", "metadata.json"):
        return MAX_CONFIG_BYTES
    if name.startswith("assets/"):
        return MAX_REFERENCED_FILE_BYTES
    return None


def loads(text, filepath, what):
    """`json.loads(text)`, refusing JSON nested over `MAX_JSON_DEPTH`, so
    a deeply nested file fails with a clear error, not a `RecursionError`
    of the parser or of the deserializer walking the result."""
    try:
        value = json.loads(text)
    except RecursionError:
        value, depth = None, f"over {MAX_JSON_DEPTH}"
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(
            f"{filepath!r}: {what} is not valid JSON ({e}).") from None
    else:
        depth = json_depth(value)
    if value is None or depth > MAX_JSON_DEPTH:
        raise ValueError(
            f"{filepath!r}: {what} nests {depth} levels deep; at most "
            f"{MAX_JSON_DEPTH} are allowed. The file is refused.")
    return value


def json_depth(value):
    """The deepest nesting of lists and dicts in a JSON value.

    Example:

    >>> json_depth({"a": [1, {"b": "[[["}]})
    3
    """
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in item
                     if isinstance(child, (dict, list)))
    return deepest


def check_dataset(dataset, path):
    """Refuse reading an HDF5 dataset whose declared size is far beyond
    the bytes the file stores for it (a 60000x60000 slot declared in a
    tiny file: HDF5 would fill it with zeros in memory)."""
    nbytes = dataset.size * dataset.dtype.itemsize
    if nbytes <= SMALL_BYTES:
        return
    stored = dataset.id.get_storage_size()
    if nbytes > MAX_COMPRESSION_RATIO * stored:
        raise ValueError(
            f"Invalid HDF5 file: the dataset at '{path}' declares shape "
            f"{dataset.shape} ({nbytes} bytes) but the file stores "
            f"{stored} bytes for it. The file is refused.")


def check_hdf5_heaps(data, filepath):
    """Refuse an HDF5 file whose global heap would make libhdf5 loop.

    Variable-length strings (the attributes of Keras's files) live in
    global heap collections (`GCOL`). libhdf5 walks a collection object by
    object and never advances past a free-space object of size 0, so a
    zeroed run there hangs the reader forever. Every collection is walked
    here first, the same way, in bounded steps.

    Args:
        data: The file's bytes (or a buffer over them, e.g. an mmap).
        filepath: The file's name, for the error.
    """
    at = data.find(b"GCOL")
    while at != -1:
        _walk_collection(data, at, filepath)
        at = data.find(b"GCOL", at + 4)


def _walk_collection(data, start, filepath):
    size = int.from_bytes(data[start + 8:start + 16], "little")
    end = min(start + size, len(data))
    at = start + 16
    while at + 16 <= end:
        index = int.from_bytes(data[at:at + 2], "little")
        length = int.from_bytes(data[at + 8:at + 16], "little")
        step = 16 + -(-length // 8) * 8 if index else length
        if step == 0:
            raise ValueError(
                f"{filepath!r} is corrupted: the HDF5 global heap at byte "
                f"{start} holds an empty free-space record at byte {at}, "
                "which would make the HDF5 library loop forever.")
        at += step


def check_hdf5_file(filepath):
    """`check_hdf5_heaps` on the file at `filepath` (mapped, not read)."""
    with open(filepath, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            check_hdf5_heaps(data, filepath)
