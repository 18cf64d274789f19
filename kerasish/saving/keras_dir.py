"""Models saved unzipped: `model.save(path, zipped=False)`.

The folder holds exactly the members of a `.keras` zip: `metadata.json`,
`config.json`, `model.weights.h5` and `assets/`, and `load_model(path)`
reads it back, as in Keras 3. The folder is written beside the target
under a temporary name and swapped in when complete.
"""
import json
import os
import shutil
import tempfile

from kerasish.engine.load_budget import load_budget
from kerasish.saving import assets, file_refs, limits, saving_lib

_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", \
    "model.weights.h5"


def is_keras_dir(path):
    """Whether `path` is a folder written by `save_model_to_dir`."""
    return os.path.isdir(path) and \
        os.path.exists(os.path.join(path, _CONFIG))


def _write(model, folder, include_optimizer):
    import h5py
    config = saving_lib.model_config(model, include_optimizer)
    with open(os.path.join(folder, _METADATA), "w") as f:
        json.dump(saving_lib._metadata(), f)
    with open(os.path.join(folder, _CONFIG), "w") as f:
        json.dump(config, f)
    with h5py.File(os.path.join(folder, _WEIGHTS), "w") as f:
        saving_lib.write_weights(model, f)
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
    old = tempfile.mkdtemp(prefix=".old-" + os.path.basename(dirpath),
                           dir=os.path.dirname(dirpath))
    os.replace(dirpath, os.path.join(old, "model"))
    os.replace(tmp, dirpath)
    shutil.rmtree(old)


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
    tmp = tempfile.mkdtemp(prefix=".tmp-" + os.path.basename(dirpath),
                           dir=parent)
    try:
        _write(model, tmp, include_optimizer)
        os.chmod(tmp, 0o777 & ~_umask())
        _swap_in(tmp, dirpath)
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
