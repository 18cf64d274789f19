"""Files a config names by path (vocabularies), read with care.

A model file can name any path in a layer's or a feature column's config.
While loading in safe mode (the default) such a reference is refused:
a saved model must not read `/etc/passwd` or a secret next to it. Read at
all (`safe_mode=False`, or a layer built by hand), the path must be a
regular file (never `/dev/zero`, a FIFO that would block, or a folder)
of at most `MAX_REFERENCED_FILE_BYTES`. Arrays kept as `.npy` assets are
checked against the bytes actually stored before numpy allocates them.
"""
import io
import math
import os
import stat

import numpy as np

from kerasish.saving import safe_mode

#: Largest vocabulary or asset file read by path: 256 MiB.
MAX_REFERENCED_FILE_BYTES = 256 * 2 ** 20


def refuse_in_safe_mode(what, path):
    """Raise if a loader in safe mode would read `path` outside its file."""
    if safe_mode._current():
        raise ValueError(
            f"Requested the loading of {what} outside of the model archive. "
            "This carries a potential risk of loading arbitrary and "
            "sensitive files and thus it is disallowed by default. If you "
            "trust the source of the artifact, you can override this error "
            "by passing `safe_mode=False` to the loading function, or "
            "calling `kerasish.config.enable_unsafe_deserialization()`. "
            f"Received: path={path!r}")


def _regular_fd(path, what):
    try:
        info = os.stat(path)
    except OSError as e:
        raise ValueError(f"Cannot read {what}: {e.strerror}. Received: "
                         f"path={path!r}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"Cannot read {what}: expected a regular file, "
                         "not a device, FIFO, socket or folder. Received: "
                         f"path={path!r}")
    # O_NONBLOCK: should the path become a FIFO after the check above,
    # opening it must not wait for a writer.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError(f"Cannot read {what}: expected a regular file. "
                         f"Received: path={path!r}")
    return fd


def read_bytes(path, what, max_bytes=MAX_REFERENCED_FILE_BYTES):
    """The content of the regular file `path`, at most `max_bytes` long.

    Args:
        path: The file's path.
        what: What the file is, for errors (`"the vocabulary file"`).
        max_bytes: Largest size accepted. Defaults to
            `MAX_REFERENCED_FILE_BYTES` (256 MiB).

    Returns:
        The file's bytes.

    Example:

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("a\\nb\\n")
    >>> read_bytes(path, "the vocabulary file")
    b'a\\nb\\n'
    >>> try:
    ...     read_bytes("/dev/zero", "the vocabulary file")
    ... except ValueError as error:
    ...     print(str(error)[:50])
    Cannot read the vocabulary file: expected a regula
    """
    fd = _regular_fd(os.fspath(path), what)
    with os.fdopen(fd, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ValueError(f"Cannot read {what}: it is larger than the "
                         f"{max_bytes} bytes allowed. Received: "
                         f"path={path!r}")
    return data


def read_text(path, what, max_bytes=MAX_REFERENCED_FILE_BYTES):
    """`read_bytes` decoded as UTF-8, with a clear error if it is not."""
    try:
        return read_bytes(path, what, max_bytes).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"Cannot read {what}: not UTF-8 text ({e}). "
                         f"Received: path={path!r}") from None


def load_npy(path, what):
    """The array of a `.npy` file whose header matches its stored bytes
    (a header declaring 10**10 elements in a small file is refused before
    numpy allocates them); pickled objects are refused."""
    data = read_bytes(path, what)
    stream = io.BytesIO(data)
    npy = np.lib.format
    try:
        version = npy.read_magic(stream)
        header = (npy.read_array_header_1_0 if version == (1, 0)
                  else npy.read_array_header_2_0)
        shape, _, dtype = header(stream)
    except (ValueError, OSError, EOFError) as e:
        raise ValueError(f"Cannot read {what}: not a .npy array ({e}). "
                         f"Received: path={path!r}") from None
    count = math.prod(shape)
    if dtype.hasobject or count * dtype.itemsize != len(data) - \
            stream.tell():
        raise ValueError(
            f"Cannot read {what}: its header declares shape {shape} of "
            f"{dtype}, which does not match the {len(data) - stream.tell()} "
            f"bytes stored. Received: path={path!r}")
    stream.seek(0)
    return np.load(stream, allow_pickle=False)
