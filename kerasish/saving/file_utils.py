"""Crash-safe writes: write beside the target, then rename into place.

A save interrupted at any point leaves the previous file untouched: the
bytes go to a temporary file in the same folder, which is flushed, synced
and atomically renamed over the target only when complete.
"""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def atomic_path(filepath, overwrite=True):
    """Yield a temporary path; on success it replaces `filepath`."""
    filepath = os.fspath(filepath)
    if os.path.isdir(filepath):
        raise IsADirectoryError(
            f"Cannot save to {filepath!r}: it is an existing directory.")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(
            f"{filepath!r} already exists and overwrite=False.")
    folder = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(filepath),
                               dir=folder)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, filepath)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
