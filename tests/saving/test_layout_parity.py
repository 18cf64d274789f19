"""Files kerasish writes have the layout of the files Keras 3 writes.

Each family is built and trained with kerasish by the same code that
produced the Keras fixtures, saved in every format, and compared with the
Keras-written file: zip members, config.json, metadata keys, every HDF5
group and dataset (path, shape, dtype, attributes), the legacy `.h5` root
attributes and their JSON configs. Weight *values* differ (kerasish draws
its own initial weights); test_keras_loads_kerasish checks values.

Tolerated differences, each harmless to Keras's loader:
- `shared_object_id` (Keras tags its shared global dtype policy object;
  the value is a memory address);
- the `backend` attribute's value ("numpy" instead of "jax");
- node kwargs `mask` / `training`, which Keras records as resolved while
  building and overrides on every call;
- an extra `build_config` on a layer Keras builds in its constructor
  (Keras writes none there);
- the Python `module` of a user-registered class (the import path of
  the defining file), and a `build_config` kerasish adds to the legacy
  config of a subclassed model so that its `.h5` file can be reloaded.
"""
import json

import h5py
import pytest

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
        case.model.save(base + ".keras")
        case.model.save(base + ".h5")
        case.model.save_weights(base + ".weights.h5")
        out[name] = base
    return out


@pytest.mark.parametrize("name", interop.NAMES)
def test_keras_zip_matches(written, name):
    ours = interop.keras_zip(written[name] + ".keras")
    keras = interop.keras_zip(interop.path(name, ".keras"))
    assert ours[0] == keras[0]                          # zip members
    assert_same(ours[1], keras[1])                      # config.json
    assert set(keras[2]) <= set(ours[2])                # metadata keys
    assert ours[2]["keras_version"] == keras[2]["keras_version"]
    assert_same(ours[3], keras[3])                      # model.weights.h5


@pytest.mark.parametrize("name", interop.NAMES)
def test_weights_h5_matches(written, name):
    assert_same(interop.h5_layout(written[name] + ".weights.h5"),
                interop.h5_layout(interop.path(name, ".weights.h5")))


def _legacy_layout(source):
    layout = interop.h5_layout(source, skip_attrs=("backend",))
    root = layout["/"][3]
    for key in ("model_config", "training_config"):
        if key in root:
            root[key] = json.loads(root[key])
    return layout


@pytest.mark.parametrize("name", interop.NAMES)
def test_legacy_h5_matches(written, name):
    ours = _legacy_layout(written[name] + ".h5")
    keras = _legacy_layout(interop.path(name, ".h5"))
    assert_same(ours, keras)
    with h5py.File(written[name] + ".h5", "r") as f:
        assert "backend" in f.attrs and "backend" in f["model_weights"].attrs


def test_diff_reports_what_differs():
    diff = Diff()
    diff.compare({"a": [1, 2], "b": {"units": 3}, "kwargs": {}},
                 {"a": [1, 2, 3], "b": {"units": 4}, "c": 0,
                  "kwargs": {"mask": None}})
    assert diff.problems == ["/a: length 2 vs Keras 3", "/b/units: 3 vs "
                             "Keras 4", "/c: missing (Keras has 0)"]
