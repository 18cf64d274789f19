"""Float8 (FP8) scaling: delayed scales from an amax history, and the
quantize-dequantize round trip through a float8 dtype.

float8 arrays come from the `ml_dtypes` package (`pip install
kerasish[ml-dtypes]`), whose rounding is the one Keras and JAX use.
"""
import numpy as np

from kerasish import ops
from kerasish.backend.dtypes import require_ml_dtypes


def float8_max(dtype):
    """The largest finite value of a float8 dtype (448 for e4m3fn)."""
    require_ml_dtypes(dtype)
    import ml_dtypes  # lazy: optional dependency
    return float(ml_dtypes.finfo(dtype).max)


def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """The next float8 scale from a recent absolute maximum.

    The new scale is `amax * 2**margin / dtype_max` (so `amax` maps to the
    dtype's largest value); a zero or non-finite `amax` keeps `scale`.

    Args:
        amax: Largest absolute value seen recently.
        scale: The current scale.
        dtype_max: Largest finite value of the float8 dtype.
        margin: Extra power-of-two headroom. Defaults to 0.

    Returns:
        The new scale tensor.

    Example:

    >>> float(compute_float8_scale(np.float32(4.0), np.float32(1.0), 448.0))
    0.008928571827709675
    """
    amax = ops.convert_to_tensor(amax)
    previous = ops.reciprocal(scale)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = ops.divide(ops.divide(dtype_max, amax), 2 ** margin)
    factor = ops.where(ops.greater(amax, 0.0), factor, previous)
    factor = ops.where(ops.isfinite(amax), factor, previous)
    return ops.reciprocal(factor)


def compute_float8_amax_history(x, amax_history):
    """Shift the amax history by one and put `max(|x|)` first.

    Args:
        x: The tensor whose absolute maximum is recorded.
        amax_history: 1-D history, most recent first.

    Returns:
        The new history.

    Example:

    >>> compute_float8_amax_history(np.array([-3.0, 1.0], "float32"),
    ...                             np.array([1.0, 2.0, 0.0], "float32"))
    <Tensor shape=(3,), dtype=float32, numpy=
    [3., 0., 1.]>
    """
    history = ops.convert_to_tensor(amax_history)
    latest = ops.cast(ops.max(ops.abs(x)), history.dtype)
    return ops.scatter_update(ops.roll(history, shift=-1), [[0]],
                              ops.reshape(latest, [1]))


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """Round `inputs / scale` through `quantized_dtype`, then rescale.

    Args:
        inputs: Tensor to round.
        scale: The float8 scale.
        quantized_dtype: `"float8_e4m3fn"` or `"float8_e5m2"`.
        compute_dtype: Dtype of the result.

    Returns:
        `cast(clip(inputs / scale), quantized_dtype) * scale`, in
        `compute_dtype`.

    Example:

    >>> out = quantize_and_dequantize(np.array([0.3, 500.0], "float32"),
    ...                               np.float32(1.0), "float8_e4m3fn",
    ...                               "float32")
    >>> out.numpy().tolist()
    [0.3125, 448.0]
    """
    limit = ops.cast(float8_max(quantized_dtype), compute_dtype)
    scale = ops.cast(scale, compute_dtype)
    x = ops.clip(ops.divide(inputs, scale), -limit, limit)
    x = ops.cast(x, quantized_dtype)
    return ops.multiply(ops.cast(x, compute_dtype), scale)
