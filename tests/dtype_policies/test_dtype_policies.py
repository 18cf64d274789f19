"""`kerasish.dtype_policies` and `kerasish.mixed_precision`: names,
dtypes, configs and error messages as Keras 3.15.1 gives them (checked in
the Keras venv)."""
import json
import subprocess
import sys

import pytest

import kerasish
from kerasish import dtype_policies as dp


@pytest.fixture
def reset_policy():
    yield
    kerasish.config.set_dtype_policy(None)


@pytest.mark.parametrize("name,compute,variable", [
    ("float32", "float32", "float32"),
    ("float64", "float64", "float64"),
    ("mixed_float16", "float16", "float32"),
    ("int32", "int32", "int32"),
])
def test_float_policy_dtypes(name, compute, variable):
    policy = dp.DTypePolicy(name)
    assert (policy.compute_dtype, policy.variable_dtype) == (compute,
                                                             variable)
    assert policy.quantization_mode is None
    assert repr(policy) == f'<DTypePolicy "{name}">'


def test_bfloat16_policy_needs_ml_dtypes():
    pytest.importorskip("ml_dtypes")
    policy = dp.DTypePolicy("bfloat16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("bfloat16",
                                                             "bfloat16")
    policy = dp.DTypePolicy("mixed_bfloat16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("bfloat16",
                                                             "float32")


def test_float_policy_errors_match_keras():
    with pytest.raises(ValueError, match="Cannot convert 'mixed_float64' to "
                       "a mixed precision DTypePolicy"):
        dp.DTypePolicy("mixed_float64")
    with pytest.raises(TypeError, match="'name' must be a string"):
        dp.DTypePolicy(3)
    with pytest.raises(ValueError, match="Invalid `policy` argument"):
        kerasish.config.set_dtype_policy(3)
    with pytest.raises(ValueError, match="Cannot interpret `dtype` argument"):
        dp.get(3.5)


@pytest.mark.parametrize("name,cls,config", [
    ("int8_from_float32", "QuantizedDTypePolicy",
     {"mode": "int8", "source_name": "float32"}),
    ("int4_from_mixed_float16", "QuantizedDTypePolicy",
     {"mode": "int4", "source_name": "mixed_float16"}),
    ("int4/64_from_float32", "Int4DTypePolicy",
     {"mode": "int4/64", "source_name": "float32"}),
    ("float8_from_float32", "QuantizedFloat8DTypePolicy",
     {"mode": "float8", "source_name": "float32",
      "amax_history_length": 1024}),
    ("gptq/4/128_from_float32", "GPTQDTypePolicy",
     {"mode": "gptq/4/128", "source_name": "float32"}),
    ("awq/4/-1_from_float32", "AWQDTypePolicy",
     {"mode": "awq/4/-1", "source_name": "float32"}),
])
def test_quantized_policies_by_name(name, cls, config):
    policy = dp.get(name)
    assert type(policy).__name__ == cls and policy.name == name
    assert policy.get_config() == config
    serialized = dp.serialize(policy)
    assert serialized == {"module": "keras.dtype_policies",
                          "class_name": cls, "config": config,
                          "registered_name": None}
    restored = dp.deserialize(json.loads(json.dumps(serialized)))
    assert restored == policy and restored.name == name
    assert restored.compute_dtype == dp.get(
        config["source_name"]).compute_dtype


def test_quantized_policy_errors_match_keras():
    with pytest.raises(ValueError, match="Cannot convert `policy` into a "
                       "valid pair"):
        dp.get("int8_float32")
    with pytest.raises(ValueError, match="doesn't work well with "
                       "compute_dtype='float16'"):
        dp.get("int8_from_float16")
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        dp.QuantizedDTypePolicy("int3", "float32")
    with pytest.raises(ValueError, match="Expected format 'int4/<block_"):
        dp.Int4DTypePolicy("int4", "float32")
    with pytest.raises(ValueError, match="<block_size> must be an integer"):
        dp.Int4DTypePolicy("int4/x", "float32")
    with pytest.raises(ValueError, match="Invalid block_size"):
        dp.Int4DTypePolicy("int4/0", "float32")
    with pytest.raises(ValueError, match="Supported values are 2, 3, 4"):
        dp.GPTQDTypePolicy("gptq/5/128", "float32")
    with pytest.raises(ValueError, match="<weight_bits> and <group_size> "
                       "must be integers"):
        dp.GPTQDTypePolicy("gptq/4/a", "float32")
    with pytest.raises(ValueError, match="AWQ only supports 4-bit"):
        dp.AWQDTypePolicy("awq/8/128", "float32")
    with pytest.raises(TypeError, match="amax_history_length"):
        dp.QuantizedFloat8DTypePolicy("float8", "float32", 1.5)


def test_equality_follows_keras():
    assert dp.DTypePolicy("float32") == dp.FloatDTypePolicy("float32")
    assert dp.get("int8_from_float32") != dp.DTypePolicy("float32")
    assert dp.get("int4/8_from_float32") != dp.get("int4/16_from_float32")
    assert dp.QuantizedFloat8DTypePolicy("float8", "float32", 8) != \
        dp.QuantizedFloat8DTypePolicy("float8", "float32", 16)
    assert repr(dp.FloatDTypePolicy("float16")) == '<DTypePolicy "float16">'


def test_policy_map_lookup_and_errors():
    policy_map = dp.DTypePolicyMap(default_policy="float32")
    policy_map["encoder/layer_0/dense"] = "bfloat16"
    policy_map["encoder/.*"] = "float16"
    policy_map["decoder"] = dp.DTypePolicy("bfloat16")
    assert policy_map["encoder/layer_0/dense"].name == "bfloat16"
    assert policy_map["encoder/attention/query"].name == "float16"
    assert policy_map["decoder/attention"].name == "float32"
    assert policy_map.name == "map_float32" and len(policy_map) == 3
    policy_map["encoder/attention/.*"] = "bfloat16"
    with pytest.raises(ValueError, match="matches multiple dtype policy"):
        policy_map["encoder/attention/query"]
    with pytest.raises(ValueError, match="already exist"):
        policy_map["decoder"] = "float32"
    with pytest.raises(ValueError, match="Cannot interpret the assigned"):
        policy_map["x"] = 3.5
    with pytest.raises(ValueError, match="cannot be a `DTypePolicyMap`"):
        dp.DTypePolicyMap(default_policy=policy_map)
    with pytest.raises(TypeError, match="must be a dict"):
        dp.DTypePolicyMap(policy_map=[1])
    del policy_map["decoder"]
    assert "decoder" not in policy_map


def test_policy_map_config_as_keras_writes_it():
    policy_map = dp.DTypePolicyMap()
    policy_map["a/.*"] = "int8_from_float32"
    config = dp.serialize(policy_map)
    assert config == {
        "module": "keras.dtype_policies", "class_name": "DTypePolicyMap",
        "config": {"default_policy": None, "policy_map": {"a/.*": {
            "module": "keras.dtype_policies",
            "class_name": "QuantizedDTypePolicy",
            "config": {"mode": "int8", "source_name": None},
            "registered_name": None}}},
        "registered_name": None}
    # Serializing leaves the map itself unchanged.
    assert policy_map["a/b"].name == "int8_from_float32"
    restored = dp.get(json.loads(json.dumps(config)))
    assert restored["a/b"].name == "int8_from_float32"
    assert restored.default_policy.name == "float32"


def test_global_policy_and_mixed_precision_aliases(reset_policy):
    mp = kerasish.mixed_precision
    assert mp.Policy is dp.DTypePolicy
    assert mp.LossScaleOptimizer is kerasish.optimizers.LossScaleOptimizer
    mp.set_global_policy("mixed_float16")
    assert mp.global_policy() == dp.DTypePolicy("mixed_float16")
    assert kerasish.config.dtype_policy().name == "mixed_float16"
    layer = kerasish.layers.Dense(2)
    assert (layer.compute_dtype, layer.variable_dtype) == ("float16",
                                                           "float32")
    mp.set_dtype_policy("int8_from_float32")
    assert mp.dtype_policy().quantization_mode == "int8"


def test_namespaces_load_lazily():
    code = ("import sys, kerasish; print(any(m in sys.modules for m in "
            "('kerasish.quantizers', 'kerasish.dtype_policies', "
            "'kerasish.mixed_precision', 'ml_dtypes')));"
            "print(kerasish.dtype_policies.QuantizedDTypePolicy.__name__);"
            "print('quantizers' in dir(kerasish))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["False", "QuantizedDTypePolicy", "True"]
