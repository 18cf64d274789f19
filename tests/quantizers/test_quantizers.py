"""`kerasish.quantizers` functions against Keras 3.15.1 (JAX) outputs.

The reference values are in tests/fixtures/quantization/reference.npz,
written by make_reference.py beside it.
"""
import os

import numpy as np
import pytest

import kerasish
from kerasish import quantizers
from kerasish.quantizers.zero_point import compute_quantization_parameters

REF = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                           "quantization", "reference.npz"))


@pytest.mark.parametrize("axis", [0, -1])
def test_abs_max_quantize_matches_keras(axis):
    q, scale = quantizers.abs_max_quantize(REF["x"], axis=axis)
    assert q.dtype == np.int8 and scale.dtype == np.float32
    np.testing.assert_array_equal(q.numpy(), REF[f"absmax_q_{axis}"])
    np.testing.assert_array_equal(scale.numpy(), REF[f"absmax_s_{axis}"])


def test_abs_max_quantize_float16_keeps_the_input_dtype():
    q, scale = quantizers.abs_max_quantize(REF["x"].astype("float16"),
                                           axis=-1, value_range=(-8, 7))
    assert scale.dtype == np.float16
    np.testing.assert_array_equal(q.numpy(), REF["absmax16_q"])
    np.testing.assert_array_equal(scale.numpy(), REF["absmax16_s"])


@pytest.mark.parametrize("to_numpy", [True, False])
def test_grouped_with_zero_point_matches_keras(to_numpy):
    tag = "np" if to_numpy else "tensor"
    q, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
        REF["k"], block_size=3, to_numpy=to_numpy)
    assert (q.shape, scale.shape, zero.dtype) == ((7, 3), (3, 3), np.int8)
    np.testing.assert_array_equal(q.numpy(), REF[f"grouped_{tag}_q"])
    np.testing.assert_allclose(scale.numpy(), REF[f"grouped_{tag}_s"],
                               rtol=1e-6)
    np.testing.assert_array_equal(zero.numpy(), REF[f"grouped_{tag}_z"])


@pytest.mark.parametrize("name,kwargs", [
    ("asym_g4", dict(bits=4, per_channel=True, group_size=4)),
    ("sym_pc", dict(bits=3, per_channel=True, symmetric=True)),
    ("tensor", dict(bits=8)),
    ("signed", dict(bits=4, per_channel=True, group_size=4, signed=True,
                    epsilon=1e-7)),
])
def test_quantization_parameters_match_keras(name, kwargs):
    scale, zero, maxq = compute_quantization_parameters(REF["w"], **kwargs)
    np.testing.assert_allclose(scale.numpy(), REF[f"params_{name}_s"],
                               rtol=1e-6)
    # Keras (JAX) saturates the negative zero point of the all-positive
    # row to 0 when casting to uint8.
    np.testing.assert_array_equal(zero.numpy(), REF[f"params_{name}_z"])
    assert float(maxq) == 2 ** kwargs["bits"] - 1


def test_abs_max_quantizer_config_and_errors():
    quantizer = quantizers.AbsMaxQuantizer(axis=0, value_range=[-8, 7])
    config = quantizer.get_config()
    assert config == {"value_range": (-8, 7), "epsilon": 1e-7,
                      "output_dtype": "int8", "axis": (0,)}
    assert quantizers.deserialize(quantizers.serialize(quantizer)).axis == \
        (0,)
    with pytest.raises(ValueError, match="within the interval"):
        quantizers.AbsMaxQuantizer(value_range=(-200, 127))
    with pytest.raises(NotImplementedError, match="get_config"):
        quantizers.Quantizer().get_config()


def test_fake_quant_per_channel_forward_and_gradients_match_keras():
    # A straight-through estimator (TF's convention), not the derivative
    # of the piecewise-constant output, so the check is against Keras.
    x = kerasish.Variable(REF["fq_x"])
    low = kerasish.Variable(np.array([-1.0, -0.5, -0.2], "float32"))
    high = kerasish.Variable(np.array([1.0, 0.7, 1.2], "float32"))
    with kerasish.GradientTape() as tape:
        out = quantizers.fake_quant_with_min_max_vars(
            x, low, high, num_bits=4, narrow_range=True, axis=-1)
        total = kerasish.ops.sum(out * REF["fq_upstream"])
    np.testing.assert_allclose(out.numpy(), REF["fq_out"], rtol=1e-6,
                               atol=1e-7)
    dx, dlow, dhigh = tape.gradient(total, [x, low, high])
    np.testing.assert_allclose(dx.numpy(), REF["fq_dx"])
    np.testing.assert_allclose(dlow.numpy(), REF["fq_dmin"], rtol=1e-6)
    np.testing.assert_allclose(dhigh.numpy(), REF["fq_dmax"], rtol=1e-6)


def test_fake_quant_per_tensor_matches_keras_and_is_symbolic():
    out = quantizers.fake_quant_with_min_max_vars(REF["fq_x"], -0.8, 0.9)
    np.testing.assert_allclose(out.numpy(), REF["fq_scalar"], rtol=1e-6,
                               atol=1e-7)
    symbolic = quantizers.fake_quant_with_min_max_vars(
        kerasish.Input((3,)), -0.8, 0.9)
    assert symbolic.shape == (None, 3)


def test_float8_helpers_match_keras():
    pytest.importorskip("ml_dtypes")
    hist = np.array([0.5, 3.0, 0.0, 1.0], "float32")
    np.testing.assert_array_equal(
        quantizers.compute_float8_amax_history(REF["x"], hist).numpy(),
        REF["f8_hist"])
    scale = quantizers.compute_float8_scale(np.float32(3.0), np.float32(2.0),
                                            np.float32(448.0), margin=1)
    np.testing.assert_allclose(scale.numpy(), REF["f8_scale"], rtol=1e-7)
    kept = quantizers.compute_float8_scale(np.float32(0.0), np.float32(2.0),
                                           np.float32(448.0))
    assert float(kept) == 2.0
    np.testing.assert_array_equal(quantizers.quantize_and_dequantize(
        REF["x"], np.float32(0.01), "float8_e4m3fn", "float32").numpy(),
        REF["f8_qdq"])
    np.testing.assert_array_equal(quantizers.quantize_and_dequantize(
        REF["x"] * 1e3, np.float32(0.5), "float8_e5m2", "float32").numpy(),
        REF["f8_qdq_e5m2"])


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_pack_unpack_int4_round_trip(axis, dtype):
    rng = np.random.default_rng(0)
    low, high = (-8, 8) if dtype == "int8" else (0, 16)
    values = rng.integers(low, high, size=(5, 3)).astype(dtype)
    packed, shape, length = quantizers.pack_int4(values, axis=axis,
                                                 dtype=dtype)
    assert packed.shape == shape and packed.dtype == dtype
    assert length == values.shape[axis]
    assert shape[axis] == (length + 1) // 2
    unpacked = quantizers.unpack_int4(packed, length, axis=axis, dtype=dtype)
    np.testing.assert_array_equal(unpacked.numpy(), values)


def test_pack_int4_keras_layout_and_errors():
    values = np.array([[-3, 7, 2], [-8, 1, 0]], dtype="int8")
    packed, _, _ = quantizers.pack_int4(values, axis=1)
    assert packed.numpy().tolist() == [[125, 2], [24, 0]]
    with pytest.raises(TypeError, match="Expected int8 tensor"):
        quantizers.pack_int4(values.astype("int32"))
    with pytest.raises(ValueError, match="'int8' or 'uint8'"):
        quantizers.unpack_int4(packed, 3, dtype="int4")


def test_get_resolves_names_dicts_and_objects():
    assert isinstance(quantizers.get("AbsMaxQuantizer"),
                      quantizers.AbsMaxQuantizer)
    quantizer = quantizers.AbsMaxQuantizer()
    assert quantizers.get(quantizer) is quantizer
    assert quantizers.get(None) is None
    config = quantizers.serialize(quantizers.AbsMaxQuantizer(axis=1))
    assert quantizers.get(config).axis == (1,)
    with pytest.raises(ValueError, match="Could not interpret"):
        quantizers.get("no_such_quantizer")
    assert kerasish.Quantizer is quantizers.Quantizer
