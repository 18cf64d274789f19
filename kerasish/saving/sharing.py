"""Objects that appear more than once in a config (`shared_object_id`).

While a model is saved, an object serialized a second time (one layer
held by two sub-models, one initializer given to two layers) gets a
`shared_object_id` in both configs; while it is loaded, the first config
with that id builds the object and later ones reuse it, so the loaded
model shares exactly what the saved one shared. Keras 3 writes and reads
the same key.
"""
import threading

_state = threading.local()


class ObjectSharingScope:
    """Track shared objects during one save or one load."""

    def __enter__(self):
        self._saved = getattr(_state, "maps", None)
        _state.maps = ({}, {})  # id -> config (saving), id -> obj (loading)
        return self

    def __exit__(self, *exc):
        _state.maps = self._saved


def _maps():
    return getattr(_state, "maps", None)


def record_serialized(obj, config):
    maps = _maps()
    if maps is None:
        return
    configs = maps[0]
    key = id(obj)
    if key not in configs:
        # Keep the object alive so its id cannot be reused while saving.
        configs[key] = (obj, config)
        return
    config["shared_object_id"] = key
    configs[key][1]["shared_object_id"] = key


def lookup(config):
    maps = _maps()
    key = config.get("shared_object_id")
    if maps is None or key is None:
        return None
    return maps[1].get(key)


def record_deserialized(config, obj):
    maps = _maps()
    key = config.get("shared_object_id")
    if maps is not None and key is not None:
        maps[1][key] = obj
