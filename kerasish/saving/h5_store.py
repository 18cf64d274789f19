"""The HDF5 weights store: `<path>/vars/<i>` datasets, Keras's layout."""
import numpy as np


class H5Store:
    """Read or write `vars` groups in an open `h5py.File`."""

    def __init__(self, h5file, mode):
        self.h5 = h5file
        self.mode = mode

    def make(self, path, name=None):
        """The `vars` group of `path` for writing (created)."""
        group = self.h5.require_group(f"{path}/vars" if path else "vars")
        if name is not None:
            group.attrs["name"] = name
        return _GroupWriter(group)

    def get(self, path):
        """The `vars` group of `path` for reading (empty if absent)."""
        key = f"{path}/vars" if path else "vars"
        if key in self.h5:
            return _GroupReader(self.h5[key])
        return _GroupReader(None)

    def has(self, path):
        return (f"{path}/vars" if path else "vars") in self.h5


class _GroupWriter:
    def __init__(self, group):
        self.group = group

    def __setitem__(self, key, value):
        value = np.asarray(value)
        self.group.create_dataset(str(key), data=value)


class _GroupReader:
    def __init__(self, group):
        self.group = group

    def keys(self):
        return [] if self.group is None else list(self.group.keys())

    def __len__(self):
        return len(self.keys())

    def __getitem__(self, key):
        if self.group is None:
            raise KeyError(key)
        return np.asarray(self.group[str(key)])
