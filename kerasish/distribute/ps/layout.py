"""Where each of a model's weights lives on the shards (no Ray here).

`model_layout(model, num_ps, sparse_embeddings)` gives one entry per
`model.weights` (the order a replica rebuilt from the config has too):

    {"path", "shape", "dtype", "trainable",
     "rows": pulled by rows (an embedding table),
     "parts": [(start_row, stop_row, task), ...],
     "keys": [shard key per part]}

A key is the variable's path (`path/part_K` for part K of a split one).
"""
import numpy as np

from kerasish.distribute.sharded_variable import ShardedVariable
from kerasish.layers.core.embedding import Embedding


def model_layout(model, num_ps, sparse_embeddings=True):
    weights = model.weights
    if not weights:
        raise ValueError(
            f"The model '{model.name}' has no weights made by its layers, "
            "so a ParameterServerStrategy has nothing to place on its "
            "shards. (An Estimator's model_fn makes its variables anew at "
            "every call; the parameter-server runtime trains Keras models, "
            "also through MonitoredTrainingSession(model=...).)")
    unplaced = [v.path for v in weights if not isinstance(v, ShardedVariable)
                or not v.parts]
    if unplaced:
        raise ValueError(
            "Every weight of a model trained by a ParameterServerStrategy "
            "must be created inside `strategy.scope()`. These were made "
            f"outside it: {unplaced[:5]}")
    tables = _embedding_tables(model) if sparse_embeddings else set()
    seen, layout = {}, []
    for v in weights:
        path = v.path
        if path in seen:            # two weights with one path
            seen[path] += 1
            path = f"{path}#{seen[path]}"
        else:
            seen[path] = 0
        parts = [(int(a), int(b), int(t)) for a, b, t in v.parts]
        keys = [path] if len(parts) == 1 else \
            [f"{path}/part_{k}" for k in range(len(parts))]
        layout.append({
            "path": v.path, "shape": tuple(v.shape), "dtype": str(v.dtype),
            "trainable": bool(v.trainable), "rows": id(v) in tables,
            "parts": parts, "keys": keys})
    used = {t for entry in layout for _, _, t in entry["parts"]}
    if len(used) < num_ps:
        raise ValueError(
            f"`num_ps={num_ps}` shards but the model's weights fill only "
            f"{len(used)} of them ({sum(len(e['parts']) for e in layout)} "
            "variables and parts): use fewer shards or a "
            "`variable_partitioner`.")
    return layout


def _embedding_tables(model):
    """ids of the trainable tables of the model's `Embedding` layers."""
    out = set()
    for layer in model._flatten_layers(include_self=False):
        if isinstance(layer, Embedding):
            table = getattr(layer, "embeddings", None)
            if table is not None and table.trainable:
                out.add(id(table))
    return out


def key_index(layout):
    """`{key: (weight index, start, stop)}`; start None for a whole
    variable."""
    out = {}
    for i, entry in enumerate(layout):
        split = len(entry["parts"]) > 1
        for (start, stop, _), key in zip(entry["parts"], entry["keys"]):
            out[key] = (i, start, stop) if split else (i, None, None)
    return out


def shard_specs(layout, weights, num_ps):
    """Per ps task: `[(key, path, value, trainable), ...]`."""
    specs = [[] for _ in range(num_ps)]
    for entry, v in zip(layout, weights):
        value = v._local_array()
        split = len(entry["parts"]) > 1
        for (start, stop, task), key in zip(entry["parts"], entry["keys"]):
            part = value[start:stop] if split else value
            specs[task].append((key, entry["path"], np.array(part),
                                entry["trainable"]))
    return specs


def dense_keys(layout, num_ps):
    """Per ps task: the keys workers pull whole with every step."""
    keys = [[] for _ in range(num_ps)]
    for entry in layout:
        if entry["rows"]:
            continue
        for (_, _, task), key in zip(entry["parts"], entry["keys"]):
            keys[task].append(key)
    return keys


def slot_map(layout, optimizer):
    """Where each optimizer variable of the driver lives: `{name: [(task,
    shard_name, start, stop), ...]}` for slots of a weight (named after
    its path, as `add_variable_from_reference` names them); variables not
    in it (iterations, the learning rate) are the driver's own."""
    prefixes = sorted(((e["path"].replace("/", "_") + "_", e)
                       for e in layout), key=lambda p: -len(p[0]))
    out = {}
    for variable in optimizer.variables:
        name = variable.name
        for prefix, entry in prefixes:
            if not name.startswith(prefix) or \
                    tuple(variable.shape) != entry["shape"]:
                continue
            suffix = name[len(prefix):]
            split = len(entry["parts"]) > 1
            out[name] = [
                (task, key.replace("/", "_") + "_" + suffix,
                 start if split else None, stop if split else None)
                for (start, stop, task), key in zip(entry["parts"],
                                                    entry["keys"])]
            break
    return out
