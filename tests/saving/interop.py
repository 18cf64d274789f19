"""Shared helpers of the Keras interoperability tests.

The Keras-written fixtures live in tests/fixtures/keras (see
tests/fixtures/make_fixtures.py); the families they come from are built
here with kerasish by the same code (tests/fixtures/families.py).
"""
import io
import json
import os
import zipfile

import h5py
import numpy as np

import kerasish
from kerasish import tree
from kerasish.saving import op_registry
from tests.fixtures import families
from tests.fixtures.npz_struct import numbered, unflatten

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "fixtures", "keras")

with open(os.path.join(FIXTURES, "manifest.json")) as _f:
    MANIFEST = json.load(_f)

NAMES = sorted(MANIFEST["families"])


def with_format(ext):
    """The families whose fixtures include a file of format `ext`."""
    return [name for name in NAMES if ext in info(name)["formats"]]


def path(name, ext):
    return os.path.join(FIXTURES, name + ext)


def info(name):
    return MANIFEST["families"][name]


class Expected:
    """What Keras computed for a family (from its `.npz`)."""

    def __init__(self, name):
        arrays = np.load(path(name, ".npz"))
        structure = info(name)["structure"]
        self.x = unflatten(arrays, "x", structure["x"])
        self.pred = unflatten(arrays, "pred", structure["pred"])
        self.y = unflatten(arrays, "y", structure["y"]) \
            if "y" in structure else None
        self.weights = numbered(arrays, "weight")
        self.optimizer = numbered(arrays, "opt")
        self.after = numbered(arrays, "after")


def assert_allclose_tree(got, expected, atol=1e-5, rtol=1e-5):
    got, expected = tree.flatten(got), tree.flatten(expected)
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(np.asarray(a, "float64"),
                                   np.asarray(b, "float64"),
                                   atol=atol, rtol=rtol)


def build(name):
    """The family built (and trained) with kerasish, as in the fixtures."""
    kerasish.utils.set_random_seed(1234)
    kerasish.backend.clear_session()
    case = families.FAMILIES[name](kerasish)
    families.train(case)
    return case


def custom_objects(name):
    return families.custom_objects(name, kerasish)


# -- file layouts -------------------------------------------------------------
def _attr(value):
    if isinstance(value, bytes):
        return value.decode("utf8")
    if isinstance(value, np.ndarray):
        return [_attr(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value


OURS = "kerasish_"   # checksum attributes: h5_store.CHECKSUM_ATTR, ...


def h5_layout(source, skip_attrs=()):
    """`{path: (kind, shape, dtype, attrs)}` of every object in an HDF5.

    kerasish's checksum attributes (`kerasish_*`, which Keras ignores) are
    left out: they are all kerasish adds to Keras's layout.
    """
    layout = {}
    with h5py.File(source, "r") as f:
        def visit(name, obj):
            attrs = {k: _attr(v) for k, v in obj.attrs.items()
                     if k not in skip_attrs and not k.startswith(OURS)}
            if isinstance(obj, h5py.Dataset):
                layout[name] = ("dataset", obj.shape, str(obj.dtype), attrs)
            else:
                layout[name] = ("group", None, None, attrs)
        f.visititems(visit)
        layout["/"] = ("root", None, None,
                       {k: _attr(v) for k, v in f.attrs.items()
                        if k not in skip_attrs and not k.startswith(OURS)})
    return layout


def keras_zip(source):
    """`(member names, config, metadata, weights layout)` of a `.keras`."""
    with zipfile.ZipFile(source) as zf:
        names = sorted(zf.namelist())
        config = json.loads(zf.read("config.json"))
        metadata = json.loads(zf.read("metadata.json"))
        weights = h5_layout(io.BytesIO(zf.read("model.weights.h5")))
    return names, config, metadata, weights


def keras_folder(source):
    """Like `keras_zip`, for a model saved with `zipped=False`."""
    # git keeps no empty folder, so an empty `assets/` is not compared.
    names = sorted(name for name in os.listdir(source)
                   if not os.path.isdir(os.path.join(source, name))
                   or os.listdir(os.path.join(source, name)))
    with open(os.path.join(source, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(source, "metadata.json")) as f:
        metadata = json.load(f)
    weights = h5_layout(os.path.join(source, "model.weights.h5"))
    return names, config, metadata, weights


# -- comparing configs -------------------------------------------------------
TOLERATED_NODE_KWARGS = {"mask", "training"}


def _is_float(x):
    return isinstance(x, float)


class Diff:
    """Collect differences between a kerasish and a Keras structure.

    Differences harmless to both loaders are tolerated (see
    test_layout_parity's docstring): `shared_object_id`, node kwargs
    `mask`/`training`, `build_config` presence, a known dimension where
    Keras's symbolic shape has None, and the Python module of a user's
    registered class.
    """

    def __init__(self):
        self.problems = []

    def compare(self, ours, keras, path=""):
        if isinstance(ours, dict) and isinstance(keras, dict):
            return self._dicts(ours, keras, path)
        if isinstance(ours, (list, tuple)) and \
                isinstance(keras, (list, tuple)):
            if len(ours) != len(keras):
                self.problems.append(f"{path}: length {len(ours)} vs Keras "
                                     f"{len(keras)}")
                return
            for i, (a, b) in enumerate(zip(ours, keras)):
                self.compare(a, b, f"{path}[{i}]")
            return
        if _is_float(ours) and _is_float(keras):
            if abs(ours - keras) > 1e-6 * max(1.0, abs(keras)):
                self.problems.append(f"{path}: {ours!r} vs Keras {keras!r}")
            return
        if keras is None and isinstance(ours, int) and \
                "/config/shape[" in path:
            return
        if ours != keras:
            self.problems.append(f"{path}: {ours!r:.120} vs Keras "
                                 f"{keras!r:.120}")

    def _tolerated(self, key, path):
        return key in ("shared_object_id", "build_config") or (
            key in TOLERATED_NODE_KWARGS and path.endswith("/kwargs"))

    def _dicts(self, ours, keras, path):
        for key in sorted(set(ours) | set(keras), key=str):
            where = f"{path}/{key}"
            if key not in ours or key not in keras:
                if not self._tolerated(key, path):
                    side = "missing (Keras has " if key not in ours \
                        else "extra ("
                    value = keras[key] if key not in ours else ours[key]
                    self.problems.append(f"{where}: {side}{value!r:.120})")
            elif key == "shared_object_id" or (
                    key == "module" and ">" in str(ours.get(
                        "registered_name"))):
                continue
            else:
                self.compare(ours[key], keras[key], where)


# -- normalizing what Keras records differently ------------------------------
def _refs(value, skip_mask=False):
    """Layer names referenced by `__keras_tensor__` entries in `value`."""
    if isinstance(value, dict):
        if value.get("class_name") == "__keras_tensor__":
            return {value["config"]["keras_history"][0]}
        return set().union(*[_refs(v, skip_mask) for k, v in value.items()
                             if not (skip_mask and k == "mask")] or [set()])
    if isinstance(value, list):
        return set().union(*[_refs(v, skip_mask) for v in value] or [set()])
    return set()


def _is_op(entry):
    if "module" not in entry:
        return op_registry.is_legacy_op_entry(entry)
    return str(entry["module"] or "").startswith("keras.src.ops")


def drop_mask_ops(config):
    """A model config without the op nodes Keras records for masks.

    Keras 3 traces a layer's mask computation (`ops.not_equal`, `ops.any`)
    into the graph and passes its output as `mask=`; kerasish carries
    masks along with tensors. Op nodes used only for masks are dropped.
    """
    layers = config["layers"]
    ops = {entry["name"] for entry in layers if _is_op(entry)}
    used = {ref[0] for ref in tree.flatten(config["output_layers"])
            if isinstance(ref, str)}
    changed = True
    while changed:
        before = len(used)
        for entry in layers:
            if entry["name"] in ops and entry["name"] not in used:
                continue
            used |= _refs(entry.get("inbound_nodes", []), skip_mask=True)
        changed = len(used) != before
    config = dict(config)
    config["layers"] = [entry for entry in layers
                        if entry["name"] not in ops or entry["name"] in used]
    return config


def without_empty_groups(layout):
    """An HDF5 layout without groups that hold no dataset below them
    (the `vars` of weightless sublayers, like MultiHeadAttention's
    private softmax in Keras)."""
    datasets = [path for path, entry in layout.items()
                if entry[0] == "dataset"]
    return {path: entry for path, entry in layout.items()
            if entry[0] != "group" or
            any(d.startswith(path + "/") for d in datasets)}
