"""Keras 3's native formats: `.keras` zip files and `.weights.h5` files.

A `.keras` file is a zip (members stored uncompressed) holding
`metadata.json`, `config.json` (the serialized model, with build and
compile configs), `model.weights.h5` (the weights layout of
`state_walk`) and, for layers that keep files (lookup vocabularies),
`assets/<object path>/...`. Writes are atomic (`file_utils.atomic_path`);
loads check every variable's count and shape before changing any weight.
"""
import datetime
import io
import json
import os
import warnings
import zipfile

import numpy as np

from kerasish.backend.common.load_budget import load_budget
from kerasish.engine.layer_state import LayerState
from kerasish.saving import assets, errors, limits, state_walk
from kerasish.saving.file_utils import atomic_h5, atomic_path
from kerasish.saving.h5_store import H5Store
import h5py
from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.version import __version__
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.sharing import ObjectSharingScope
from kerasish.saving.serialization_lib import deserialize_keras_object
from kerasish.saving.object_registration import \
    custom_object_scope

KERAS_FORMAT_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", \
    "model.weights.h5"


def _h5py():
    return h5py


# -- weights ------------------------------------------------------------------
def write_weights(model, h5file):
    """Write every saveable's state into an open HDF5 file, through each
    one's `save_own_variables` (Keras's per-layer hook)."""
    store = H5Store(h5file, "w")
    for path, obj in state_walk.walk(model):
        obj.save_own_variables(store.make(path, name=getattr(obj, "name",
                                                             None)))


def _own_load(obj):
    """Whether `obj` loads with a `load_own_variables` of its own class
    rather than the base layer's (whose counts and shapes are checked here
    for every layer before any weight changes)."""
    return not _is_optimizer(obj) and \
        type(obj).load_own_variables is not LayerState.load_own_variables


def _plan_load(model, store, skip_mismatch, source, skip=()):
    """`(obj, reader)` pairs to load; raise (or skip) on any mismatch."""
    plan = []
    for path, obj in state_walk.walk(model, visited={id(o) for o in skip}):
        reader = store.get(path)
        if _own_load(obj):
            plan.append((obj, reader))
            continue
        problem = _mismatch(obj, state_walk.own_variables(obj), reader,
                            path)
        if problem is None:
            # Read now, so a damaged file changes no weight.
            plan.append((obj, {k: reader[k] for k in reader.keys()}))
        elif _is_optimizer(obj):
            warnings.warn(problem, stacklevel=3)
        elif skip_mismatch:
            warnings.warn(f"Skipping loading weights for {problem}",
                          stacklevel=3)
        else:
            raise ValueError(f"Cannot load weights from {source}: {problem}")
    return plan


def _is_optimizer(obj):
    return isinstance(obj, Optimizer)


def _mismatch(obj, variables, reader, path):
    keys = reader.keys()
    name = getattr(obj, "name", path)
    if len(keys) != len(variables):
        if _is_optimizer(obj):
            return (f"Skipping variable loading for optimizer '{name}', "
                    f"because it has {len(variables)} variables whereas "
                    f"the saved optimizer has {len(keys)} variables.")
        if not variables and not getattr(obj, "built", True):
            return (f"layer '{name}' was never built and thus it doesn't "
                    "have any variables, but the weights file lists "
                    f"{len(keys)} variables for it (at '{path or '/'}').")
        return (f"layer '{name}' expected {len(variables)} variables, but "
                f"the file has {len(keys)} at '{path or '/'}'. Expected: "
                f"{[v.name for v in variables]}")
    for i, v in enumerate(variables):
        shape = reader.shape(str(i))
        if tuple(shape) != tuple(v.shape):
            return (f"layer '{name}' variable '{v.name}' has shape "
                    f"{tuple(v.shape)}, but the file has shape "
                    f"{tuple(shape)} (at '{path}/vars/{i}').")
    return None


def read_weights(model, h5file, skip_mismatch=False, source="file",
                 objects_to_skip=()):
    """Load weights from an open HDF5 file, through each saveable's
    `load_own_variables` (all-or-nothing for layers that keep the base
    method: every count and shape is checked and every array read first).
    """
    with errors.reading(source, "the weights"):
        plan = _plan_load(model, H5Store(h5file, "r"), skip_mismatch,
                          source, objects_to_skip or ())
        for obj, reader in plan:
            if skip_mismatch and _own_load(obj):
                _load_or_warn(obj, reader)
            else:
                obj.load_own_variables(reader)


def _load_or_warn(obj, reader):
    # As Keras with `skip_mismatch=True`: a layer whose own loading fails
    # is skipped with a warning.
    try:
        obj.load_own_variables(reader)
    except Exception as e:  # noqa: BLE001 - reported, then skipped
        warnings.warn(f"Skipping loading weights for layer "
                      f"'{getattr(obj, 'name', obj)}': {e}", stacklevel=4)


def save_weights(model, filepath, overwrite=True):
    with atomic_h5(filepath, overwrite) as f:
        write_weights(model, f)


def load_weights(model, filepath, skip_mismatch=False, objects_to_skip=None):
    h5py = _h5py()
    with _open_h5(h5py, filepath) as f:
        read_weights(model, f, skip_mismatch, source=filepath,
                     objects_to_skip=objects_to_skip)


def _open_h5(h5py, filepath):
    if not os.path.exists(filepath):
        raise errors.missing_file(filepath)
    limits.check_hdf5_file(filepath)
    try:
        return h5py.File(filepath, "r")
    except OSError as e:
        raise errors.UnreadableFileError(
            f"{filepath!r} is not a readable HDF5 weights file ({e}).") \
            from None


# -- .keras zip ---------------------------------------------------------------
def _metadata():
    return {"keras_version": KERAS_FORMAT_VERSION,
            "date_saved": datetime.datetime.now().strftime(
                "%Y-%m-%d@%H:%M:%S"),
            "kerasish_version": __version__}


def model_config(model, include_optimizer=True):
    """The `config.json` content of `model`."""
    with ObjectSharingScope():
        config = serialize_keras_object(model)
    if not include_optimizer:
        config.pop("compile_config", None)
    return config


def save_model(model, filepath, overwrite=True, include_optimizer=True):
    """Write `model` as a `.keras` zip file."""
    h5py = _h5py()
    config = model_config(model, include_optimizer)
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        write_weights(model, f)
    with atomic_path(filepath, overwrite) as tmp:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
            zf.writestr(_METADATA, json.dumps(_metadata()))
            zf.writestr(_CONFIG, json.dumps(config))
            zf.writestr(_WEIGHTS, buffer.getvalue())
            assets.write_assets(model, zf)


def _open_zip(filepath):
    if not os.path.exists(filepath):
        raise errors.missing_file(filepath)
    try:
        zf = zipfile.ZipFile(filepath, "r")
    except zipfile.BadZipFile as e:
        raise errors.UnreadableFileError(
            f"{filepath!r} is not a valid .keras file: {e}. The file may be "
            "truncated or of another format.") from None
    try:
        limits.check_zip(zf, filepath)
    except ValueError:
        zf.close()
        raise
    missing = [m for m in (_CONFIG, _WEIGHTS) if m not in zf.namelist()]
    if missing:
        zf.close()
        raise ValueError(
            f"{filepath!r} is not a valid .keras file: missing "
            f"{', '.join(missing)}.")
    return zf


def _read_member(zf, name, filepath):
    try:
        return zf.read(name)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise ValueError(
            f"{filepath!r} is corrupted: cannot read {name} ({e}).") \
            from None
    except (RuntimeError, NotImplementedError) as e:
        # zipfile's errors for an encrypted member and for an unknown
        # compression method; Keras writes neither.
        raise ValueError(
            f"{filepath!r} is not a valid .keras file: cannot read {name} "
            f"({e}).") from None


def parse_config(text, filepath):
    """`config.json` text -> the model's config dict (checked)."""
    config = limits.loads(text, filepath, "config.json")
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"{filepath!r}: config.json does not describe a "
                         f"model. Received: {str(config):.200}")
    return config


def build_model(config, filepath, custom_objects, compile, safe_mode):
    """The model of a `config.json` dict, compiled if asked and saved so."""
    config = dict(config)
    compile_config = config.pop("compile_config", None)
    with errors.building(filepath):
        with ObjectSharingScope():
            model = deserialize_keras_object(
                config, custom_objects=custom_objects, safe_mode=safe_mode)
        # Keras writes an empty compile_config for a model never compiled.
        if compile and compile_config:
            with custom_object_scope(custom_objects or {}):
                model.compile_from_config(compile_config)
    return model


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Rebuild a model from a `.keras` file, with weights (and optimizer)."""
    h5py = _h5py()
    with _open_zip(filepath) as zf:
        config = parse_config(_read_member(zf, _CONFIG, filepath), filepath)
        weights = _read_member(zf, _WEIGHTS, filepath)
    with load_budget(len(weights), filepath):
        model = build_model(config, filepath, custom_objects, compile,
                            safe_mode)
        with _open_weights(h5py, weights, filepath) as f:
            read_weights(model, f, source=filepath)
        with _open_zip(filepath) as zf:
            assets.read_assets(model, zf, filepath)
    return model


def _open_weights(h5py, data, filepath):
    limits.check_hdf5_heaps(data, filepath)
    try:
        return h5py.File(io.BytesIO(data), "r")
    except OSError as e:
        raise ValueError(
            f"{filepath!r}: model.weights.h5 is corrupted ({e}).") from None


def load_weights_from_keras_file(model, filepath, skip_mismatch=False):
    h5py = _h5py()
    with _open_zip(filepath) as zf:
        weights = _read_member(zf, _WEIGHTS, filepath)
    with _open_weights(h5py, weights, filepath) as f:
        read_weights(model, f, skip_mismatch, source=filepath)
