"""The legacy config format of `.h5` files, both ways.

Keras writes a legacy `.h5` model config with `{"class_name", "config"}`
entries (no `"module"` or `"registered_name"`); functional layers also
carry `name` and `inbound_nodes`, and nested configs (initializers,
dtype policies) keep their Keras 3 form. Files written by Keras 2 differ
further: `batch_input_shape`, one-element `axis` lists, Lambda functions
stored as a `[code, defaults, closure]` list, optimizer configs with
`decay` / `is_legacy_optimizer` / `jit_compile`. `upgrade` rewrites those
into what Keras 3 (and kerasish) construct from.
"""
import copy
from kerasish.saving import object_registration as registry

_LAMBDA_LEGACY_KEYS = ("module", "function_type", "output_shape_type",
                       "output_shape_module")


# -- writing ------------------------------------------------------------------
def _is_model(obj):
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.engine.functional import Functional
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.engine.sequential import Sequential
    return isinstance(obj, (Functional, Sequential))


def _legacy_class_name(obj):
    return registry._CUSTOM_NAMES.get(type(obj), type(obj).__name__)


def legacy_entry(obj, entry=None):
    """`{"class_name", "config"}` for `obj`, as Keras's legacy writer."""
    if entry is not None and (entry.get("module") or "").startswith(
            "keras.src.ops"):
        # An op node: only its class name and config identify it.
        return {"class_name": entry["class_name"], "config": entry["config"]}
    # lazy: a top-level import would close an import circle
    from kerasish.saving.serialization_lib import serialize_keras_object
    if _is_model(obj):
        config = legacy_model_config(obj)
    elif entry is not None:
        config = copy.deepcopy(entry["config"])
    else:
        config = serialize_keras_object(obj)["config"]
    return {"class_name": _legacy_class_name(obj), "config": config}


def legacy_model_config(model):
    """`model.get_config()` with the layer entries in legacy form."""
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.engine.sequential import Sequential
    # lazy: a top-level import would close an import circle
    from kerasish.saving.serialization_lib import serialize_keras_object
    config = serialize_keras_object(model.get_config())
    if not _is_model(model):
        return config
    if isinstance(model, Sequential):
        config["layers"] = [legacy_entry(layer) for layer in model._layers]
        return config
    entries = []
    for op, entry in zip(model._operations, config["layers"]):
        legacy = legacy_entry(op, entry)
        legacy["name"] = entry["name"]
        legacy["inbound_nodes"] = entry["inbound_nodes"]
        entries.append(legacy)
    config["layers"] = entries
    return config


# -- reading ------------------------------------------------------------------
def upgrade(config):
    """A module-less (legacy) object config as Keras 3 builds it."""
    inner = config.get("config")
    if not isinstance(inner, (dict, list)):
        return config
    config = dict(config)
    if isinstance(inner, list):
        if config["class_name"] != "Sequential":
            return config   # refused with the class's name by instantiate
        # Keras 2.0's Sequential config was the bare list of layers.
        config["config"] = {"layers": inner}
        return config
    inner = dict(inner)
    config["config"] = inner
    if config["class_name"] == "InputLayer" and \
            "batch_input_shape" in inner:
        inner["batch_shape"] = inner.pop("batch_input_shape")
    axis = inner.get("axis")
    if isinstance(axis, list) and len(axis) == 1:
        inner["axis"] = int(axis[0])
    elif isinstance(axis, float):
        inner["axis"] = int(axis)
    if config["class_name"] == "Lambda":
        _upgrade_lambda(inner)
    return config


def _upgrade_lambda(inner):
    types = {k: inner.pop(k, None) for k in _LAMBDA_LEGACY_KEYS}
    if isinstance(inner.get("function"), list):
        inner["function"] = _lambda_entry(inner["function"])
    if types["output_shape_type"] == "lambda" and \
            isinstance(inner.get("output_shape"), list):
        inner["output_shape"] = _lambda_entry(inner["output_shape"])


def _lambda_entry(parts):
    code, defaults, closure = (list(parts) + [None, None])[:3]
    return {"class_name": "__lambda__",
            "config": {"value": [code, defaults, closure]}}


def model_from_config(config, custom_objects=None):
    """Build a model from a legacy `{"class_name", "config"}` dict."""
    # lazy: a top-level import would close an import circle
    from kerasish.saving.serialization_lib import deserialize_keras_object
    if not isinstance(config, dict) or "config" not in config or \
            "class_name" not in config:
        raise ValueError(
            "The provided configuration is not a valid Keras configuration. "
            "Expected a dictionary containing 'class_name' and 'config' "
            f"keys. Received: config={config!r:.300}")
    objects = dict(registry.builtins_of("keras.layers"))
    objects.update(registry.builtins_of("keras.src.models.functional"))
    objects.update(registry.builtins_of("keras.src.models.model"))
    objects.update(registry.builtins_of("keras"))
    return deserialize_keras_object(config, custom_objects=custom_objects,
                                    module_objects=objects)


# -- training config ----------------------------------------------------------
_KERAS2_OPTIMIZER_KEYS = ("is_legacy_optimizer", "jit_compile")


def training_config(model):
    """The `training_config` root attribute of a compiled model."""
    # lazy: a top-level import would close an import circle
    from kerasish.saving.serialization_lib import serialize_keras_object
    config = dict(model._compile_config)
    config.pop("optimizer", None)
    config = {k: _legacy_nested(v) for k, v in config.items()}
    optimizer = model.optimizer
    config["optimizer_config"] = {
        "class_name": _legacy_class_name(optimizer),
        "config": serialize_keras_object(optimizer.get_config())}
    return config


def _legacy_nested(value):
    # lazy: a top-level import would close an import circle
    from kerasish.saving.serialization_lib import serialize_keras_object
    if isinstance(value, dict):
        return {k: _legacy_nested(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_legacy_nested(v) for v in value]
    if hasattr(value, "get_config"):
        return {"class_name": _legacy_class_name(value),
                "config": serialize_keras_object(value.get_config())}
    if callable(value):
        return registry.get_registered_name(value)
    return value


def compile_args(config, custom_objects=None):
    """`model.compile` keyword arguments from a `training_config`."""
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish import losses, metrics, optimizers
    with registry.custom_object_scope(custom_objects or {}):
        return {
            "optimizer": _optimizer(config["optimizer_config"],
                                    optimizers, custom_objects),
            "loss": _nested(config.get("loss"), losses.deserialize,
                            names=True),
            "metrics": _nested(config.get("metrics"),
                               _metric(metrics.deserialize), names=True),
            "weighted_metrics": _nested(config.get("weighted_metrics"),
                                        _metric(metrics.deserialize),
                                        names=True),
            "loss_weights": config.get("loss_weights")}


def _optimizer(config, optimizers, custom_objects):
    if isinstance(config, str):
        return optimizers.get(config)
    inner = dict(config.get("config") or {})
    for key in _KERAS2_OPTIMIZER_KEYS:
        inner.pop(key, None)
    if not inner.get("decay"):
        # Keras 2 wrote decay=0.0 by default; only a real decay is news.
        inner.pop("decay", None)
    return optimizers.deserialize(dict(config, config=inner),
                                  custom_objects=custom_objects)


def _metric(deserialize):
    """Keras's legacy reading of a metric: accuracy and crossentropy names
    stay names (compile picks the variant from the output's shape), other
    names become objects, so `"mae"` comes back named
    `mean_absolute_error` (as in Keras's logs after loading)."""
    def read(config):
        if config in ("accuracy", "acc", "crossentropy", "ce"):
            return config
        return deserialize(config)
    return read


def _nested(config, deserialize, names=False):
    """Dicts are objects; strings stay names, or with `names` are read by
    `deserialize` too (Keras's legacy `compile_args_from_training_config`).
    """
    if config is None:
        return config
    if isinstance(config, str):
        return deserialize(config) if names else config
    if isinstance(config, dict) and "class_name" in config:
        return deserialize(config)
    if isinstance(config, dict):
        return {k: _nested(v, deserialize, names)
                for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [_nested(v, deserialize, names) for v in config]
    raise ValueError(
        "Saved training configuration not understood: expected a dict, "
        f"string or list. Received: {config!r:.200}")
