"""Weights in the legacy `.h5` layout, written and read as Keras does.

    model_weights/            attrs: layer_names, backend, keras_version
      <layer name>/           attrs: weight_names (variable paths)
        <variable path>       one dataset per weight
      top_level_model_weights/
    optimizer_weights/        attrs: weight_names
      <optimizer>/<name>      one dataset per optimizer variable

A layer's weights are its trainable then non-trainable weights. Loading
matches layers by order (only layers with weights count) or, with
`by_name=True`, by layer name. Every check runs before the first weight
changes, so a failed load leaves the model as it was.
"""
import warnings

import numpy as np

from kerasish.saving.h5_store import (safe_dataset, safe_group, safe_shape,
                                      write_array)
from kerasish.saving.saving_lib import KERAS_FORMAT_VERSION
from kerasish.backend.config import backend

# HDF5 keeps attributes in the object header, which holds 64 KiB.
HDF5_OBJECT_HEADER_LIMIT = 64512


# -- attributes ---------------------------------------------------------------
def save_attributes(group, name, data):
    """Store a list attribute, split into `name0`, `name1`... if large."""
    too_long = [x for x in data if len(x) > HDF5_OBJECT_HEADER_LIMIT]
    if too_long:
        raise RuntimeError(
            "The following attributes cannot be saved to HDF5 file because "
            f"they are larger than {HDF5_OBJECT_HEADER_LIMIT} bytes: "
            f"{too_long}")
    array = np.asarray(data)
    chunks, count = [array], 1
    while any(c.nbytes > HDF5_OBJECT_HEADER_LIMIT for c in chunks):
        count += 1
        chunks = np.array_split(array, count)
    if count == 1:
        group.attrs[name] = data
        return
    for i, chunk in enumerate(chunks):
        group.attrs[f"{name}{i}"] = chunk


def _text(value):
    return value.decode("utf8") if hasattr(value, "decode") else str(value)


def load_attributes(group, name):
    """A list attribute written by `save_attributes`, as strings."""
    if name in group.attrs:
        return [_text(v) for v in group.attrs[name]]
    data, i = [], 0
    while f"{name}{i}" in group.attrs:
        data.extend(_text(v) for v in group.attrs[f"{name}{i}"])
        i += 1
    return data


def read_text_attribute(attrs, name):
    """A scalar string attribute (stored as bytes or str), or None."""
    value = attrs.get(name)
    return None if value is None else _text(value)


# -- writing ------------------------------------------------------------------
def legacy_weights(layer):
    """Trainable then non-trainable weights: the legacy `.h5` order."""
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _top_level_weights(model):
    own = list(model._trainable_variables) + \
        list(model._non_trainable_variables)
    ids = {id(w) for w in model.weights}
    return [v for v in own if id(v) in ids]


def _unique_names(variables):
    """Weight paths as dataset names, made unique.

    Some Keras variable paths repeat (Adafactor names its factored slots
    after the variable's bare name), which makes Keras itself fail to
    write the file; repeats get a `_1`, `_2`... suffix instead. Loading
    reads by the listed names, so such files load in Keras too.
    """
    names, seen = [], {}
    for variable in variables:
        name = str(variable.path)
        if name in seen:
            seen[name] += 1
            name = f"{name}_{seen[name]}"
        seen.setdefault(name, 0)
        names.append(name.encode("utf8"))
    return names


def _write_datasets(group, names, variables):
    save_attributes(group, "weight_names", names)
    for name, variable in zip(names, variables):
        write_array(group, name, variable.numpy())


def _save_subset(group, weights):
    _write_datasets(group, _unique_names(weights), weights)


def save_weights_to_hdf5_group(group, model):
    """Write `model`'s weights into `group` in the legacy `.h5` layout.

    Args:
        group: An open `h5py.File` or `h5py.Group` to write into.
        model: The model whose layers' weights are written.
    """
    save_attributes(group, "layer_names",
                    [layer.name.encode("utf8") for layer in model.layers])
    group.attrs["backend"] = backend().encode("utf8")
    group.attrs["keras_version"] = KERAS_FORMAT_VERSION.encode("utf8")
    # Sorted so that group names grow strictly (HDF5 prefix issues).
    for layer in sorted(model.layers, key=lambda layer: layer.name):
        _save_subset(group.create_group(layer.name), legacy_weights(layer))
    _save_subset(group.create_group("top_level_model_weights"),
                 _top_level_weights(model))


def save_optimizer_weights(h5file, optimizer):
    variables = list(optimizer.variables)
    if variables:
        group = h5file.create_group("optimizer_weights")
        _write_datasets(group, _unique_names(variables), variables)


# -- reading ------------------------------------------------------------------
class _Stored:
    """The weights one file group holds, read lazily."""

    def __init__(self, group, name):
        self.group = safe_group(group, name)
        self.name = name
        self.weight_names = load_attributes(self.group, "weight_names")

    def shapes(self):
        return [safe_shape(self.group, n) for n in self.weight_names]

    def values(self):
        return [safe_dataset(self.group, n) for n in self.weight_names]


class _Policy:
    """What a mismatch does: `skip_mismatch` skips shape mismatches; with
    `by_name` it also skips weight-count mismatches (as in Keras)."""

    def __init__(self, skip_mismatch, by_name, source):
        self.skip_shapes = skip_mismatch
        self.skip_counts = skip_mismatch and by_name
        self.source = source

    def problem(self, message, count=False):
        if self.skip_counts if count else self.skip_shapes:
            warnings.warn(f"Skipping loading: {message}", stacklevel=5)
            return
        raise ValueError(message)


def _plan_layer(plan, k, layer, weights, stored, policy):
    label = f"layer #{k} (named '{layer.name}' in the current model, " \
        f"'{stored.name}' in {policy.source})"
    if len(stored.weight_names) != len(weights):
        return policy.problem(
            f"Weight count mismatch for {label}: the layer expects "
            f"{len(weights)} weight(s), the file has "
            f"{len(stored.weight_names)}.", count=True)
    for weight, shape, wname in zip(weights, stored.shapes(),
                                    stored.weight_names):
        if tuple(shape) != tuple(weight.shape):
            policy.problem(
                f"Shape mismatch in {label} for weight '{weight.path}': "
                f"the weight expects shape {tuple(weight.shape)}, the file "
                f"has shape {tuple(shape)} (at '{stored.name}/{wname}').")
            continue
        plan.append((weight, stored.group, wname))


def _plan_top_level(plan, group, model, policy):
    if "top_level_model_weights" not in group:
        return
    weights = _top_level_weights(model)
    stored = _Stored(group, "top_level_model_weights")
    _plan_layer(plan, "top", model, weights, stored, policy)


def plan_topological(group, model, policy):
    """`(variable, group, dataset name)` to assign, matched by order."""
    layers = [layer for layer in model.layers if legacy_weights(layer)]
    names = [name for name in load_attributes(group, "layer_names")
             if load_attributes(safe_group(group, name), "weight_names")]
    if names and not layers and not getattr(model, "built", True):
        raise ValueError(
            f"Cannot load weights from {policy.source} into model "
            f"'{model.name}': it is not built yet, so it has no weights to "
            "match. A legacy .h5 file of a subclassed model records no "
            "input shape; call the model on a batch of data first, then "
            "`model.load_weights(filepath)` (or save it as `.keras`).")
    if len(names) != len(layers):
        raise ValueError(
            "Layer count mismatch when loading weights from "
            f"{policy.source}: the model expects {len(layers)} layers with "
            f"weights ({[layer.name for layer in layers]}), the file has "
            f"{len(names)} ({names}).")
    plan = []
    for k, (layer, name) in enumerate(zip(layers, names)):
        _plan_layer(plan, k, layer, legacy_weights(layer),
                    _Stored(group, name), policy)
    _plan_top_level(plan, group, model, policy)
    return plan


def plan_by_name(group, model, policy):
    """Like `plan_topological`, matching file groups to layers by name."""
    by_name = {}
    for layer in model.layers:
        by_name.setdefault(layer.name, []).append(layer)
    plan = []
    for k, name in enumerate(load_attributes(group, "layer_names")):
        for layer in by_name.get(name, []):
            _plan_layer(plan, k, layer, legacy_weights(layer),
                        _Stored(group, name), policy)
    _plan_top_level(plan, group, model, policy)
    return plan


def load_weights_from_hdf5_group(group, model, skip_mismatch=False,
                                 by_name=False, source="the file"):
    """Load a legacy `model_weights` group into `model` (all or nothing).

    Args:
        group: The `h5py` group holding `layer_names` (a weights file's
            root, or a model file's `model_weights`).
        model: The model to load into.
        skip_mismatch: Skip (with a warning) weights whose shape differs,
            and with `by_name=True` layers whose weight count differs.
        by_name: Match layers by name instead of by order.
        source: How to name the file in error messages.
    """
    planner = plan_by_name if by_name else plan_topological
    plan = planner(group, model, _Policy(skip_mismatch, by_name, source))
    values = [(w, safe_dataset(g, name)) for w, g, name in plan]
    for weight, value in values:
        weight.assign(value.astype(weight.dtype, copy=False))


def optimizer_state(h5file):
    """`[(name, array)]` of a file's `optimizer_weights`, or None."""
    if "optimizer_weights" not in h5file:
        return None
    group = safe_group(h5file, "optimizer_weights")
    return [(name, safe_dataset(group, name))
            for name in load_attributes(group, "weight_names")]
