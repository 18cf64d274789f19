"""Legacy `.h5` model files: `model.save("m.h5")` and loading them.

Root attributes: `keras_version`, `backend`, `model_config` (JSON of the
legacy config, see `legacy_config`) and, for a compiled model saved with
its optimizer, `training_config`; groups `model_weights` and
`optimizer_weights` (see `legacy_h5_weights`). Files written by Keras 2
and Keras 3 load, and Keras 3 loads the files written here. Saving is
atomic; loading checks everything before it changes a weight, and refuses
code stored in the file (Lambda bytecode) unless `safe_mode=False`.
"""
import json
import logging
import os
import warnings
import zlib

import numpy as np

from kerasish.backend.common.load_budget import load_budget
from kerasish.saving import errors, legacy_config, limits
from kerasish.saving import legacy_h5_weights as weights_io
from kerasish.saving.file_utils import atomic_h5
import h5py
from kerasish.backend.config import backend
from kerasish.saving.saving_lib import KERAS_FORMAT_VERSION
from kerasish.saving.object_registration import custom_object_scope
from kerasish.saving.safe_mode import SafeModeScope
from kerasish.saving.h5_store import safe_group

logger = logging.getLogger("kerasish.saving")


def _h5py():
    return h5py


# -- saving -------------------------------------------------------------------
def _metadata(model, include_optimizer):
    model_config = {"class_name": type(model).__name__,
                    "config": legacy_config.legacy_model_config(model)}
    if not legacy_config._is_model(model) and model.get_build_config():
        # Keras records no input shape for subclassed models, so their
        # .h5 files cannot be reloaded; Keras ignores this extra key.
        model_config["build_config"] = model.get_build_config()
    metadata = {"keras_version": KERAS_FORMAT_VERSION, "backend": backend(),
                "model_config": model_config}
    if include_optimizer and getattr(model, "optimizer", None) is not None \
            and model.compiled:
        metadata["training_config"] = legacy_config.training_config(model)
    return metadata


def save_model_to_hdf5(model, filepath, overwrite=True,
                       include_optimizer=True):
    """Write `model` (config, weights, optimizer) as a legacy `.h5` file."""
    metadata = _metadata(model, include_optimizer)
    # Built in memory: HDF5's own writes can crash the process in
    # `File.close` on a full disk (see `file_utils`).
    with atomic_h5(filepath, overwrite) as f:
        for key, value in metadata.items():
            if isinstance(value, dict):
                value = json.dumps(value).encode("utf8")
                f.attrs[_crc_name(key)] = np.uint32(zlib.crc32(value))
            f.attrs[key] = value
        weights_io.save_weights_to_hdf5_group(
            f.create_group("model_weights"), model)
        if "training_config" in metadata:
            weights_io.save_optimizer_weights(f, model.optimizer)


# -- opening ------------------------------------------------------------------
def open_h5(filepath):
    """Open an HDF5 file for reading, with a clear error if it is not."""
    h5py = _h5py()
    if not os.path.exists(filepath):
        raise errors.missing_file(filepath)
    limits.check_hdf5_file(filepath)
    try:
        return h5py.File(filepath, "r")
    except OSError as e:
        raise errors.UnreadableFileError(
            f"{filepath!r} is not a readable HDF5 file: it may be truncated "
            f"or of another format ({e}).") from None


def _crc_name(key):
    # Keras ignores it; the attributes of an HDF5 file are not checksummed.
    return f"kerasish_{key}_crc32"


def _json_attribute(f, name, filepath):
    with errors.reading(filepath, f"the `{name}` attribute"):
        text = weights_io.read_text_attribute(f.attrs, name)
        stored = f.attrs.get(_crc_name(name))
    if text is None:
        return None
    value = limits.loads(text, filepath, f"the `{name}` attribute")
    if stored is not None and (np.shape(stored) != () or int(stored) !=
                               zlib.crc32(text.encode("utf8"))):
        raise ValueError(
            f"{filepath!r} is corrupted: its `{name}` attribute does not "
            f"match the checksum kerasish stored with it. If you edited it "
            f"on purpose, delete the `{_crc_name(name)}` attribute.")
    return value


# -- loading ------------------------------------------------------------------
def load_model_from_hdf5(filepath, custom_objects=None, compile=True,
                         safe_mode=True):
    """Rebuild a model from a legacy `.h5` file written by Keras or here."""
    with open_h5(filepath) as f, load_budget(_size(filepath), filepath):
        config = _json_attribute(f, "model_config", filepath)
        if config is None:
            raise ValueError(
                f"No model config found in the file at {filepath!r}: it "
                "holds weights only. Build the model, then call "
                "`model.load_weights(filepath)`.")
        with SafeModeScope(safe_mode), errors.building(filepath), \
                custom_object_scope(custom_objects or {}):
            model = legacy_config.model_from_config(config, custom_objects)
        _load_group(f, "model_weights", model, filepath)
        training = _json_attribute(f, "training_config", filepath)
        if compile and training is None:
            logger.warning("No training configuration found in %s, so the "
                           "model was not compiled. Compile it manually.",
                           filepath)
        if compile and training is not None:
            with errors.building(filepath), \
                    errors.reading(filepath, "the optimizer state"):
                _compile(model, f, training, custom_objects)
    return model


def _size(filepath):
    """Bytes of the file: a bound on the weights its config may declare."""
    try:
        return os.path.getsize(filepath)
    except (OSError, TypeError):    # an open file object: no bound known
        return None


def _load_group(f, name, model, filepath, skip_mismatch=False,
                by_name=False):
    with errors.reading(filepath, "the weights"):
        group = f if name is None else safe_group(f, name)
        weights_io.load_weights_from_hdf5_group(
            group, model, skip_mismatch=skip_mismatch, by_name=by_name,
            source=repr(filepath))


def _compile(model, f, training, custom_objects):
    model.compile(**legacy_config.compile_args(training, custom_objects))
    state = weights_io.optimizer_state(f)
    if state is not None:
        _restore_optimizer(model, state, f.filename)


def _restore_optimizer(model, state, filepath):
    optimizer = model.optimizer
    if not optimizer.built:
        optimizer.build(model.trainable_variables)
    variables = optimizer.variables
    shapes_match = len(variables) == len(state) and all(
        tuple(v.shape) == tuple(value.shape)
        for v, (_, value) in zip(variables, state))
    if not shapes_match:
        keras2 = any(name.endswith(":0") for name, _ in state)
        warnings.warn(
            f"Could not restore the optimizer state saved in {filepath!r}: "
            f"optimizer '{optimizer.name}' has {len(variables)} variables, "
            f"the file has {len(state)}"
            + (" in Keras 2's layout" if keras2 else " of other shapes")
            + ". Training continues from a freshly initialized optimizer.",
            stacklevel=4)
        return
    for variable, (_, value) in zip(variables, state):
        variable.assign(value.astype(variable.dtype, copy=False))


def load_weights_from_hdf5(model, filepath, by_name=False,
                           skip_mismatch=False):
    """`model.load_weights("w.h5")`: a legacy weights or full-model file."""
    with open_h5(filepath) as f:
        name = "model_weights" if "layer_names" not in f.attrs and \
            "model_weights" in f else None
        if name is None and "layer_names" not in f.attrs and \
                "layer_names0" not in f.attrs:
            raise ValueError(
                f"{filepath!r} is not a legacy .h5 weights file: it has no "
                "`layer_names` attribute and no `model_weights` group.")
        _load_group(f, name, model, filepath, skip_mismatch, by_name)
