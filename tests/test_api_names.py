"""Keras 3's top-level, `keras.utils` and `keras.backend` names exist here.

The name lists were produced with real Keras 3.15.1
(`[n for n in dir(keras.<ns>) if not n.startswith("_")]`), keeping the
names this round implements (namespaces still being built are left out).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import kerasish

TOP_LEVEL = [
    "DTypePolicy", "FloatDTypePolicy", "Function", "Initializer", "Input",
    "InputSpec", "KerasTensor", "Layer", "Loss", "Metric", "Model",
    "Operation", "Optimizer", "Quantizer", "Regularizer", "RematScope",
    "Sequential", "StatelessScope", "SymbolicScope", "Variable", "device",
    "distillation", "distribution", "legacy", "name_scope", "remat",
    "wrappers"]
UTILS = ["Config", "CustomObjectScope", "clear_session",
         "custom_object_scope", "deserialize_keras_object",
         "get_source_inputs", "is_keras_tensor", "legacy",
         "serialize_keras_object", "standardize_dtype"]
BACKEND = ["clear_session", "get_uid", "is_keras_tensor",
           "standardize_dtype"]


@pytest.mark.parametrize("namespace, names", [
    ("", TOP_LEVEL), ("utils", UTILS), ("backend", BACKEND)])
def test_names_exist(namespace, names):
    module = getattr(kerasish, namespace) if namespace else kerasish
    missing = [n for n in names if not hasattr(module, n)]
    assert missing == []


def test_lazy_names_are_listed_and_resolve_to_their_classes():
    from kerasish.engine.function import Function
    from kerasish.ops.operation import Operation
    from kerasish.initializers import Initializer
    assert {"Function", "StatelessScope", "legacy"} <= set(dir(kerasish))
    assert kerasish.Function is Function
    assert kerasish.Operation is Operation
    assert kerasish.Initializer is Initializer
    assert kerasish.legacy.saving.serialize_keras_object is \
        kerasish.utils.legacy.serialize_keras_object
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kerasish.nope


def test_top_level_scopes_are_the_engine_ones():
    from kerasish.backend.common import scopes
    for name in ("name_scope", "device", "RematScope", "remat",
                 "StatelessScope", "SymbolicScope"):
        assert getattr(kerasish, name) is getattr(scopes, name)


def test_models_save_model_round_trips(tmp_path):
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(2)])
    path = os.path.join(tmp_path, "m.keras")
    kerasish.models.save_model(model, path)
    loaded = kerasish.models.load_model(path)
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               model.predict(x, verbose=0))


def test_clone_model_keeps_the_compile_config():
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(2)])
    assert not kerasish.models.clone_model(model).compiled
    model.compile(optimizer=kerasish.optimizers.SGD(0.5), loss="mae",
                  metrics=["mse"])
    clone = kerasish.models.clone_model(model)
    assert clone.compiled and clone.optimizer is not model.optimizer
    assert clone.get_compile_config() == model.get_compile_config()
    logs = clone.evaluate(np.ones((2, 3)), np.ones((2, 2)), verbose=0,
                          return_dict=True)
    assert sorted(logs) == ["loss", "mse"]


def test_new_names_stay_out_of_the_import_path():
    code = ("import sys, kerasish; print(sorted(m for m in sys.modules if "
            "m in ('kerasish.backend.common.scopes', 'kerasish.legacy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
