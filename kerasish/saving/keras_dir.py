"""Models saved unzipped: `model.save(path, zipped=False)`.

The folder holds exactly the members of a `.keras` zip: `metadata.json`,
`config.json`, `model.weights.h5` and `assets/`, and `load_model(path)`
reads it back, as in Keras 3. The folder is written beside the target
under a temporary name and swapped in when complete, in one atomic step
where the system can (Linux, macOS): a save killed at any point leaves the
previous model or the new one at the path.
"""
import json
import os
import shutil

from kerasish.backend.common.load_budget import load_budget
from kerasish.saving import (assets, file_refs, file_utils, limits,
                             saving_lib)

_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", \
    "model.weights.h5"


def is_keras_dir(path):
    """Whether `path` is a folder written by `save_model_to_dir`."""
    return os.path.isdir(path) and \
        os.path.exists(os.path.join(path, _CONFIG))


def _write_file(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _write(model, folder, include_optimizer):
    config = saving_lib.model_config(model, include_optimizer)
    _write_file(os.path.join(folder, _METADATA),
                json.dumps(saving_lib._metadata()).encode())
    _write_file(os.path.join(folder, _CONFIG), json.dumps(config).encode())
    weights = file_utils.memory_h5()
    try:
        saving_lib.write_weights(model, weights)
    finally:
        image = file_utils.h5_image(weights)
    _write_file(os.path.join(folder, _WEIGHTS), image)
    # Keras writes the folder even when no layer has assets.
    os.makedirs(os.path.join(folder, "assets"))
    assets.save_assets(model, os.path.join(folder, "assets"))


def _swap_in(tmp, dirpath):
    if not os.path.exists(dirpath):
        os.replace(tmp, dirpath)
        return
    if not is_keras_dir(dirpath):
        raise ValueError(
            f"Cannot save the model to {dirpath!r}: it exists and is not a "
            "folder of a saved model.")
    if file_utils.exchange_paths(tmp, dirpath):
        # One atomic step: `dirpath` holds either model, whenever killed;
        # the old one, now at `tmp`, is removed by the caller.
        return
    # Two renames where the system cannot swap: killed between them, the
    # previous model stays complete at `.old-<name>...` beside `dirpath`.
    old = file_utils.temporary_name(dirpath, "old")
    try:
        os.replace(dirpath, old)
        os.replace(tmp, dirpath)
        shutil.rmtree(old)
    finally:
        file_utils.release(old)


def recover(dirpath):
    """Put back the previous model of a save killed between its two
    renames (systems without an atomic swap), if `dirpath` is missing.

    Returns:
        True if a model was put back at `dirpath`.
    """
    dirpath = os.path.abspath(os.fspath(dirpath))
    parent, base = os.path.split(dirpath)
    if os.path.lexists(dirpath) or not os.path.isdir(parent):
        return False
    target = file_utils.short_name(base)
    for name in sorted(os.listdir(parent)):
        old = os.path.join(parent, name)
        if name.startswith(".old-") and \
                file_utils.temporary_target(name) == target and \
                file_utils.is_stale(parent, name) and is_keras_dir(old):
            os.replace(old, dirpath)
            return True
    return False


def save_model_to_dir(model, dirpath, overwrite=True,
                      include_optimizer=True):
    """Write `model` unzipped into the folder `dirpath`."""
    dirpath = os.path.abspath(os.fspath(dirpath))
    if dirpath.endswith(".keras"):
        raise ValueError(
            "When using `zipped=False`, the `filepath` argument should not "
            f"end in `.keras`. Received: filepath={dirpath}")
    if os.path.exists(dirpath) and not overwrite:
        raise FileExistsError(
            f"{dirpath!r} already exists and overwrite=False.")
    parent = os.path.dirname(dirpath)
    os.makedirs(parent, exist_ok=True)
    recover(dirpath)
    file_utils.clean_stale_temporaries(parent)
    tmp = file_utils.temporary_name(dirpath)
    try:
        os.mkdir(tmp)
        _write(model, tmp, include_optimizer)
        _swap_in(tmp, dirpath)
        file_utils.sync_folder(parent)
    except OSError as e:
        error = file_utils.full_disk_error(e, dirpath)
        if error is e:
            raise
        raise error from e
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        file_utils.release(tmp)


def load_model_from_dir(dirpath, custom_objects=None, compile=True,
                        safe_mode=True):
    """Rebuild a model saved with `zipped=False`."""
    config = saving_lib.parse_config(file_refs.read_bytes(
        os.path.join(dirpath, _CONFIG), "config.json",
        limits.MAX_CONFIG_BYTES), dirpath)
    weights = os.path.join(dirpath, _WEIGHTS)
    with load_budget(_size(weights), dirpath):
        model = saving_lib.build_model(config, dirpath, custom_objects,
                                       compile, safe_mode)
        saving_lib.load_weights(model, weights)
        assets.load_assets(model, os.path.join(dirpath, "assets"))
    return model


def _size(path):
    return os.path.getsize(path) if os.path.isfile(path) else 0
