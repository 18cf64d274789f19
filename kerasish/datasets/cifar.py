"""Readers of Keras's pickled dataset files, with a restricted unpickler.

CIFAR batches are Python pickles, and the imdb/reuters `.npz` files hold
object arrays (pickled lists of word indices). Unpickling runs code named
by the file, so only the numpy array-rebuilding functions are allowed: a
tampered download cannot execute anything.
"""
import io
import pickle
import zipfile

import numpy as np

_ALLOWED_GLOBALS = frozenset({
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct")})


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that rebuilds numpy arrays and plain Python values only.
    """

    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"Refusing to deserialize `{module}.{name}` while loading a "
            "Keras dataset. The file may be corrupted or malicious.")


def _read_npy(buffer):
    try:
        return np.lib.format.read_array(buffer, allow_pickle=False)
    except ValueError:
        # An object array: its payload is a pickle after the header.
        buffer.seek(0)
        major, _ = np.lib.format.read_magic(buffer)
        if major == 1:
            np.lib.format.read_array_header_1_0(buffer)
        elif major in (2, 3):
            np.lib.format.read_array_header_2_0(buffer)
        else:
            raise ValueError(f"Unsupported `.npy` file version: {major}.")
        return RestrictedUnpickler(buffer).load()


def load_npz(path):
    """The arrays of an `.npz` file as a dict; object arrays are unpickled
    with `RestrictedUnpickler`."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if member.endswith(".npy"):
                with archive.open(member) as raw:
                    arrays[member[:-4]] = _read_npy(io.BytesIO(raw.read()))
    return arrays


def load_batch(fpath, label_key="labels"):
    """Parses a CIFAR batch file (a pickled dict).

    Args:
        fpath: Path to the batch file.
        label_key: Key of the labels in the dict. Defaults to `"labels"`.

    Returns:
        `(data, labels)`: uint8 images of shape `(n, 3, 32, 32)` and the
        list of labels.
    """
    with open(fpath, "rb") as f:
        batch = RestrictedUnpickler(f, encoding="bytes").load()
    batch = {k.decode("utf8") if isinstance(k, bytes) else k: v
             for k, v in batch.items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]
