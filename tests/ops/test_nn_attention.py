"""`ops.dot_product_attention`: values against Keras 3.15.1 (fixtures made
by tests/fixtures/h13/make_reference.py), gradients, shapes and errors."""
import os

import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads

REF = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                           "h13", "reference.npz"))


def ref(name):
    return REF[f"dpa/{name}"]


def close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-5,
                               atol=1e-6)


def test_grouped_query_attention_matches_keras():
    close(ops.dot_product_attention(ref("q"), ref("k"), ref("v")),
          ref("plain"))
    close(ops.nn.dot_product_attention(ref("q"), ref("k"), ref("v"),
                                       is_causal=True), ref("causal"))


@pytest.mark.parametrize("name", ["mask3", "mask2"])
def test_masks_of_lower_rank_match_keras(name):
    out = ops.dot_product_attention(ref("q"), ref("k"), ref("v"),
                                    mask=ref(name))
    close(out, ref(f"out_{name}"))


def test_full_mask_with_causal_and_bias_with_scale_match_keras():
    q, k, v = ref("q"), ref("k"), ref("v")
    close(ops.dot_product_attention(q, k, v, mask=ref("mask4"),
                                    is_causal=True), ref("out_mask4"))
    close(ops.dot_product_attention(q, k, v, bias=ref("bias"), scale=0.3),
          ref("out_bias"))


def test_causal_with_more_queries_than_keys_matches_keras():
    q, k, v = (REF[f"dpa_long/{n}"] for n in "qkv")
    close(ops.dot_product_attention(q, k, v, is_causal=True),
          REF["dpa_long/causal"])


def test_equals_repeated_heads_multi_head_attention():
    rng = np.random.default_rng(0)
    q = rng.standard_normal((1, 3, 6, 4)).astype("float32")
    k = rng.standard_normal((1, 5, 2, 4)).astype("float32")
    v = rng.standard_normal((1, 5, 2, 4)).astype("float32")
    grouped = ops.dot_product_attention(q, k, v)
    full = ops.dot_product_attention(q, np.repeat(k, 3, axis=2),
                                     np.repeat(v, 3, axis=2))
    close(grouped, np.asarray(full))


def test_hand_computed_single_head():
    q = np.array([[[[1.0, 0.0]]]], "float32")             # (1, 1, 1, 2)
    k = np.array([[[[1.0, 0.0]], [[0.0, 1.0]]]], "float32")  # (1, 2, 1, 2)
    v = np.array([[[[2.0, 0.0]], [[0.0, 4.0]]]], "float32")
    w = np.exp(1 / np.sqrt(2)) / (np.exp(1 / np.sqrt(2)) + 1)
    close(ops.dot_product_attention(q, k, v), [[[[2 * w, 4 * (1 - w)]]]])


@pytest.mark.parametrize("kwargs", [
    {}, {"is_causal": True}, {"bias": "bias"}, {"mask": "mask"},
    {"bias": "bias", "mask": "mask", "scale": 0.7}])
def test_gradients_float64(kwargs):
    rng = np.random.default_rng(1)
    q = rng.standard_normal((2, 3, 4, 3))
    k = rng.standard_normal((2, 4, 2, 3))
    v = rng.standard_normal((2, 4, 2, 3))
    bias = rng.standard_normal((2, 1, 3, 4))
    mask = rng.random((2, 4, 3, 4)) > 0.3
    args = [q, k, v] + ([bias] if "bias" in kwargs else [])
    extra = {key: val for key, val in kwargs.items() if key == "scale" or
             key == "is_causal"}
    if "mask" in kwargs:
        extra["mask"] = mask

    def fn(q, k, v, *b):
        return ops.dot_product_attention(
            q, k, v, bias=b[0] if b else None, **extra)
    check_grads(fn, args)


def test_symbolic_call_builds_a_functional_model():
    q = kerasish.Input((3, 4, 8))
    kv = kerasish.Input((5, 2, 8))
    out = ops.dot_product_attention(q, kv, kv, is_causal=True)
    assert tuple(out.shape) == (None, 3, 4, 8)
    model = kerasish.Model([q, kv], out)
    x = np.ones((2, 3, 4, 8), "float32")
    y = np.ones((2, 5, 2, 8), "float32")
    assert np.asarray(model([x, y])).shape == (2, 3, 4, 8)


def test_half_precision_inputs_keep_their_dtype():
    x = np.ones((1, 2, 2, 4), "float16")
    out = ops.dot_product_attention(x, x, x.astype("float32"))
    assert out.dtype == np.float32
    assert ops.dot_product_attention(x, x, x).dtype == np.float16


@pytest.mark.parametrize("kwargs, message", [
    ({"flash_attention": True}, "Flash attention is not supported"),
    ({"attn_logits_soft_cap": 2.0}, "only supported for JAX on TPU"),
    ({"mask": np.ones((2, 7), bool)}, "broadcastable to"),
    ({"bias": np.ones((3, 1, 1, 1), "float32")}, "broadcastable to"),
])
def test_bad_options(kwargs, message):
    x = np.ones((2, 3, 4, 2), "float32")
    with pytest.raises(ValueError, match=message):
        ops.dot_product_attention(x, x, x, **kwargs)


def test_bad_shapes():
    q = np.ones((2, 3, 4, 2), "float32")
    with pytest.raises(ValueError, match="only supports 4D inputs"):
        ops.dot_product_attention(q[0], q, q)
    kv = np.ones((2, 3, 3, 2), "float32")
    with pytest.raises(ValueError, match="multiple of key/value heads, "
                       "but got 4 vs 3"):
        ops.dot_product_attention(q, kv, kv)
    with pytest.raises(ValueError, match="same shape"):
        ops.dot_product_attention(q, q, q[:, :2])
    with pytest.raises(ValueError, match="head dimension"):
        ops.dot_product_attention(q, np.ones((2, 3, 4, 5)),
                                  np.ones((2, 3, 4, 5)))
