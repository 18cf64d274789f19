"""Build hostile variants of saved files in a test (no payload on disk)."""
import io
import json
import zipfile

import h5py


def rewrite_keras(path, out, config=None, members=None):
    """Copy the .keras zip `path` to `out`, with `config(dict) -> dict`
    applied to config.json and `members` ({name: bytes}) replaced/added."""
    members = dict(members or {})
    with zipfile.ZipFile(path) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "config.json" and config is not None:
                data = json.dumps(config(json.loads(data))).encode()
            dst.writestr(info.filename, members.pop(info.filename, data))
        for name, data in members.items():
            dst.writestr(name, data)
    return out


def rewrite_h5_config(path, config):
    """Apply `config(dict) -> dict` to a legacy .h5 file's model_config."""
    with h5py.File(path, "r+") as f:
        f.attrs["model_config"] = json.dumps(
            config(json.loads(f.attrs["model_config"])))
        del f.attrs["kerasish_model_config_crc32"]      # an attacker can
    return path


def replace_strings(obj, old, new):
    """`obj` (a JSON value) with every string `old` replaced by `new`."""
    if isinstance(obj, dict):
        return {k: replace_strings(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [replace_strings(v, old, new) for v in obj]
    return new if obj == old else obj


def weights_bytes(path):
    with zipfile.ZipFile(path) as zf:
        return zf.read("model.weights.h5")


def h5_bytes(build):
    """Bytes of an in-memory HDF5 file written by `build(h5file)`."""
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        build(f)
    return buffer.getvalue()
