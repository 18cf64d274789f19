"""Crash-safe writes: write beside the target, then rename into place.

A save interrupted at any point leaves the previous file untouched: the
bytes go to a temporary file in the same folder, which is flushed, synced
and atomically renamed over the target only when complete. A failed or
interrupted save leaves no temporary file behind (a killed process may
leave one `.tmp-*` file, never a damaged target).
"""
import contextlib
import os
import tempfile


def _default_mode():
    # mkstemp creates files readable by the owner only; a saved model
    # should get the permissions any other new file would.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _sync_folder(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without folder handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse it
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(filepath, overwrite=True):
    """Yield a temporary path; on success it replaces `filepath`.

    Args:
        filepath: The final path.
        overwrite: If False and `filepath` exists, raise `FileExistsError`.
    """
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
        os.chmod(tmp, _default_mode())
        os.replace(tmp, filepath)
        _sync_folder(folder)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def ask_to_proceed_with_overwrite(filepath):
    """Ask on the terminal whether to replace `filepath` (Keras's prompt,
    used when saving with `overwrite=False` onto an existing file).

    Returns:
        True to overwrite, False to cancel.
    """
    answer = input(f"[WARNING] {filepath} already exists - overwrite? "
                   "[y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip() \
            .lower()
    if answer == "n":
        return False
    print("[TIP] Next time specify overwrite=True!")
    return True


def may_write(filepath, overwrite):
    """Whether saving to `filepath` goes ahead: always with `overwrite`,
    else when the file is new or the user agrees to replace it."""
    if overwrite or not os.path.exists(filepath):
        return True
    return ask_to_proceed_with_overwrite(filepath)
