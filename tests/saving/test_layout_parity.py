"""Files kerasish writes have the layout of the files Keras 3 writes.

Each family is built and trained with kerasish by the same code that
produced the Keras fixtures, saved in every format, and compared with the
Keras-written file: zip members, config.json, metadata keys, every HDF5
group and dataset (path, shape, dtype, attributes), the legacy `.h5` root
attributes and their JSON configs. Weight *values* differ (kerasish draws
its own initial weights); test_keras_loads_kerasish checks values.

Tolerated differences, each harmless to Keras's loader and to kerasish's
(the Keras-loads-kerasish and kerasish-loads-Keras tests prove it):
- `shared_object_id` (Keras tags its shared global dtype policy object;
  the value is a memory address);
- the `backend` attribute's value ("numpy" instead of "jax");
- node kwargs `mask` / `training`, which Keras records as resolved while
  building and overrides on every call, and the op nodes Keras traces to
  compute those masks (`NotEqual`, `Any`); kerasish carries masks along
  with the tensors;
- whether a layer entry has a `build_config` (Keras rebuilds functional
  layers by calling them; the weights layouts below are compared in full);
- a dimension kerasish knows where Keras's symbolic shape says None;
- groups holding no dataset (the `vars` of weightless sublayers);
- the Python `module` of a user-registered class (the import path of
  the defining file), and a `build_config` kerasish adds to the legacy
  config of a subclassed model so that its `.h5` file can be reloaded.
"""
import json

import h5py
import pytest

from tests.fixtures import families
from tests.saving import interop
from tests.saving.interop import Diff


def assert_same(ours, keras):
    diff = Diff()
    diff.compare(ours, keras)
    assert not diff.problems, "\n".join(diff.problems)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every family saved by kerasish in every format (built once)."""
    folder = tmp_path_factory.mktemp("kerasish_files")
    out = {}
    for name in interop.NAMES:
        case = interop.build(name)
        base = str(folder / name)
        for ext in case.formats:
            families.save(case.model, base + ext)
        out[name] = base
    return out


def _model_config(config):
    """Normalize a serialized model the way the docstring explains."""
    inner = config.get("config")
    if isinstance(inner, dict) and "output_layers" in inner:
        config = dict(config, config=interop.drop_mask_ops(inner))
    return config


def _weights(layout):
    return interop.without_empty_groups(layout)


@pytest.mark.parametrize("name", interop.NAMES)
def test_keras_zip_matches(written, name):
    ours = interop.keras_zip(written[name] + ".keras")
    keras = interop.keras_zip(interop.path(name, ".keras"))
    assert ours[0] == keras[0]                          # zip members
    assert_same(_model_config(ours[1]), _model_config(keras[1]))
    assert set(keras[2]) <= set(ours[2])                # metadata keys
    assert ours[2]["keras_version"] == keras[2]["keras_version"]
    assert_same(_weights(ours[3]), _weights(keras[3]))  # model.weights.h5


@pytest.mark.parametrize("name", interop.with_format(".weights.h5"))
def test_weights_h5_matches(written, name):
    assert_same(_weights(interop.h5_layout(written[name] + ".weights.h5")),
                _weights(interop.h5_layout(interop.path(name,
                                                        ".weights.h5"))))


def _legacy_layout(source):
    layout = _weights(interop.h5_layout(source, skip_attrs=("backend",)))
    root = layout["/"][3]
    for key in ("model_config", "training_config"):
        if key in root:
            root[key] = json.loads(root[key])
    if "model_config" in root:
        root["model_config"] = _model_config(root["model_config"])
    return layout


@pytest.mark.parametrize("name", interop.with_format(".h5"))
def test_legacy_h5_matches(written, name):
    ours = _legacy_layout(written[name] + ".h5")
    keras = _legacy_layout(interop.path(name, ".h5"))
    assert_same(ours, keras)
    with h5py.File(written[name] + ".h5", "r") as f:
        assert "backend" in f.attrs and "backend" in f["model_weights"].attrs


@pytest.mark.parametrize("name", interop.with_format("_dir"))
def test_unzipped_folder_matches(written, name):
    ours = interop.keras_folder(written[name] + "_dir")
    keras = interop.keras_folder(interop.path(name, "_dir"))
    assert ours[0] == keras[0]                          # folder members
    assert_same(_model_config(ours[1]), _model_config(keras[1]))
    assert_same(_weights(ours[3]), _weights(keras[3]))


def test_diff_reports_what_differs():
    diff = Diff()
    diff.compare({"a": [1, 2], "b": {"units": 3}, "kwargs": {}},
                 {"a": [1, 2, 3], "b": {"units": 4}, "c": 0,
                  "kwargs": {"mask": None}})
    assert diff.problems == ["/a: length 2 vs Keras 3", "/b/units: 3 vs "
                             "Keras 4", "/c: missing (Keras has 0)"]


def test_mask_op_nodes_are_dropped():
    def node(*names, mask=None):
        args = [{"class_name": "__keras_tensor__",
                 "config": {"keras_history": [n, 0, 0]}} for n in names]
        kwargs = {} if mask is None else {"mask": {
            "class_name": "__keras_tensor__",
            "config": {"keras_history": [mask, 0, 0]}}}
        return [{"args": args, "kwargs": kwargs}]
    config = {"output_layers": [["out", 0, 0]], "layers": [
        {"name": "x", "module": "keras.layers", "inbound_nodes": []},
        {"name": "not_equal", "module": "keras.src.ops.numpy",
         "inbound_nodes": node("x")},
        {"name": "exp", "module": "keras.src.ops.numpy",
         "inbound_nodes": node("x")},
        {"name": "out", "module": "keras.layers",
         "inbound_nodes": node("exp", mask="not_equal")}]}
    kept = [e["name"] for e in interop.drop_mask_ops(config)["layers"]]
    assert kept == ["x", "exp", "out"]
