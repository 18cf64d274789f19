"""Crash-safe writes: write beside the target, then rename into place.

A save interrupted at any point leaves the previous file untouched: the
bytes go to a temporary file in the same folder, which is flushed, synced
and atomically renamed over the target only when complete. A failed save
(a full disk included) raises an `OSError` and leaves no temporary file
behind. A killed process may leave one; its name records the host and the
process id (`.tmp-<name>.<host>-<pid>-<token>`), so the next save into the
folder removes the temporaries of writers that are no longer running.

HDF5 files are built in memory (h5py's `core` driver) and written with
ordinary file I/O: HDF5's own writes on a full disk can crash the process
in `File.close`, Python's raise `OSError`.
"""
import contextlib
import ctypes
import errno
import hashlib
import itertools
import os
import re
import secrets
import shutil
import socket
import sys
import threading

_HOST = hashlib.sha1(socket.gethostname().encode()).hexdigest()[:6]
_TEMP = re.compile(r"^\.(?:tmp|old)-(.*)\.([0-9a-f]{6})-(\d+)-[0-9a-f]{8}$")
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
_live = set()  # temporaries this process is writing now
_lock = threading.Lock()
_memory_names = itertools.count()


def sync_folder(folder):
    """Make the renames in `folder` durable (where the system can)."""
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


def temporary_name(filepath, kind="tmp"):
    """A fresh hidden name beside `filepath` for a temporary of this
    process (`.tmp-<name>.<host>-<pid>-<token>`), registered as live
    until `release` so no cleanup of this process removes it."""
    folder, base = os.path.split(os.path.abspath(os.fspath(filepath)))
    base = short_name(base)
    name = os.path.join(folder, f".{kind}-{base}.{_HOST}-{os.getpid()}-"
                                f"{secrets.token_hex(4)}")
    with _lock:
        _live.add(name)
    return name


def short_name(base):
    """`base` cut to fit in a temporary's name (see `temporary_name`)."""
    # File names are limited to 255 bytes; the suffix takes about 30.
    return base.encode()[:200].decode(errors="ignore")


def release(name):
    """Forget a temporary name (after it was renamed or removed)."""
    with _lock:
        _live.discard(name)


def temporary_target(name):
    """The (possibly shortened) target name a temporary was made for, or
    None if `name` is not one of `temporary_name`'s."""
    match = _TEMP.match(name)
    return None if match is None else match.group(1)


def is_stale(folder, name):
    """Whether `name` in `folder` is a temporary of a writer that is gone
    (from this host; or of this process, but no longer in use)."""
    match = _TEMP.match(name)
    if match is None or match.group(2) != _HOST:
        return False   # another program's file, or another machine's
    pid = int(match.group(3))
    if pid == os.getpid():
        with _lock:
            return os.path.join(folder, name) not in _live
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:    # alive, owned by another user
        return False
    return False


def clean_stale_temporaries(folder):
    """Remove the temporaries that killed writers left in `folder`.

    Only names of the form `temporary_name` gives, from this host, whose
    process is gone (or is this process but no longer writing them); an
    `.old-` previous version only once its target is back in place.

    Returns:
        The names removed.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        if not is_stale(folder, name):
            continue
        if name.startswith(".old-") and not os.path.lexists(
                os.path.join(folder, temporary_target(name))):
            continue   # a previous version whose target is missing: kept
        path = os.path.join(folder, name)
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        except OSError:   # removed meanwhile, or not ours to remove
            continue
        removed.append(name)
    return removed


def full_disk_error(error, filepath, kept=None):
    """A clear `OSError` for a write to `filepath` that ran out of space
    (other errors are returned unchanged); `kept` says what is left."""
    if not isinstance(error, OSError) or error.errno not in _FULL:
        return error
    kept = kept or ("The previous file, if any, is unchanged and no "
                    "temporary file was left.")
    return OSError(error.errno,
                   f"{os.strerror(error.errno)}: could not write "
                   f"{os.fspath(filepath)!r}. {kept}")


def _check_target(filepath, overwrite):
    if os.path.isdir(filepath):
        raise IsADirectoryError(
            f"Cannot save to {filepath!r}: it is an existing directory.")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(
            f"{filepath!r} already exists and overwrite=False.")


@contextlib.contextmanager
def atomic_path(filepath, overwrite=True):
    """Yield a temporary path; on success it replaces `filepath`.

    Args:
        filepath: The final path.
        overwrite: If False and `filepath` exists, raise `FileExistsError`.
            Defaults to True.

    Example:

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
    >>> with atomic_path(path) as tmp:
    ...     with open(tmp, "w") as f:
    ...         _ = f.write("done")
    >>> os.listdir(os.path.dirname(path))
    ['notes.txt']
    """
    filepath = os.fspath(filepath)
    _check_target(filepath, overwrite)
    folder = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(folder, exist_ok=True)
    clean_stale_temporaries(folder)
    tmp = temporary_name(filepath)
    try:
        # Created through the umask, as any other new file would be.
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, filepath)
        sync_folder(folder)
    except OSError as e:
        error = full_disk_error(e, filepath)
        if error is e:
            raise
        raise error from e
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
        release(tmp)


def write_bytes(filepath, data, overwrite=True):
    """Atomically replace `filepath` by `data` (see `atomic_path`).

    Example:

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "blob.bin")
    >>> write_bytes(path, b"abc")
    >>> os.path.getsize(path)
    3
    """
    with atomic_path(filepath, overwrite) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)


def write_all(fd, data):
    """Write all of `data` to the file descriptor `fd` (`os.write` may
    write part of it, e.g. when the disk fills up)."""
    view = memoryview(data).cast("B")
    while view:
        written = os.write(fd, view)
        if written <= 0:   # never loop on a file that takes nothing
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def memory_h5(**kwargs):
    """A new, empty `h5py.File` held in memory (keyword arguments go to
    `h5py.File`); `h5_image` gives its bytes."""
    import h5py  # lazy: kept out of `import kerasish`
    # The core driver without backing store never touches the disk; the
    # name only has to be unique among the files open in this process.
    name = f"kerasish-memory-{os.getpid()}-{next(_memory_names)}.h5"
    return h5py.File(name, "w", driver="core", backing_store=False,
                     **kwargs)


def h5_image(f):
    """Close the in-memory file `f` and return its bytes."""
    try:
        f.flush()
        return f.id.get_file_image()
    finally:
        f.close()


@contextlib.contextmanager
def atomic_h5(filepath, overwrite=True, **kwargs):
    """Yield a new `h5py.File`; on success it atomically replaces
    `filepath` (built in memory, written with Python's file I/O).

    Args:
        filepath: The final path.
        overwrite: If False and `filepath` exists, raise `FileExistsError`.
            Defaults to True.
        **kwargs: Passed to `h5py.File` (e.g. `track_order=True`).

    Example:

    >>> import os, tempfile, h5py
    >>> path = os.path.join(tempfile.mkdtemp(), "w.h5")
    >>> with atomic_h5(path) as f:
    ...     _ = f.create_dataset("x", data=[1, 2])
    >>> with h5py.File(path, "r") as f:
    ...     f["x"][()].tolist()
    [1, 2]
    """
    filepath = os.fspath(filepath)
    _check_target(filepath, overwrite)
    f = memory_h5(**kwargs)
    try:
        yield f
    except BaseException:
        f.close()
        raise
    write_bytes(filepath, h5_image(f), overwrite)


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


_RENAME_EXCHANGE = 2   # Linux's renameat2 flag; macOS's RENAME_SWAP too
_AT_FDCWD = -100
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EXDEV,
                getattr(errno, "ENOTSUP", errno.EINVAL),
                getattr(errno, "EOPNOTSUPP", errno.EINVAL)}


def _swap_function():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - no C library to ask
        return None
    if sys.platform.startswith("linux"):
        swap = getattr(libc, "renameat2", None)
        if swap is None:   # pragma: no cover - glibc < 2.28, musl
            return None
        swap.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                         ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: swap(_AT_FDCWD, a, _AT_FDCWD, b,
                                 _RENAME_EXCHANGE)
    swap = getattr(libc, "renamex_np", None)   # macOS
    if swap is None:   # pragma: no cover - other systems
        return None
    swap.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
    return lambda a, b: swap(a, b, _RENAME_EXCHANGE)


def exchange_paths(path_a, path_b):
    """Swap two existing paths in one atomic step, where the system can
    (Linux's `renameat2`, macOS's `renamex_np`).

    Returns:
        True if swapped, False if this system or file system cannot (then
        nothing changed).

    Example:

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in "ab":
    ...     os.mkdir(os.path.join(folder, name))
    >>> exchange_paths(os.path.join(folder, "a"),
    ...                os.path.join(folder, "b")) in (True, False)
    True
    """
    swap = _swap_function()
    if swap is None:
        return False
    if swap(os.fsencode(path_a), os.fsencode(path_b)) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), os.fspath(path_b))


def append_bytes(file, data, filepath):
    """Append `data` to the open binary `file` whole or not at all: if
    the write fails (a full disk), the file is cut back to its previous
    size and a clear `OSError` raised.

    Example:

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "log.txt")
    >>> with open(path, "ab", buffering=0) as f:
    ...     append_bytes(f, b"row 1\\n", path)
    >>> os.path.getsize(path)
    6
    """
    fd = file.fileno()
    size = os.fstat(fd).st_size
    try:
        write_all(fd, data)
    except OSError as e:
        try:
            os.ftruncate(fd, size)
        except OSError:  # pragma: no cover - then the size was not changed
            pass
        error = full_disk_error(e, filepath, "The file is cut back to "
                                "what it held before this write.")
        if error is e:
            raise
        raise error from e
