"""Asymmetric (scale + zero point) quantization of `[out, in]` matrices,
per tensor, per output channel or per group of input columns.

These are the building blocks of GPTQ and AWQ. Float-to-integer casts
saturate (clamp to the integer range), as JAX's do in Keras.
"""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.quantizers.quantizers import to_array


def saturate_cast(values, dtype):
    """Cast floats to an integer dtype, clamping instead of wrapping."""
    info = np.iinfo(dtype)
    return np.clip(values, info.min, info.max).astype(dtype)


def _min_max(x, per_channel, group_size):
    out_features, in_features = x.shape[0], x.shape[1]
    if per_channel and group_size > 0:
        n_groups = -(-in_features // group_size)
        pad = n_groups * group_size - in_features
        if pad:
            x = np.pad(x, [(0, 0), (0, pad)])
        grouped = x.reshape(out_features, n_groups, group_size)
        return grouped.min(axis=2), grouped.max(axis=2), n_groups
    rows = x.reshape(out_features if per_channel else 1, -1)
    return rows.min(axis=1), rows.max(axis=1), 1


def compute_quantization_parameters(x, *, bits, symmetric=False,
                                    per_channel=False, group_size=-1,
                                    compute_dtype="float32", epsilon=0.0,
                                    signed=False):
    """Scale and zero point quantizing `x` (`[out, in]`) to `bits` bits.

    Args:
        x: Weight matrix `[out_features, in_features]`.
        bits: Number of bits.
        symmetric: Whether the range is symmetric around zero.
        per_channel: One range per output row (else one for the tensor).
        group_size: With `per_channel`, one range per `group_size` input
            columns; -1 for whole rows.
        compute_dtype: Dtype of the scale. Defaults to `"float32"`.
        epsilon: Added to each range before dividing. Defaults to 0.
        signed: Levels `[-2**(bits-1), 2**(bits-1) - 1]` (int8 zero points)
            instead of `[0, 2**bits - 1]` (uint8 zero points).

    Returns:
        `(scale, zero, maxq)`: scale and zero of shape `[out, n_groups]`
        (`[out, 1]` without groups) and the largest level `2**bits - 1`.
    """
    x = to_array(x)
    if x.ndim < 2:
        raise ValueError(f"Input weight tensor {x} must have a rank of at "
                         f"least 2, but got rank {x.ndim}.")
    if x.size == 0:
        raise ValueError("Input tensor 'x' cannot be empty.")
    x = x.astype(compute_dtype, copy=False)
    low, high, n_groups = _min_max(x, per_channel, group_size)
    if symmetric:
        peak = np.maximum(np.abs(low), high)
        low, high = np.where(low < 0, -peak, low), peak
    flat = low == high
    low, high = np.where(flat, low - 1, low), np.where(flat, high + 1, high)
    maxq = np.asarray(2 ** bits - 1, compute_dtype)
    span = high - low
    if epsilon > 0:
        span = span + np.asarray(epsilon, span.dtype)
    scale = span / maxq
    scale = np.where(scale <= 0, np.asarray(1e-8, scale.dtype), scale)
    zero = _zero_point(low, scale, maxq, bits, symmetric, signed)
    if n_groups == 1:
        rows = x.shape[0]
        scale = np.broadcast_to(scale.reshape(-1, 1), (rows, 1)).copy()
        zero = np.broadcast_to(zero.reshape(-1, 1), (rows, 1)).copy()
    zero = saturate_cast(zero, "int8" if signed else "uint8")
    return Tensor(scale.astype(compute_dtype)), Tensor(zero), Tensor(maxq)


def _zero_point(low, scale, maxq, bits, symmetric, signed):
    if symmetric:
        middle = (maxq + 1) / 2 + (-(2 ** (bits - 1)) if signed else 0)
        return np.full_like(scale, middle)
    zero = np.round(-low / scale)
    if signed:
        qmin = -(2 ** (bits - 1))
        return np.clip(zero + qmin, qmin, 2 ** (bits - 1) - 1)
    return zero


def quantize_with_zero_point(input_tensor, scale, zero, maxq):
    """`clip(round(x / scale + zero), 0, maxq)`, as floats."""
    scale = to_array(scale)
    safe = np.where(scale == 0, np.asarray(1e-8, scale.dtype), scale)
    q = np.round(to_array(input_tensor) / safe +
                 to_array(zero).astype(scale.dtype))
    return Tensor(np.clip(q, 0, to_array(maxq)))


def dequantize_with_zero_point(input_tensor, scale, zero):
    """`scale * (q - zero)`."""
    scale = to_array(scale)
    return Tensor(scale * (to_array(input_tensor) -
                           to_array(zero).astype(scale.dtype)))


def quantize_with_sz_map(weights_matrix, scale, zero, g_idx, maxq,
                         group_axis=-1):
    """Quantize with per-group parameters picked by `g_idx`.

    Args:
        weights_matrix: Tensor to quantize.
        scale, zero: Per-group parameters, groups along `group_axis`.
        g_idx: Group of each position along the quantized dimension
            (stored as floats; truncated to integers).
        maxq: Largest level.
        group_axis: Axis of `scale` / `zero` holding the groups.
    """
    groups = to_array(g_idx).astype("int32")
    return quantize_with_zero_point(
        weights_matrix, np.take(to_array(scale), groups, axis=group_axis),
        np.take(to_array(zero), groups, axis=group_axis), maxq)


def dequantize_with_sz_map(weights_matrix, scale, zero, g_idx,
                           group_axis=-1):
    """Dequantize with per-group parameters picked by `g_idx`.

    Args:
        weights_matrix: Quantized values.
        scale, zero: Per-group parameters, groups along `group_axis`.
        g_idx: Group of each position (floats, truncated to integers).
        group_axis: Axis of `scale` / `zero` holding the groups.

    Returns:
        `(q - zero[g_idx]) * scale[g_idx]`.
    """
    return Tensor(dequantize_array(to_array(weights_matrix), to_array(scale),
                                   to_array(zero), to_array(g_idx),
                                   group_axis))


def dequantize_array(values, scale, zero, g_idx, group_axis=-1):
    """`dequantize_with_sz_map` on numpy arrays."""
    groups = g_idx.astype("int32")
    scales = np.take(scale, groups, axis=group_axis)
    zeros = np.take(zero, groups, axis=group_axis).astype(scales.dtype)
    return (values - zeros) * scales
