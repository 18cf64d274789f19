"""`backend.result_type` and `standardize_dtype`: Keras's promotion lattice
(Python `int`/`float` weak), as Keras 3.15 on TensorFlow computes it."""
import pytest

import kerasish
from kerasish.backend import result_type, standardize_dtype

# `keras.backend.result_type(a, b)` under Keras 3.15 with
# KERAS_BACKEND=tensorflow (kerasish keeps 64-bit types, as that backend).
KERAS_TF = {
    "bool+int": "int32", "bool+float": "float32", "uint8+int": "uint8",
    "uint8+int8": "int16", "uint8+uint64": "uint32",
    "uint32+int32": "int64", "uint64+int8": "float32",
    "uint64+int": "uint32", "int8+int": "int8", "int8+float": "float32",
    "int16+uint32": "int64", "int32+int": "int32",
    "int32+float": "float32", "int64+uint64": "float32",
    "int64+int": "int64", "bfloat16+float16": "float32",
    "bfloat16+float": "bfloat16", "bfloat16+int32": "bfloat16",
    "float16+float": "float16", "float16+int64": "float16",
    "float32+float64": "float64", "float64+int": "float64",
    "int+float": "float32", "int+int": "int32", "float+float": "float32",
    "int": "int32", "float": "float32", "uint64": "uint32",
    "int64": "int64", "float64": "float64",
}
_PY = {"int": int, "float": float}


@pytest.mark.parametrize("key", sorted(KERAS_TF))
def test_result_type_matches_keras(key):
    args = [_PY.get(name, name) for name in key.split("+")]
    assert result_type(*args) == KERAS_TF[key]


def test_result_type_defaults_and_weak_types_follow_floatx():
    assert result_type() == "float32" and result_type(None) == "float32"
    kerasish.config.set_floatx("float16")
    try:
        assert result_type(float) == "float16"
        assert result_type("int8", float) == "float16"
        assert result_type(int) == "int16"      # Keras's weak-int rule
    finally:
        kerasish.config.set_floatx("float32")


def test_result_type_refuses_float8_and_unknown_types():
    with pytest.raises(ValueError, match="float8"):
        result_type("float8_e4m3fn", "float32")
    with pytest.raises(ValueError, match="string"):
        result_type("string", "int32")


def test_python_float_standardizes_to_float32_as_keras():
    assert standardize_dtype(float) == "float32"
    assert standardize_dtype(int) == "int64"
    x = kerasish.ops.cast(kerasish.ops.ones((2,), "int32"), float)
    assert x.dtype == "float32"
