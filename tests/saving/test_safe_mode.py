"""Loading never executes code from a file, for every known attack shape.

Each malicious file below reproduces one published Keras loader hole:

- CVE-2024-3660: a Lambda layer carrying Python bytecode;
- CVE-2025-1550: a config naming an arbitrary module and function
  (`os.system`, `builtins.exec`) for Keras to import and call;
- CVE-2025-8747 / CVE-2025-9906: a Lambda whose function is a library
  function (`enable_unsafe_deserialization`, `get_file`) that the model
  graph calls while it is rebuilt, turning safe mode off (or writing
  files) before a second, bytecode Lambda loads;
- CVE-2025-9905: the legacy `.h5` loader ignoring safe mode (Keras 2's
  list-form Lambda bytecode).

Every shape is written as `.keras`, legacy `.h5` and JSON. Loading must
refuse with a clear error, create no marker file (the payload's side
effect) and leave safe mode on. Only Lambda bytecode can ever load, with
an explicit `safe_mode=False`.
"""
import base64
import io
import json
import marshal
import os
import re
import zipfile

import h5py
import numpy as np
import pytest

import kerasish
from kerasish.saving import safe_mode
from kerasish.saving.safe_mode import SafeModeError

FORMATS = [".keras", ".h5", ".json"]


def _bytecode(marker):
    """Keras's base64 marshal of a lambda that creates `marker`."""
    fn = eval(  # noqa: S307 - building the attacker's payload
        f"lambda x: (open({marker!r}, 'w').close(), x)[1]")
    return base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii")


def _tensor(name):
    return {"class_name": "__keras_tensor__",
            "config": {"shape": [None, 3], "dtype": "float32",
                       "keras_history": [name, 0, 0]}}


def _input():
    return {"module": "keras.layers", "class_name": "InputLayer",
            "config": {"batch_shape": [None, 3], "dtype": "float32",
                       "name": "x"},
            "registered_name": None, "name": "x", "inbound_nodes": []}


def _chain(entries):
    """A functional model config: x -> entries[0] -> entries[1] ..."""
    layers, previous = [_input()], "x"
    for i, entry in enumerate(entries):
        name = f"evil_{i}"
        entry = dict(entry, name=name,
                     inbound_nodes=[{"args": [_tensor(previous)],
                                     "kwargs": {}}])
        entry["config"] = dict(entry["config"], name=name) \
            if isinstance(entry["config"], dict) else entry["config"]
        layers.append(entry)
        previous = name
    return {"module": "keras.src.models.functional",
            "class_name": "Functional", "registered_name": "Functional",
            "config": {"name": "evil", "trainable": True, "layers": layers,
                       "input_layers": [["x", 0, 0]],
                       "output_layers": [[previous, 0, 0]]}}


def _lambda(function, **config):
    return {"module": "keras.layers", "class_name": "Lambda",
            "config": {"function": function, "arguments": {}, **config},
            "registered_name": None}


def _dense(activation):
    return {"module": "keras.layers", "class_name": "Dense",
            "config": {"units": 2, "activation": activation},
            "registered_name": None}


def _function(module, name):
    return {"module": module, "class_name": "function", "config": name,
            "registered_name": name}


def attacks(marker):
    code = _bytecode(marker)
    bytecode = {"class_name": "__lambda__",
                "config": {"code": code, "defaults": None, "closure": None}}
    return {
        "cve_2024_3660_lambda_bytecode": _chain([_lambda(bytecode)]),
        "cve_2024_3660_bytecode_activation": _chain([_dense(
            {"class_name": "__lambda__",
             "config": {"value": [code, None, None]}})]),
        "cve_2025_9905_keras2_list_lambda": _chain([{
            "class_name": "Lambda",
            "config": {"function": [code, None, None],
                       "function_type": "lambda", "module": "__main__",
                       "output_shape": None, "output_shape_type": "raw",
                       "arguments": {}}}]),
        "cve_2025_1550_os_system_class": _chain([{
            "module": "os", "class_name": "system",
            "config": {"command": f"touch {marker}"},
            "registered_name": "system"}]),
        "cve_2025_1550_exec_function": _chain([_dense(
            _function("builtins", "exec"))]),
        "cve_2025_1550_os_system_function": _chain([_lambda(
            _function("os", "system"),
            arguments={"command": f"touch {marker}"})]),
        "cve_2025_8747_keras_unsafe_then_bytecode": _chain([
            _lambda(_function("keras.config",
                              "enable_unsafe_deserialization")),
            _lambda(bytecode)]),
        "cve_2025_9906_kerasish_unsafe_then_bytecode": _chain([
            _lambda(_function("kerasish.config",
                              "enable_unsafe_deserialization")),
            _lambda(bytecode)]),
        "cve_2025_8747_get_file": _chain([_lambda(
            _function("keras.utils", "get_file"),
            arguments={"fname": marker, "origin": "file:///etc/hostname"})]),
    }


def _legacy(config):
    """Keras's legacy `.h5` form: no module / registered_name at top."""
    layers = [{k: v for k, v in entry.items()
               if k not in ("module", "registered_name")}
              for entry in config["config"]["layers"]]
    return {"class_name": config["class_name"],
            "config": dict(config["config"], layers=layers)}


def write(config, folder, ext):
    path = os.path.join(folder, "evil" + ext)
    if ext == ".json":
        with open(path, "w") as f:
            json.dump(config, f)
    elif ext == ".keras":
        weights = io.BytesIO()
        with h5py.File(weights, "w"):
            pass
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("metadata.json", '{"keras_version": "3.15.1"}')
            zf.writestr("config.json", json.dumps(config))
            zf.writestr("model.weights.h5", weights.getvalue())
    else:
        with h5py.File(path, "w") as f:
            f.attrs["keras_version"] = "3.15.1"
            f.attrs["backend"] = "jax"
            f.attrs["model_config"] = json.dumps(_legacy(config))
            group = f.create_group("model_weights")
            group.attrs["layer_names"] = []
    return path


def load(path, **kwargs):
    if path.endswith(".json"):
        with open(path) as f:
            return kerasish.models.model_from_json(f.read(), **kwargs)
    return kerasish.models.load_model(path, **kwargs)


ATTACKS = sorted(attacks("marker"))


@pytest.mark.parametrize("ext", FORMATS)
@pytest.mark.parametrize("attack", ATTACKS)
def test_malicious_file_is_refused_without_side_effect(tmp_path, attack,
                                                       ext):
    marker = str(tmp_path / "pwned")
    path = write(attacks(marker)[attack], str(tmp_path), ext)
    with pytest.raises((ValueError, TypeError)) as error:
        model = load(path)
        model.predict(np.ones((1, 3), "float32"), verbose=0)
    message = str(error.value)
    assert "safe mode" in message or "never imports" in message, message
    assert not os.path.exists(marker)
    assert safe_mode.in_safe_mode()


@pytest.mark.parametrize("ext", FORMATS)
@pytest.mark.parametrize("attack", [a for a in ATTACKS
                                    if "bytecode" not in a and
                                    "lambda" not in a])
def test_named_code_is_refused_even_outside_safe_mode(tmp_path, attack,
                                                      ext):
    # safe_mode=False allows bytecode the caller chose to trust; it never
    # makes kerasish import a module or function named in the file.
    marker = str(tmp_path / "pwned")
    path = write(attacks(marker)[attack], str(tmp_path), ext)
    kwargs = {} if ext == ".json" else {"safe_mode": False}
    with pytest.raises((ValueError, TypeError), match="never imports"):
        with safe_mode.SafeModeScope(False):
            load(path, **kwargs)
    assert not os.path.exists(marker)


@pytest.mark.parametrize("ext", [".keras", ".h5"])
def test_bytecode_runs_only_when_the_caller_opts_out(tmp_path, ext):
    # The payload is real: with safe_mode=False it runs (Keras rebuilds
    # the graph by calling the Lambda), which is why it is refused above.
    marker = str(tmp_path / "pwned")
    config = attacks(marker)["cve_2024_3660_lambda_bytecode"]
    path = write(config, str(tmp_path), ext)
    with pytest.raises(SafeModeError, match="safe_mode=False"):
        load(path)
    assert not os.path.exists(marker)
    load(path, safe_mode=False)
    assert os.path.exists(marker)
    assert safe_mode.in_safe_mode()


def test_lambda_round_trip_requires_opt_out(tmp_path):
    inputs = kerasish.Input((3,))
    outputs = kerasish.layers.Dense(2, activation=lambda x: x * 2.0)(inputs)
    model = kerasish.Model(inputs, outputs)
    path = str(tmp_path / "m.keras")
    model.save(path)
    with pytest.raises(SafeModeError):
        kerasish.models.load_model(path)
    loaded = kerasish.models.load_model(path, safe_mode=False)
    x = np.ones((1, 3), "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


def test_hdf5_links_to_other_files_are_refused(tmp_path):
    secret = str(tmp_path / "secret.h5")
    with h5py.File(secret, "w") as f:
        f["data"] = np.arange(6, dtype="float32").reshape(2, 3)
    model = kerasish.Sequential([kerasish.Input((2,)),
                                 kerasish.layers.Dense(3)])
    path = str(tmp_path / "w.weights.h5")
    model.save_weights(path)
    with h5py.File(path, "a") as f:
        group = f["layers/dense/vars"]
        del group["0"]
        group["0"] = h5py.ExternalLink(secret, "data")
    before = model.get_weights()
    with pytest.raises(ValueError, match="ExternalLink"):
        model.load_weights(path)
    for a, b in zip(model.get_weights(), before):
        np.testing.assert_array_equal(a, b)


# The one reader of pickles: Keras's CIFAR batches and imdb/reuters object
# arrays only exist pickled. Its `RestrictedUnpickler.find_class` admits the
# numpy array-rebuilding globals only (tests/datasets/test_cifar.py proves a
# pickle naming anything else is refused).
PICKLE_READERS = {os.path.join("datasets", "cifar.py")}
# The one user of `exec`: compiled steps are written out as Python made of
# generated names and numbers only (tests/backend/test_capture_codegen.py
# checks that names from operations cannot add code).
EXEC_USERS = {os.path.join("backend", "capture_codegen.py")}


def test_no_pickle_or_eval_in_kerasish():
    root = os.path.dirname(kerasish.__file__)
    forbidden = re.compile(r"\bimport (pickle|dill|cloudpickle)\b|"
                           r"\bpickle\.|allow_pickle=True|"
                           r"(?<![\w.])(eval|exec)\(")
    for folder, _, files in os.walk(root):
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), root)
            if not name.endswith(".py") or relative in PICKLE_READERS:
                continue
            with open(os.path.join(folder, name)) as f:
                found = forbidden.findall(f.read())
            if relative in EXEC_USERS:
                assert found == [("", "exec")], f"{name} uses {found}"
                continue
            assert not found, f"{name} uses {found}"
    assert forbidden.search("x = eval(text)")
    assert not forbidden.search("_should_eval(epoch)")
