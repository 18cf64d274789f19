"""`kerasish.models`: `Model`, `Sequential`, loading and cloning."""
from kerasish.engine.model import Model  # noqa: F401
from kerasish.engine.functional import Functional  # noqa: F401
from kerasish.engine.sequential import Sequential  # noqa: F401
from kerasish.models.cloning import clone_model  # noqa: F401
from kerasish.saving.object_registration import builtin as _builtin
import json
from kerasish.saving.serialization_lib import deserialize_keras_object

_builtin("keras.src.models.functional")(Functional)
_builtin("keras.src.models.model")(Model)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved with `model.save()` (`.keras` or `.h5`).

    Example:

    >>> import os, tempfile
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> model.save(path)
    >>> kerasish.models.load_model(path).output_shape
    (None, 2)
    """
    # lazy: kept out of `import kerasish`
    from kerasish.saving import saving_api
    return saving_api.load_model(filepath, custom_objects=custom_objects,
                                 compile=compile, safe_mode=safe_mode)


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Save a model to `.keras` (zip), a folder, or legacy `.h5`.

    The same function as `kerasish.saving.save_model` (Keras exposes it in
    both namespaces).

    Example:

    >>> import os, tempfile
    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> kerasish.models.save_model(model, path)
    >>> kerasish.models.load_model(path).output_shape
    (None, 2)
    """
    # lazy: kept out of `import kerasish`
    from kerasish.saving import saving_api
    return saving_api.save_model(model, filepath, overwrite=overwrite,
                                 zipped=zipped, **kwargs)


def model_from_json(json_string, custom_objects=None):
    """Rebuild a model (without weights) from `model.to_json()`.

    Example:

    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> rebuilt = kerasish.models.model_from_json(model.to_json())
    >>> [type(layer).__name__ for layer in rebuilt.layers]
    ['Dense']
    """
    return deserialize_keras_object(json.loads(json_string),
                                    custom_objects=custom_objects)
