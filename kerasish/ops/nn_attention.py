"""`dot_product_attention` (`keras.ops.nn`), one fused primitive.

Queries `(B, T, N, H)` attend over keys and values `(B, S, K, H)`; when
`K < N` (grouped-query attention, `N % K == 0`) query head `n` uses
key/value head `n // (N // K)`, as `jax.nn.dot_product_attention` does.
The forward pass is two batched GEMMs around a masked softmax; the
hand-written VJP reuses the saved probabilities, so a backward pass costs
four GEMMs and never materialises repeated keys or values.
"""
import numpy as np

from kerasish.backend import dtypes
from kerasish.backend.primitive import primitive, unbroadcast
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.numpy_shape import reshape
from kerasish.ops.symbolic import keras_op

__all__ = ["dot_product_attention"]


def _large_negative(dtype):
    # Keras's fill value for masked logits: finite (a fully masked row
    # becomes uniform, not NaN) and far below any real logit.
    return np.asarray(-0.7 * np.finfo(dtype).max, dtype)


def _grouped(x, heads):
    """`(B, L, N, H)` -> `(B, K, G * L, H)` with `N = K * G` heads."""
    b, length, n, h = x.shape
    g = n // heads
    x = x.reshape(b, length, heads, g, h).transpose(0, 2, 3, 1, 4)
    return x.reshape(b, heads, g * length, h)


def _ungrouped(x, length):
    """Inverse of `_grouped`: `(B, K, G * L, H)` -> `(B, L, K * G, H)`."""
    b, k, gl, h = x.shape
    x = x.reshape(b, k, gl // length, length, h).transpose(0, 3, 1, 2, 4)
    return x.reshape(b, length, -1, h)


def _softmax_rows(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    np.exp(shifted, out=shifted)
    shifted /= shifted.sum(axis=-1, keepdims=True)
    return shifted


@primitive(saves=True)
def _attention(query, key, value, bias, *, scale, mask):
    b, t, n, _ = query.shape
    heads, s = key.shape[2], key.shape[1]
    kt = key.transpose(0, 2, 3, 1)                        # (B, K, H, S)
    logits = np.matmul(_grouped(query, heads), kt)       # (B, K, G*T, S)
    logits = logits.reshape(b, n, t, s)
    # Softmax runs in float32 at least, as Keras does for half inputs.
    logits = logits.astype(np.promote_types(logits.dtype, np.float32))
    logits *= logits.dtype.type(scale)
    if np.ndim(bias) or np.any(bias):
        logits = logits + bias
    if mask is not None:
        logits = np.where(mask, logits, _large_negative(logits.dtype))
    probs = _softmax_rows(logits).astype(key.dtype)
    grouped = probs.reshape(b, heads, -1, s)
    out = np.matmul(grouped, value.transpose(0, 2, 1, 3))  # (B, K, G*T, H)
    # numpy widens bfloat16 products to float32; Keras keeps the input dtype.
    return _ungrouped(out, t).astype(query.dtype, copy=False), probs


@_attention.defvjp
def _attention_vjp(g, out, query, key, value, bias, *, scale, mask, needs,
                   saved):
    probs = saved                                          # (B, N, T, S)
    b, t, n, _ = query.shape
    heads, s = key.shape[2], key.shape[1]
    g_heads = _grouped(g, heads)                           # (B, K, G*T, H)
    p = probs.reshape(b, heads, -1, s)
    d_value = np.matmul(p.transpose(0, 1, 3, 2), g_heads)
    d_probs = np.matmul(g_heads, value.transpose(0, 2, 3, 1))
    d_logits = p * (d_probs - (d_probs * p).sum(axis=-1, keepdims=True))
    if mask is not None:
        d_logits = d_logits.reshape(b, n, t, s) * mask
        d_logits = d_logits.reshape(b, heads, -1, s)
    d_bias = unbroadcast(d_logits.reshape(b, n, t, s), np.shape(bias)) \
        if needs[3] else None
    d_logits = d_logits * d_logits.dtype.type(scale)
    d_query = _ungrouped(np.matmul(d_logits, key.transpose(0, 2, 1, 3)), t) \
        if needs[0] else None
    d_key = np.matmul(d_logits.transpose(0, 1, 3, 2), _grouped(query, heads))
    return (d_query, d_key.transpose(0, 2, 1, 3),
            d_value.transpose(0, 2, 1, 3), d_bias)


def _check_inputs(query, key, value):
    if len(query.shape) != 4 or len(key.shape) != 4 or len(value.shape) != 4:
        raise ValueError(
            "`dot_product_attention` only supports 4D inputs. Received: "
            f"query.shape={tuple(query.shape)}, key.shape="
            f"{tuple(key.shape)}, value.shape={tuple(value.shape)}.")
    if tuple(key.shape) != tuple(value.shape):
        raise ValueError(
            "`key` and `value` must have the same shape. Received: "
            f"key.shape={tuple(key.shape)}, "
            f"value.shape={tuple(value.shape)}.")
    b, _, n, h = query.shape
    kb, _, k, kh = key.shape
    if b != kb or h != kh:
        raise ValueError(
            "`query` and `key` must agree on the batch size and the head "
            f"dimension. Received: query.shape={tuple(query.shape)}, "
            f"key.shape={tuple(key.shape)}.")
    if n % k:
        raise ValueError(
            "The number of query heads must be a multiple of key/value "
            f"heads, but got {n} vs {k}")


def _logits_shaped(x, name, target):
    """`x` as a rank-4 array broadcastable to `(B, N, T, S)`.

    Lower ranks are padded on the left (numpy's rule); a rank-3 array that
    does not broadcast that way is read as `(B, T, S)` (or `(B, N, S)`), the
    rule Keras falls back to.
    """
    shape = tuple(np.shape(x))
    if len(shape) > 4:
        raise ValueError(
            f"`{name}` must have at most 4 dimensions, broadcastable to "
            f"(B, N, T, S)={target}. Received: {name}.shape={shape}")
    padded = (1,) * (4 - len(shape)) + shape
    if len(shape) == 3 and not _broadcasts(padded, target):
        padded = shape[:2] + (1,) + shape[2:] if shape[1] == target[1] \
            else shape[:1] + (1,) + shape[1:]
    if not _broadcasts(padded, target):
        raise ValueError(
            f"`{name}` must be broadcastable to (B, N, T, S)={target}. "
            f"Received: {name}.shape={shape}")
    return padded


def _broadcasts(shape, target):
    return all(a in (1, b) for a, b in zip(shape, target))


def _combined_mask(mask, is_causal, target):
    if mask is not None:
        value = np.asarray(getattr(mask, "_value", mask))
        mask = value.astype(bool).reshape(
            _logits_shaped(value, "mask", target))
    if is_causal:
        causal = np.tril(np.ones(target[2:], bool))
        mask = causal if mask is None else mask & causal
    return mask


def _check_options(flash_attention, attn_logits_soft_cap):
    if flash_attention:
        raise ValueError(
            "Flash attention is not supported in kerasish's numpy backend. "
            "Received: flash_attention=True")
    if attn_logits_soft_cap is not None:
        raise ValueError(
            "attn_logits_soft_cap is only supported for JAX on TPU. Set "
            "attn_logits_soft_cap=None when not using JAX on TPU.")


@keras_op
def dot_product_attention(query, key, value, bias=None, mask=None,
                          scale=None, is_causal=False, flash_attention=None,
                          attn_logits_soft_cap=None):
    """Scaled dot-product attention: `softmax(Q K^T * scale + bias) V`.

    Shapes: B batch, T query length, S key/value length, N query heads, K
    key/value heads (`N % K == 0`; `K < N` is grouped-query attention,
    `K == 1` multi-query attention), H head size.

    Args:
        query: `(B, T, N, H)` tensor.
        key: `(B, S, K, H)` tensor.
        value: Tensor of the same shape as `key`.
        bias: Optional tensor added to the logits, broadcastable to
            `(B, N, T, S)`. Defaults to `None`.
        mask: Optional boolean tensor broadcastable to `(B, N, T, S)`;
            `True` marks the pairs that take part. Defaults to `None`.
        scale: Scale of the logits. Defaults to `1 / sqrt(H)`.
        is_causal: Let query `t` see only keys `s <= t`. Defaults to `False`.
        flash_attention: `None` or `False`; `True` raises, as on Keras's
            numpy backend. Defaults to `None`.
        attn_logits_soft_cap: Must be `None` (Keras supports it only on
            TPUs). Defaults to `None`.

    Returns:
        The attention output, of the shape of `query`.

    Example:

    >>> q = np.ones((2, 4, 8, 16), "float32")
    >>> kv = np.ones((2, 6, 2, 16), "float32")
    >>> kerasish.ops.dot_product_attention(q, kv, kv).shape
    (2, 4, 8, 16)
    """
    _check_options(flash_attention, attn_logits_soft_cap)
    query, key, value = (convert_to_tensor(x) for x in (query, key, value))
    _check_inputs(query, key, value)
    dtype = dtypes.result_type(query.dtype, key.dtype, value.dtype)
    query, key, value = (x if x.dtype == dtype else cast(x, dtype)
                         for x in (query, key, value))
    (b, t, n, h), s = query.shape, key.shape[1]
    target = (b, n, t, s)
    if bias is None:
        bias = np.zeros((), dtype)
    else:
        bias = convert_to_tensor(bias, dtype=dtype)
        bias = reshape(bias, _logits_shaped(bias, "bias", target))
    scale = 1.0 / np.sqrt(h) if scale is None else float(scale)
    return _attention(query, key, value, bias, scale=scale,
                      mask=_combined_mask(mask, is_causal, target))
