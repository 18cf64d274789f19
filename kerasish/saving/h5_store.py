"""The HDF5 weights store: `<path>/vars/<i>` datasets, Keras's layout.

Every read goes through `safe_group` / `safe_dataset`: an HDF5 file can
hold soft or external links, datasets stored in external files and
virtual datasets mapping other files, any of which would make loading a
model read data from elsewhere on disk. Such files are refused.

Every array kerasish writes (`write_array`) carries a CRC-32 of its dtype,
shape and bytes in the dataset attribute `kerasish_crc32`, which Keras
ignores; reading checks it, so a bit flipped in the weights is an error
naming the array, never other weights loaded silently. Files without the
attribute (written by Keras) load as before.
"""
import zlib

import numpy as np
import h5py

from kerasish.saving import limits


def _refuse(path, what):
    raise ValueError(f"Not allowed: the HDF5 file holds {what} at "
                     f"'{path}'. Weights must be stored in the file itself.")


def _child(parent, part, full):
    if part not in parent:
        raise KeyError(full)
    link = parent.get(part, getclass=True, getlink=True)
    if link in (h5py.SoftLink, h5py.ExternalLink):
        _refuse(full, f"a {link.__name__}")
    return parent[part]


def safe_group(parent, path):
    """The group at `path` under `parent`; links are refused."""
    current = parent
    for part in path.split("/"):
        if not part:
            raise ValueError(f"Invalid path in HDF5 file: '{path}'")
        current = _child(current, part, path)
        if not isinstance(current, h5py.Group):
            raise ValueError(f"Invalid HDF5 file: expected a group at "
                             f"'{path}', found {type(current).__name__}.")
    return current


def _checked_dataset(group, path):
    if "/" in path:
        group_path, path = path.rsplit("/", 1)
        group = safe_group(group, group_path)
    dataset = _child(group, path, path)
    if not isinstance(dataset, h5py.Dataset):
        raise ValueError(f"Invalid HDF5 file: expected a dataset at "
                         f"'{path}', found {type(dataset).__name__}.")
    if dataset.external:
        _refuse(path, "a dataset stored in an external file")
    if dataset.is_virtual:
        _refuse(path, "a virtual dataset")
    limits.check_dataset(dataset, path)
    return dataset


CHECKSUM_ATTR = "kerasish_crc32"


def checksum(value):
    """CRC-32 of an array's dtype, shape and bytes; None for arrays of
    strings or objects (whose bytes are not their content)."""
    value = np.ascontiguousarray(value)
    if value.dtype.kind not in "biufc":
        return None
    head = zlib.crc32(f"{value.dtype.str}{value.shape}".encode())
    return zlib.crc32(value.reshape(-1).view(np.uint8), head)


def write_array(group, name, value):
    """Create the dataset `name` holding `value`, with its checksum."""
    value = np.asarray(value)
    dataset = group.create_dataset(name, data=value)
    crc = checksum(value)
    if crc is not None:
        dataset.attrs[CHECKSUM_ATTR] = np.uint32(crc)
    return dataset


def verify(dataset, value):
    """Raise if `value`, read from `dataset`, does not match its stored
    checksum (a file without one is not checked)."""
    if CHECKSUM_ATTR not in dataset.attrs:
        return
    stored = dataset.attrs[CHECKSUM_ATTR]
    if np.shape(stored) != () or checksum(value) != int(stored):
        raise ValueError(
            f"The weights file is corrupted: the array at '{dataset.name}' "
            f"(shape {value.shape}, dtype {value.dtype}) does not match the "
            "checksum stored with it.")


def safe_dataset(group, path):
    """The array stored at `path` under `group` (a numpy copy), checked
    against its checksum."""
    dataset = _checked_dataset(group, path)
    value = np.asarray(dataset)
    verify(dataset, value)
    return value


def safe_shape(group, path):
    """The shape of the array at `path`, without reading it."""
    return tuple(_checked_dataset(group, path).shape)


class H5Store:
    """Read or write `vars` groups in an open `h5py.File`."""

    def __init__(self, h5file, mode):
        self.h5 = h5file
        self.mode = mode

    @staticmethod
    def _key(path):
        return f"{path}/vars" if path else "vars"

    def make(self, path, name=None):
        """The `vars` group of `path` for writing (created)."""
        group = self.h5.require_group(self._key(path))
        if name is not None:
            group.attrs["name"] = name
        return _GroupWriter(group)

    def get(self, path):
        """The `vars` group of `path` for reading (empty if absent)."""
        key = self._key(path)
        if key in self.h5:
            return _GroupReader(safe_group(self.h5, key))
        return _GroupReader(None)

    def has(self, path):
        return self._key(path) in self.h5


class _GroupWriter:
    def __init__(self, group):
        self.group = group

    def __setitem__(self, key, value):
        write_array(self.group, str(key), value)

    # The rest of Keras's store interface, for `save_own_variables`
    # overrides that inspect what they wrote.
    def keys(self):
        return list(self.group.keys())

    def __len__(self):
        return len(self.group)

    def __contains__(self, key):
        return str(key) in self.group


class _GroupReader:
    def __init__(self, group):
        self.group = group

    def keys(self):
        return [] if self.group is None else list(self.group.keys())

    def __len__(self):
        return len(self.keys())

    def __contains__(self, key):
        return str(key) in self.keys()

    def shape(self, key):
        """Shape of a stored array, without reading it."""
        if self.group is None:
            raise KeyError(key)
        return safe_shape(self.group, str(key))

    def __getitem__(self, key):
        if self.group is None:
            raise KeyError(key)
        return safe_dataset(self.group, str(key))
