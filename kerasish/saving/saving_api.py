"""`save_model` / `load_model` / `save_weights` / `load_weights`: pick the
format from the file extension, as Keras 3 does."""
import logging
import os

from kerasish.saving import file_utils, saving_lib
from kerasish.saving import legacy_h5
from kerasish.saving import keras_dir
from kerasish.saving import sharded_weights

logger = logging.getLogger("kerasish.saving")
_LEGACY = (".h5", ".hdf5")


def _legacy():
    return legacy_h5


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Save a model (architecture, weights, optimizer) to one file.

    A `.keras` path writes Keras 3's zip format; `.h5`/`.hdf5` writes the
    legacy HDF5 format. The file is written beside the target and renamed
    into place, so an interrupted save never damages an existing file.

    Args:
        model: The model to save.
        filepath: Path ending in `.keras`, `.h5` or `.hdf5`.
        overwrite: Whether to replace an existing file without asking.
            Defaults to `True`; with `False`, an existing file is replaced
            only if you answer "y" at the prompt, as in Keras.
        zipped: `False` writes the `.keras` members into a folder at
            `filepath` instead of a zip (`filepath` must then not end in
            `.keras`). Defaults to a zip.
        include_optimizer: Keyword-only; whether to save the compile
            configuration and optimizer state. Defaults to `True`.

    Example:

    >>> import os, tempfile
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> kerasish.saving.save_model(model, path)
    >>> kerasish.saving.load_model(path).output_shape
    (None, 2)
    """
    filepath = os.fspath(filepath)
    include_optimizer = kwargs.pop("include_optimizer", True)
    if kwargs:
        raise ValueError("The following argument(s) are not supported: "
                         f"{list(kwargs)}")
    if not file_utils.may_write(filepath, overwrite):
        return None     # as Keras: the user declined to overwrite
    overwrite = True
    if zipped is False:
        return keras_dir.save_model_to_dir(model, filepath, overwrite,
                                           include_optimizer)
    if filepath.endswith(".keras"):
        return saving_lib.save_model(model, filepath, overwrite,
                                     include_optimizer)
    if filepath.endswith(_LEGACY):
        logger.warning(
            "Saving to %s in the legacy HDF5 format. The native format is "
            "recommended: `model.save('my_model.keras')`.", filepath)
        return _legacy().save_model_to_hdf5(model, filepath, overwrite,
                                            include_optimizer)
    raise ValueError(
        "Invalid filepath extension for saving. Please add either a `.keras` "
        "extension for the native Keras format (recommended) or a `.h5` "
        "extension. Use `model.export(filepath)` if you want to export a "
        "SavedModel for use with TFLite/TFServing/etc. Received: "
        f"filepath={filepath}.")


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved as `.keras`, legacy `.h5`/`.hdf5`, or unzipped.

    Files written by Keras 3 (and Keras 2 for `.h5`) load too. Classes and
    functions are looked up by name among kerasish's built-ins, the
    registered objects and `custom_objects`; nothing named in the file is
    imported, and Python code stored in it (lambdas) is refused unless
    `safe_mode=False`.

    Args:
        filepath: Path of the file (or of the folder written with
            `zipped=False`).
        custom_objects: Optional dict of name -> user class or function.
        compile: Whether to compile the model as it was saved (optimizer
            state included). Defaults to `True`.
        safe_mode: Refuse lambdas stored in the file. Defaults to `True`;
            pass `False` only for files you trust.

    Returns:
        The model.

    Example:

    >>> import os, tempfile
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> model.compile(optimizer="sgd", loss="mean_squared_error")
    >>> path = os.path.join(tempfile.mkdtemp(), "model.h5")
    >>> model.save(path)
    >>> kerasish.saving.load_model(path).loss.__name__
    'mean_squared_error'
    """
    filepath = os.fspath(filepath)
    if keras_dir.is_keras_dir(filepath) or keras_dir.recover(filepath):
        return keras_dir.load_model_from_dir(filepath, custom_objects,
                                             compile, safe_mode)
    if filepath.endswith(".keras"):
        return saving_lib.load_model(filepath, custom_objects, compile,
                                     safe_mode)
    if filepath.endswith(_LEGACY):
        return _legacy().load_model_from_hdf5(filepath, custom_objects,
                                              compile, safe_mode)
    raise ValueError(
        f"File format not supported: filepath={filepath}. Keras 3 only "
        "supports V3 `.keras` files and legacy H5 format files (`.h5` "
        "extension).")


def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """Save the weights (and optimizer state) to a `.weights.h5` file, or
    to sharded files (`.weights.json`).

    Args:
        model: The model whose weights are saved.
        filepath: Path ending in `.weights.h5`.
        overwrite: Whether to replace an existing file without asking.
            Defaults to `True`; with `False`, an existing file is replaced
            only if you answer "y" at the prompt, as in Keras.
        max_shard_size: Maximum size in GB of each file: the weights go
            to `<name>.weights.json` and shards `<name>_00000.weights.h5`,
            ... (Keras 3's sharded layout). Defaults to `None` (one file).

    Example:

    >>> import os, tempfile
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
    >>> kerasish.saving.save_weights(model, path)
    >>> kerasish.saving.load_weights(model, path)
    """
    filepath = os.fspath(filepath)
    if max_shard_size is None and not filepath.endswith(".weights.h5"):
        raise ValueError(
            "The filename must end in `.weights.h5`. Received: "
            f"filepath={filepath}")
    if max_shard_size is not None and not filepath.endswith(
            ("weights.h5", "weights.json")):
        raise ValueError(
            "The filename must end in `.weights.json` when `max_shard_size` "
            f"is specified. Received: filepath={filepath}")
    if not model.built:
        raise ValueError(
            "You are saving a model that has not yet been built. Try "
            "building the model first by calling it on some data or by "
            "using `build()`.")
    if max_shard_size is not None:
        filepath = sharded_weights.sharded_path(filepath)
    if not file_utils.may_write(filepath, overwrite):
        return          # as Keras: the user declined to overwrite
    if max_shard_size is not None:
        sharded_weights.save(model, filepath, max_shard_size)
        return
    saving_lib.save_weights(model, filepath)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Load weights from `.weights.h5`, sharded `.weights.json`, `.keras`,
    or legacy `.h5`.

    `.weights.h5`, `.weights.json` and `.keras` files match weights by
    their place in the model; legacy `.h5` files by layer order, or by layer name with
    `by_name=True`. Nothing changes unless every weight fits.

    Args:
        model: The model to load into.
        filepath: Path of the file.
        skip_mismatch: Skip (with a warning) weights whose shape or count
            does not match, instead of raising. Defaults to `False`.
        by_name: Keyword-only, legacy `.h5` only: match layers by name.
        objects_to_skip: Keyword-only, `.weights.h5` only: layers (or the
            optimizer) whose weights are left as they are.

    Example:

    >>> import os, tempfile
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
    >>> model.save_weights(path)
    >>> other = kerasish.models.clone_model(model)
    >>> other.load_weights(path)
    >>> bool((other.get_weights()[0] == model.get_weights()[0]).all())
    True
    """
    filepath = os.fspath(filepath)
    by_name = kwargs.pop("by_name", None)
    objects_to_skip = kwargs.pop("objects_to_skip", None)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    if filepath.endswith(".weights.h5"):
        _no_by_name(by_name)
        return saving_lib.load_weights(model, filepath, skip_mismatch,
                                       objects_to_skip)
    if filepath.endswith(".weights.json"):
        _no_by_name(by_name)
        with sharded_weights.open_merged(filepath) as merged:
            return saving_lib.read_weights(
                model, merged, skip_mismatch, source=filepath,
                objects_to_skip=objects_to_skip)
    if objects_to_skip is not None:
        raise ValueError("`objects_to_skip` only supports loading "
                         "'.weights.h5' and '.weights.json' files. "
                         f"Received: {filepath}")
    if filepath.endswith(".keras"):
        _no_by_name(by_name)
        return saving_lib.load_weights_from_keras_file(model, filepath,
                                                       skip_mismatch)
    if filepath.endswith(_LEGACY):
        return _legacy().load_weights_from_hdf5(model, filepath,
                                                by_name=bool(by_name),
                                                skip_mismatch=skip_mismatch)
    raise ValueError(
        f"File format not supported: filepath={filepath}. Keras 3 only "
        "supports V3 `.keras`, `.weights.h5` and sharded `.weights.json` "
        "files, or legacy V1/V2 `.h5` files.")


def _no_by_name(by_name):
    if by_name:
        raise ValueError(
            "Invalid keyword arguments: {'by_name': True}: `by_name` is only "
            "supported for legacy `.h5` weight files.")
