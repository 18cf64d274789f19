"""`kerasish.saving`: serialization registry and model files."""
from kerasish.saving.object_registration import (  # noqa: F401
    register_keras_serializable, get_registered_name, get_registered_object,
    custom_object_scope, CustomObjectScope, get_custom_objects)
from kerasish.saving.serialization_lib import (  # noqa: F401
    serialize_keras_object, deserialize_keras_object, SafeModeError)


def __getattr__(name):
    # File formats pull in h5py, so they load on first use.
    if name in ("load_model", "save_model", "load_weights", "save_weights"):
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_api
        return getattr(saving_api, name)
    if name == "KerasFileEditor":
        # lazy: kept out of `import kerasish`
        from kerasish.saving.file_editor import KerasFileEditor
        return KerasFileEditor
    raise AttributeError(name)


def __dir__():
    return sorted(set(globals()) | {"load_model", "save_model",
                                    "load_weights", "save_weights",
                                    "KerasFileEditor"})
