"""`save_model` / `load_model` / `save_weights` / `load_weights`: pick the
format from the file extension, as Keras 3 does."""
import os

from kerasish.saving import saving_lib


def _legacy():
    from kerasish.saving import legacy_h5
    return legacy_h5


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Save to `.keras` (zip) or legacy `.h5`/`.hdf5`."""
    filepath = os.fspath(filepath)
    include_optimizer = kwargs.pop("include_optimizer", True)
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: "
                         f"{list(kwargs)}")
    if filepath.endswith(".keras"):
        return saving_lib.save_model(model, filepath, overwrite,
                                     include_optimizer)
    if filepath.endswith((".h5", ".hdf5")):
        return _legacy().save_model_to_hdf5(model, filepath, overwrite,
                                            include_optimizer)
    raise ValueError(
        "Invalid filepath extension for saving. Please add either a `.keras` "
        "extension for the native Keras format (recommended) or a `.h5` "
        "extension. Use `model.export(filepath)` if you want to export a "
        f"SavedModel for use with TFLite/TFServing/etc. Received: "
        f"filepath={filepath}.")


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved as `.keras` or legacy `.h5`/`.hdf5`."""
    filepath = os.fspath(filepath)
    if filepath.endswith(".keras"):
        return saving_lib.load_model(filepath, custom_objects, compile,
                                     safe_mode)
    if filepath.endswith((".h5", ".hdf5")):
        return _legacy().load_model_from_hdf5(filepath, custom_objects,
                                              compile, safe_mode)
    raise ValueError(
        f"File format not supported: filepath={filepath}. Keras 3 only "
        "supports V3 `.keras` files and legacy H5 format files (`.h5` "
        "extension).")


def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """Save weights in Keras 3's `.weights.h5` layout."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(".weights.h5"):
        raise ValueError(
            "The filename must end in `.weights.h5`. Received: "
            f"filepath={filepath}")
    saving_lib.save_weights(model, filepath, overwrite)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Load weights from `.weights.h5`, `.keras`, or legacy `.h5`."""
    filepath = os.fspath(filepath)
    by_name = kwargs.pop("by_name", None)
    kwargs.pop("objects_to_skip", None)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    if filepath.endswith(".keras"):
        _no_by_name(by_name)
        return saving_lib.load_weights_from_keras_file(model, filepath,
                                                       skip_mismatch)
    if filepath.endswith(".weights.h5"):
        _no_by_name(by_name)
        return saving_lib.load_weights(model, filepath, skip_mismatch)
    if filepath.endswith((".h5", ".hdf5")):
        return _legacy().load_weights_from_hdf5(model, filepath,
                                                by_name=bool(by_name),
                                                skip_mismatch=skip_mismatch)
    raise ValueError(
        "File format not supported: filepath={filepath}. Keras 3 only "
        "supports V3 `.keras` and `.weights.h5` files, or legacy V1/V2 "
        f"`.h5` files.".replace("{filepath}", filepath))


def _no_by_name(by_name):
    if by_name:
        raise ValueError(
            "Invalid keyword arguments: {'by_name': True}: `by_name` is only "
            "supported for legacy `.h5` weight files.")
