"""Functional models <-> Keras 3's config: layers with `inbound_nodes`.

Each layer entry carries `name` and `inbound_nodes`, a list of recorded
calls whose tensor arguments are `__keras_tensor__` references
`[layer_name, node_index, tensor_index]`. Rebuilding replays those calls
in dependency order.

Node indices count only the calls that belong to the model. Like Keras,
`input_layers` / `output_layers` (and Keras 2's list-form nodes) count
one extra node first for a nested functional model, the node its
construction made in Keras 2; node arguments in Keras 3's form do not.
"""
from kerasish import tree
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.argument_checks import describe
from kerasish.saving import serialization_lib
from kerasish.engine.functional import Functional
from kerasish.ops.operation import OpCall
from kerasish.saving import op_registry

def _is_functional(op):
    return isinstance(op, Functional)


def _own_node_index(op, node, own_nodes, shifted):
    """Index of `node` among `op`'s nodes that belong to this model."""
    kept = [n for n in op._inbound_nodes if id(n) in own_nodes]
    return kept.index(node) + (1 if shifted and _is_functional(op) else 0)


def _serialize_tensor_ref(t, own_nodes, shifted=False):
    op, node_index, tensor_index = t._keras_history
    node = op._inbound_nodes[node_index]
    index = 0 if node.is_input else \
        _own_node_index(op, node, own_nodes, shifted)
    return {"class_name": "__keras_tensor__",
            "config": {"shape": list(t.shape), "dtype": t.dtype,
                       "keras_history": [op.name, index, tensor_index]}}


def _serialize_arg(x, own_nodes):
    if isinstance(x, KerasTensor):
        return _serialize_tensor_ref(x, own_nodes)
    if isinstance(x, (list, tuple)):
        return [_serialize_arg(v, own_nodes) for v in x]
    if isinstance(x, dict):
        return {k: _serialize_arg(v, own_nodes) for k, v in x.items()}
    if isinstance(x, slice):
        return {"class_name": "__slice__",
                "config": {"start": x.start, "stop": x.stop,
                           "step": x.step}}
    if x is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    return serialization_lib.serialize_keras_object(x)


def _serialize_operation(op, nodes):
    """`(entry, [(args, kwargs) per node])` in Keras's layout."""
    calls = [(list(n.call_args), dict(n.call_kwargs)) for n in nodes]
    if not isinstance(op, OpCall):
        return serialization_lib.serialize_keras_object(op), calls
    static, split = {}, []
    for args, kwargs in calls:
        static, args, kwargs = op_registry.split_call(op, args, kwargs)
        split.append((args, kwargs))
    return op_registry.serialize_op(op, static), split


def functional_config(model):
    """Keras 3's `Functional.get_config()` layout."""
    own_nodes = {id(n) for ns in model._nodes_by_depth.values() for n in ns}
    layers = []
    for op in model._operations:
        nodes = [node for node in op._inbound_nodes
                 if id(node) in own_nodes and not node.is_input]
        entry, calls = _serialize_operation(op, nodes)
        entry["name"] = op.name
        entry["inbound_nodes"] = [
            {"args": _serialize_arg(args, own_nodes),
             "kwargs": _serialize_arg(kwargs, own_nodes)}
            for args, kwargs in calls]
        layers.append(entry)

    def ref(t):
        return _serialize_tensor_ref(t, own_nodes, shifted=True)[
            "config"]["keras_history"]
    return {"name": model.name, "trainable": model.trainable,
            "layers": layers,
            "input_layers": tree.map_structure(ref, model._inputs_struct),
            "output_layers": tree.map_structure(ref, model._outputs_struct)}


def _deserialize_op(data, custom_objects):
    module = data.get("module") or ""
    if module.startswith("keras.src.ops") or module == "keras.ops" or \
            op_registry.is_legacy_op_entry(data):
        return op_registry.op_from_config(data)
    return serialization_lib.deserialize_keras_object(
        data, custom_objects=custom_objects)


def _output_of(layer, node_index, tensor_index, shifted=False):
    if shifted and _is_functional(layer):
        node_index -= 1
    if node_index >= len(layer._inbound_nodes):
        raise IndexError(node_index)
    return layer._inbound_nodes[node_index].outputs[tensor_index]


def _deserialize_arg(x, created):
    if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
        name, node_index, tensor_index = x["config"]["keras_history"]
        if name not in created:
            raise ValueError("Invalid Functional model configuration. "
                             f"Missing node: {name}")
        return _output_of(created[name], node_index, tensor_index)
    if isinstance(x, dict) and x.get("class_name") == "__slice__":
        c = x["config"]
        return slice(c["start"], c["stop"], c["step"])
    if isinstance(x, dict) and x.get("class_name") == "__ellipsis__":
        return Ellipsis
    if isinstance(x, list):
        return [_deserialize_arg(v, created) for v in x]
    if isinstance(x, dict) and "class_name" not in x:
        return {k: _deserialize_arg(v, created) for k, v in x.items()}
    return serialization_lib.deserialize_keras_object(x)


def _node_call_args(node_data, created):
    if isinstance(node_data, list):
        # Keras 2 node format: [[name, node_index, tensor_index, kwargs]...]
        tensors, kwargs = [], {}
        for item in node_data:
            name, node_index, tensor_index = item[:3]
            if name not in created:
                raise ValueError("Invalid Functional model configuration. "
                                 f"Missing node: {name}")
            tensors.append(_output_of(created[name], node_index,
                                      tensor_index, shifted=True))
            kwargs = item[3] if len(item) > 3 else kwargs
        return [tensors[0] if len(tensors) == 1 else tensors], kwargs
    args = _deserialize_arg(node_data.get("args", []), created)
    kwargs = _deserialize_arg(node_data.get("kwargs", {}), created)
    return args, kwargs


def _op_call_args(op, args):
    # JSON turns a multi-axis index `x[:, :2]` into a list; it was a tuple.
    if getattr(op, "class_name", None) == "GetItem" and len(args) > 1 and \
            isinstance(args[1], list):
        return [args[0], tuple(args[1])] + list(args[2:])
    return args


def _replay_nodes(config, created):
    pending = {d["name"]: list(d.get("inbound_nodes", []))
               for d in config["layers"]}
    while any(pending.values()):
        progressed = False
        for data in config["layers"]:
            queue = pending[data["name"]]
            while queue:
                try:
                    args, kwargs = _node_call_args(queue[0], created)
                except IndexError:
                    break
                op = created[data["name"]]
                # Keras records the training flag resolved while building
                # (often False) but overrides it on every call of the
                # model; replaying it would freeze Dropout & co.
                kwargs.pop("training", None)
                op(*_op_call_args(op, args), **kwargs)
                queue.pop(0)
                progressed = True
        if not progressed:
            raise ValueError(
                "Invalid Functional model configuration. The graph of the "
                "Functional model either has loops or disconnected nodes. "
                "The following nodes failed to be resolved: "
                f"{[k for k, v in pending.items() if v]}")


def _config_error(what, name, value):
    return ValueError(f"Invalid Functional model configuration: {what}. "
                      f"Received: {name}={describe(value)}")


def _check_layer_entry(index, data):
    where = f"layers[{index}]"
    if not isinstance(data, dict):
        raise _config_error(f"`{where}` should be a layer config (a dict "
                            "with 'class_name', 'name' and 'config')",
                            where, data)
    for key in ("class_name", "name"):
        if not isinstance(data.get(key), str):
            raise _config_error(f"`{where}` has no string '{key}'",
                                f"{where}[{key!r}]", data.get(key))
    nodes = data.get("inbound_nodes", [])
    if not isinstance(nodes, list):
        raise _config_error(f"`{where}['inbound_nodes']` should be a list",
                            f"{where}['inbound_nodes']", nodes)
    for j, node in enumerate(nodes):
        if not isinstance(node, (dict, list)):
            raise _config_error(
                f"node {j} of layer {data['name']!r} should be a dict with "
                "'args' and 'kwargs' (or a Keras 2 list of references)",
                f"{where}['inbound_nodes'][{j}]", node)


def _refs_in(refs):
    """The `[layer_name, node_index, tensor_index]` leaves of `refs`."""
    if isinstance(refs, dict):
        for value in refs.values():
            yield from _refs_in(value)
    elif isinstance(refs, list) and refs and not isinstance(refs[0], str):
        for ref in refs:
            yield from _refs_in(ref)
    else:
        yield refs


def _check_refs(key, refs, names):
    for ref in _refs_in(refs):
        if not (isinstance(ref, list) and len(ref) == 3 and
                isinstance(ref[0], str)):
            raise _config_error(
                f"`{key}` should hold `[layer_name, node_index, "
                "tensor_index]` references", key, refs)
        if ref[0] not in names:
            raise _config_error(
                f"`{key}` names layer {ref[0]!r}, which is not in "
                "`layers`", key, refs)


def check_functional_config(config):
    """Name the malformed entry of a functional config before any layer
    is built (instead of an `AttributeError` from deep in the replay)."""
    if not isinstance(config, dict):
        raise _config_error("expected a dict with 'layers', "
                            "'input_layers' and 'output_layers'",
                            "config", config)
    for key in ("layers", "input_layers", "output_layers"):
        if key not in config:
            raise _config_error(f"the config has no {key!r} key",
                                "config keys", sorted(config))
    if not isinstance(config["layers"], list):
        raise _config_error("`layers` should be a list of layer configs",
                            "layers", config["layers"])
    for index, data in enumerate(config["layers"]):
        _check_layer_entry(index, data)
    names = {data["name"] for data in config["layers"]}
    for key in ("input_layers", "output_layers"):
        _check_refs(key, config[key], names)


def functional_from_config(cls, config, custom_objects=None):
    """Rebuild a functional model by replaying the recorded calls."""
    check_functional_config(config)
    created = {}
    for data in config["layers"]:
        created[data["name"]] = _deserialize_op(data, custom_objects)
    _replay_nodes(config, created)

    def to_tensor(ref):
        if isinstance(ref, list) and len(ref) == 3 and \
                isinstance(ref[0], str):
            return _output_of(created[ref[0]], ref[1], ref[2],
                              shifted=True)
        if isinstance(ref, dict):
            return {k: to_tensor(v) for k, v in ref.items()}
        return [to_tensor(r) for r in ref]
    extra = {k: v for k, v in config.items()
             if k not in ("layers", "input_layers", "output_layers", "name",
                          "trainable")}
    return cls(inputs=to_tensor(config["input_layers"]),
               outputs=to_tensor(config["output_layers"]),
               name=config.get("name"),
               trainable=config.get("trainable", True), **extra)
