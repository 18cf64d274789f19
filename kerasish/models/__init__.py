"""`kerasish.models`: `Model`, `Sequential`, loading and cloning."""
from kerasish.engine.model import Model  # noqa: F401
from kerasish.engine.functional import Functional  # noqa: F401
from kerasish.engine.sequential import Sequential  # noqa: F401
from kerasish.saving.object_registration import builtin as _builtin

_builtin("keras.src.models.functional")(Functional)
_builtin("keras.src.models.model")(Model)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved with `model.save()` (`.keras` or `.h5`)."""
    from kerasish.saving import saving_api
    return saving_api.load_model(filepath, custom_objects=custom_objects,
                                 compile=compile, safe_mode=safe_mode)


def model_from_json(json_string, custom_objects=None):
    """Rebuild a model (without weights) from `model.to_json()`."""
    import json
    from kerasish.saving.serialization_lib import deserialize_keras_object
    return deserialize_keras_object(json.loads(json_string),
                                    custom_objects=custom_objects)


def clone_model(model, input_tensors=None, clone_function=None):
    """A new model with the same architecture and fresh weights."""
    from kerasish.saving.serialization_lib import (deserialize_keras_object,
                                                   serialize_keras_object)
    config = serialize_keras_object(model)
    config.pop("compile_config", None)
    return deserialize_keras_object(config)
