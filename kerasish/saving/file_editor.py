"""`KerasFileEditor` (`keras.saving.KerasFileEditor`): edit weights files.

The weights of a `.keras` or `.weights.h5` file are read into a tree of
dicts: each object's path (`layers/dense`) holds its arrays by name
(`"0"`, `"1"`, the `vars/<name>` datasets of the file) and its children.
Edits change the tree; `save` writes it back in Keras's layout
(`<path>/vars/<name>`), atomically. Keras's own editor drops the children
of an object that also has arrays (e.g. a MultiOptimizer's inner
optimizers); kerasish keeps both, so an unedited file resaves whole.
Reading refuses the same unsafe HDF5 content as loading a model does
(links, external and virtual datasets) and arrays over 4 GiB.
"""
import collections
import io
import json
import math
import zipfile

import numpy as np

from kerasish.saving import h5_store
from kerasish.backend.common.global_state import print_msg
import h5py
from kerasish.saving.file_utils import atomic_h5
from kerasish.saving import state_walk
from kerasish.optimizers.base_optimizer import Optimizer

_MAX_BYTES = 1 << 32


class KerasFileEditor:
    """Inspect, edit and resave the weights of a Keras file.

    Useful to adapt a saved weights file to a changed architecture.

    Args:
        filepath: Path of a `.keras` or `.weights.h5` file.

    Attributes:
        weights_dict: The weights tree (nested dicts of numpy arrays).
        config, metadata: The `.keras` file's config and metadata (None
            for a weights file).

    Example:

    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2),
    ...                              kerasish.layers.Dense(1)])
    >>> model.save_weights("model.weights.h5")
    >>> editor = KerasFileEditor("model.weights.h5")
    Keras model file 'model.weights.h5'
    >>> editor.summary()
    Weights structure
      > layers
          ├─ dense ('dense')
          │   ├─ 0: shape=(3, 2), dtype=float32
          │   └─ 1: shape=(2,), dtype=float32
          └─ dense_1 ('dense_1')
              ├─ 0: shape=(2, 1), dtype=float32
              └─ 1: shape=(1,), dtype=float32
    >>> editor.delete_object("layers/dense_1")
    >>> editor.add_object("layers/dense_1", {"0": np.ones((2, 4)),
    ...                                      "1": np.zeros(4)})
    >>> editor.save("edited.weights.h5")
    >>> wider = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2),
    ...                              kerasish.layers.Dense(4)])
    >>> wider.load_weights("edited.weights.h5")
    >>> wider.layers[1].kernel.shape
    (2, 4)
    """

    def __init__(self, filepath):
        self.filepath = filepath
        self.config = self.metadata = None
        self.model = None
        filepath = str(filepath)
        if filepath.endswith(".keras"):
            weights = self._read_keras_zip(filepath)
        elif filepath.endswith(".weights.h5"):
            with open(filepath, "rb") as f:
                weights = f.read()
        else:
            raise ValueError(
                "Invalid filename: expected a `.keras` `.weights.h5` "
                f"extension. Received: filepath={filepath}")
        with h5py.File(io.BytesIO(weights), "r") as f:
            self.object_metadata = {}
            self.weights_dict = self._read_group(f, "")
        print_msg(f"Keras model file '{self.filepath}'")
        if self.metadata is not None:
            print_msg(f"Saved with Keras {self.metadata.get('keras_version')}"
                      f" - date: {self.metadata.get('date_saved')}")

    def _read_keras_zip(self, filepath):
        with zipfile.ZipFile(filepath, "r") as zf:
            self.config = json.loads(zf.read("config.json"))
            if "metadata.json" in zf.namelist():
                self.metadata = json.loads(zf.read("metadata.json"))
            return zf.read("model.weights.h5")

    def _read_group(self, group, path):
        """The tree under an HDF5 group; `vars` datasets become arrays."""
        tree = collections.OrderedDict()
        if dict(group.attrs):
            self.object_metadata[path] = dict(group.attrs)
        # An object's own arrays (`vars`) first, then its children.
        for key in sorted(group.keys(), key=lambda k: k != "vars"):
            link = group.get(key, getclass=True, getlink=True)
            if link in (h5py.SoftLink, h5py.ExternalLink):
                h5_store._refuse(f"{path}/{key}", f"a {link.__name__}")
            child = group[key] if isinstance(group[key], h5py.Group) \
                else None
            if child is None:
                tree[key] = _read_dataset(group, key, f"{path}/{key}")
            elif key == "vars":
                if dict(child.attrs):
                    self.object_metadata[path] = dict(child.attrs)
                for name in child.keys():
                    tree[name] = _read_dataset(child, name,
                                               f"{path}/vars/{name}")
            else:
                sub = self._read_group(child, f"{path}/{key}")
                if sub:
                    tree[key] = sub
        return tree

    # -- inspecting --------------------------------------------------------
    def summary(self):
        """Print the weights tree (objects, array names, shapes, dtypes)."""
        print_msg("Weights structure")
        for line in _tree_lines(self.weights_dict, "  ", "",
                                self.object_metadata, first=True):
            print_msg(line)

    def compare(self, reference_model):
        """List the differences between the file and `reference_model`.

        Args:
            reference_model: The model to compare the file with.

        Returns:
            Dict with `"status"` (`"success"` or `"error"`),
            `"error_count"` (mismatches found) and `"match_count"`
            (weights present in both with the same shape).
        """
        print_msg("Running comparison")
        ref = weight_spec(reference_model)
        errors, matches = _compare(self.weights_dict, ref, "", "saved file",
                                   "reference model")
        extra, _ = _compare(ref, self.weights_dict, "", "reference model",
                            "saved file", report_shapes=False)
        errors += extra
        print_msg("\u2500" * 21)
        if errors == 0:
            print_msg("Comparison successful: saved file is compatible with "
                      "the reference model")
            print_msg(f"    Found {matches} matching weight"
                      f"{'' if matches == 1 else 's'}")
        else:
            print_msg(f"Found {errors} error{'' if errors == 1 else 's'}: "
                      "saved file is not compatible with the reference model")
        return {"status": "error" if errors else "success",
                "error_count": errors, "match_count": matches}

    # -- editing ------------------------------------------------------------
    def rename_object(self, object_name, new_name):
        """Rename an object (e.g. a layer).

        Args:
            object_name: Name (`"dense_2"`, must be unique in the file) or
                path (`"layers/dense_2"`) of the object.
            new_name: The new leaf name (not a path).
        """
        if "/" in new_name:
            raise ValueError(
                "Argument `target_name` should be a leaf name, not a full "
                f"path name. Received: target_name='{new_name}'")

        def rename(parent, key):
            parent[new_name] = parent.pop(key)
        self._edit(object_name, rename)

    def delete_object(self, object_name):
        """Remove an object (e.g. a layer) and its weights.

        Args:
            object_name: Name (`"dense_2"`) or path (`"layers/dense_2"`).
        """
        self._edit(object_name, lambda parent, key: parent.pop(key))

    def add_object(self, object_path, weights):
        """Add an object (e.g. a layer) with its weights.

        Args:
            object_path: Full path of the new object
                (`"layers/dense_2"`); its parents must exist.
            weights: Dict of weight name -> array (`{"0": kernel, ...}`).
        """
        _check_weights(weights)
        *parents, leaf = object_path.split("/")
        node = self.weights_dict
        for part in parents:
            if not isinstance(node.get(part), dict):
                raise ValueError(
                    f"Path '{'/'.join(parents)}' not found in model.")
            node = node[part]
        node[leaf] = {str(k): np.asarray(v) for k, v in weights.items()}

    def delete_weight(self, object_name, weight_name):
        """Remove one weight (e.g. `"0"`) of an object.

        Args:
            object_name: Name or path of the object.
            weight_name: Name of the weight to remove.
        """
        def delete(parent, key):
            if weight_name not in parent[key]:
                raise ValueError(
                    f"Weight {weight_name} not found in object "
                    f"{object_name}. Weights found: {list(parent[key])}")
            parent[key].pop(weight_name)
        self._edit(object_name, delete)

    def add_weights(self, object_name, weights):
        """Add (or replace) weights of an existing object.

        Args:
            object_name: Name or path of the object.
            weights: Dict of weight name -> array.
        """
        _check_weights(weights)
        self._edit(object_name, lambda parent, key: parent[key].update(
            {str(k): np.asarray(v) for k, v in weights.items()}))

    def _edit(self, object_name, edit):
        """Apply `edit(parent_dict, key)` to the named object."""
        if "/" in object_name:
            *parents, leaf = object_name.split("/")
            node = self.weights_dict
            for part in parents:
                node = node.get(part) if isinstance(node, dict) else None
            if not isinstance(node, dict) or leaf not in node:
                raise ValueError(f"Path '{object_name}' not found in model.")
            edit(node, leaf)
            return
        parents = list(_parents_of(self.weights_dict, object_name))
        if len(parents) > 1:
            raise ValueError(
                f"Name '{object_name}' occurs more than once in the model; "
                "try passing a complete path")
        if not parents:
            raise ValueError(
                f"Source name '{object_name}' does not appear in the model. "
                "Use `editor.summary()` to list all objects.")
        edit(parents[0], object_name)

    # -- writing ------------------------------------------------------------
    def save(self, filepath):
        """Write the edited weights to a `.weights.h5` file (atomically).

        Args:
            filepath: Destination path, ending in `.weights.h5`.
        """
        filepath = str(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError(
                "Invalid `filepath` argument: expected a `.weights.h5` "
                f"extension. Received: filepath={filepath}")
        with atomic_h5(filepath) as f:
            _write(f, self.weights_dict)

    def resave_weights(self, filepath):
        """Same as `save(filepath)`."""
        self.save(filepath)


def _read_dataset(group, key, path):
    dataset = h5_store._checked_dataset(group, key)
    if any(d < 0 for d in dataset.shape) or len(dataset.shape) > 64:
        raise ValueError(f"Malformed HDF5 dataset shape at '{path}': "
                         f"{dataset.shape}.")
    size = math.prod(dataset.shape) * dataset.dtype.itemsize
    if size > _MAX_BYTES:
        raise ValueError(f"HDF5 dataset too large to load safely ({size} "
                         f"bytes; limit is {_MAX_BYTES}) at '{path}'.")
    value = dataset[()]
    h5_store.verify(dataset, np.asarray(value))
    return value


def _check_weights(weights):
    if not isinstance(weights, dict):
        raise ValueError(
            "Argument `weights` should be a dict where keys are weight names "
            "(usually '0', '1', etc.) and values are NumPy arrays. "
            f"Received: type(weights)={type(weights)}")


def _parents_of(tree, name):
    """Every dict of the tree that holds a key `name`."""
    if name in tree:
        yield tree
    for value in tree.values():
        if isinstance(value, dict):
            yield from _parents_of(value, name)


def _write(h5file, tree, path=""):
    arrays = {k: v for k, v in tree.items() if not isinstance(v, dict)}
    if arrays:
        group = h5file.require_group(f"{path}/vars" if path else "vars")
        for name, value in arrays.items():
            h5_store.write_array(group, name, value)
    for name, value in tree.items():
        if isinstance(value, dict) and value:
            _write(h5file, value, f"{path}/{name}" if path else name)


def _tree_lines(tree, prefix, path, metadata, first=False):
    items = list(tree.items())
    for i, (key, value) in enumerate(items):
        last = i == len(items) - 1
        connector = "> " if first and i == 0 else \
            ("\u2514\u2500 " if last else "\u251c\u2500 ")
        child_path = f"{path}/{key}"
        if isinstance(value, dict):
            name = metadata.get(child_path, {}).get("name")
            yield f"{prefix}{connector}{key}" + \
                (f" ('{name}')" if name is not None else "")
            yield from _tree_lines(value, prefix + ("    " if last else
                                                    "\u2502   "),
                                   child_path, metadata)
        else:
            yield (f"{prefix}{connector}{key}: shape={value.shape}, "
                   f"dtype={value.dtype}")


def weight_spec(model):
    """The weights tree `model` would save, with shapes instead of arrays.
    """
    spec = collections.OrderedDict()
    for path, obj in state_walk.walk(model):
        store = {}
        if hasattr(obj, "save_own_variables") and not \
                isinstance(obj, _optimizer_class()):
            obj.save_own_variables(store)
        else:
            for i, v in enumerate(state_walk.own_variables(obj)):
                store[str(i)] = v
        if not store:
            continue
        node = spec
        for part in [p for p in path.split("/") if p]:
            node = node.setdefault(part, collections.OrderedDict())
        for key in sorted(store):
            node[key] = tuple(np.shape(store[key]))
    return spec


def _optimizer_class():
    return Optimizer


def _compare(target, ref, path, target_name, ref_name, report_shapes=True):
    """`(errors, matches)` of `target` against `ref`, reporting each."""
    errors = matches = 0
    for key, ref_value in ref.items():
        inner = f"{path}/{key}"
        if key not in target:
            errors += 1
            what = "Object" if isinstance(ref_value, dict) else "Weight"
            print_msg(f"...{what} {inner} present in {ref_name}, missing "
                      f"from {target_name}")
            if isinstance(ref_value, dict):
                print_msg(f"    In {ref_name}, {inner} contains the "
                          f"following keys: {list(ref_value)}")
        elif isinstance(ref_value, dict):
            e, m = _compare(target[key], ref_value, inner, target_name,
                            ref_name, report_shapes)
            errors, matches = errors + e, matches + m
        elif report_shapes:
            ref_shape, target_shape = _shape(ref_value), _shape(target[key])
            if ref_shape != target_shape:
                errors += 1
                print_msg(f"...Weight shape mismatch for {inner}\n"
                          f"    In {ref_name}: shape={ref_shape}\n"
                          f"    In {target_name}: shape={target_shape}")
            else:
                matches += 1
    return errors, matches


def _shape(value):
    return tuple(value) if isinstance(value, tuple) else tuple(value.shape)
