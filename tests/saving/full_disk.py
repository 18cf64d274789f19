"""A folder whose disk holds only `budget` more bytes, without root.

Every write into the folder, through `os.write` or a Python file object
(`open`, `io.open`: zipfile's, csv's, json's), counts against the budget;
the write that would pass it writes what fits, then raises
`OSError(ENOSPC)`, as a full disk does.
"""
import builtins
import errno
import io
import os


class FullDisk:
    def __init__(self, monkeypatch, folder, budget):
        self.folder = os.path.realpath(os.fspath(folder))
        self.budget = budget
        self._fds = set()
        self._real_open, self._real_os_open = io.open, os.open
        self._real_write = os.write
        monkeypatch.setattr(builtins, "open", self._open)
        monkeypatch.setattr(io, "open", self._open)
        monkeypatch.setattr(os, "open", self._os_open)
        monkeypatch.setattr(os, "write", self._os_write)

    def _inside(self, path):
        if not isinstance(path, (str, bytes, os.PathLike)):
            return False
        path = os.path.realpath(os.fsdecode(path))
        return path == self.folder or path.startswith(self.folder + os.sep)

    def take(self, size):
        """How many of `size` bytes fit; raises ENOSPC if none do."""
        if size and self.budget <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        allowed = min(size, self.budget)
        self.budget -= allowed
        return allowed

    def _open(self, file, mode="r", *args, **kwargs):
        f = self._real_open(file, mode, *args, **kwargs)
        if self._inside(file) and any(c in mode for c in "wax+"):
            self._fds.add(f.fileno())
            return _Limited(f, self)
        return f

    def _os_open(self, path, flags, *args, **kwargs):
        fd = self._real_os_open(path, flags, *args, **kwargs)
        if self._inside(path):
            self._fds.add(fd)
        else:
            self._fds.discard(fd)
        return fd

    def _os_write(self, fd, data):
        if fd not in self._fds:
            return self._real_write(fd, data)
        allowed = self.take(len(data))
        return self._real_write(fd, memoryview(data)[:allowed])


class _Limited:
    """A file object whose writes draw on the disk's budget."""

    def __init__(self, f, disk):
        self._f, self._disk = f, disk

    def write(self, data):
        allowed = self._disk.take(len(data))
        if allowed < len(data):
            self._f.write(data[:allowed])
            self._f.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._f.write(data)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __iter__(self):
        return iter(self._f)

    def __getattr__(self, name):
        return getattr(self._f, name)
