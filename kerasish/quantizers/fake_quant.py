"""`fake_quant_with_min_max_vars`: quantize-dequantize with trainable range.

The forward rounds onto the `2**num_bits` levels of a nudged `[min, max]`
(nudged so that 0.0 is exactly representable); the backward passes the
gradient straight through inside the range and sends the gradient of the
clipped values to `min` or `max`, as TensorFlow's fake-quant ops do.
"""
import numpy as np

from kerasish.backend.primitive import primitive
from kerasish.ops.symbolic import keras_op
from kerasish import ops


def _nudge(min_range, max_range, num_bits, narrow_range):
    """Nudged `(min, max, scale, inverse scale)` in at least float32."""
    dtype = np.result_type(min_range.dtype, np.float32)
    low, high = min_range.astype(dtype), max_range.astype(dtype)
    quant_max = (1 << num_bits) - 1
    quant_min = 1 if narrow_range else 0
    span = high - low
    scale = span / (quant_max - quant_min)
    inv_scale = (quant_max - quant_min) / span
    zero = np.round(np.clip(quant_min - low / scale, quant_min, quant_max))
    return ((quant_min - zero) * scale, (quant_max - zero) * scale, scale,
            inv_scale)


@primitive(saves=True)
def _fake_quant(x, min_vals, max_vals, *, num_bits, narrow_range, axis):
    low, high, scale, inv_scale = _nudge(np.asarray(min_vals),
                                         np.asarray(max_vals), num_bits,
                                         narrow_range)
    quant_zero = np.floor(-low * inv_scale + 0.5)
    shifted = np.clip(x.astype(low.dtype), low, high) - low
    out = np.floor(shifted * inv_scale - quant_zero + 0.5) * scale
    return out.astype(x.dtype), (low, high)


@_fake_quant.defvjp
def _fake_quant_vjp(g, out, x, min_vals, max_vals, *, num_bits,
                    narrow_range, axis, saved):
    low, high = saved
    inside = (x >= low) & (x <= high)
    axes = None if axis is None else tuple(
        i for i in range(x.ndim) if i != axis)
    grad_min = np.where(x <= low, g, 0.0).sum(axis=axes)
    grad_max = np.where(x >= high, g, 0.0).sum(axis=axes)
    return (np.where(inside, g, 0.0).astype(g.dtype),
            grad_min.reshape(np.shape(min_vals)).astype(min_vals.dtype),
            grad_max.reshape(np.shape(max_vals)).astype(max_vals.dtype))


@keras_op
def fake_quant_with_min_max_vars(inputs, min_vals, max_vals, num_bits=8,
                                 narrow_range=False, axis=None):
    """Per-tensor or per-channel fake quantization with a trainable range.

    `inputs` are clipped to `[min_vals, max_vals]`, rounded onto the levels
    `[0, 2**num_bits - 1]` (`[1, ...]` with `narrow_range`) and mapped
    back to floats. Gradients flow to the inputs inside the range and to
    `min_vals` / `max_vals` from the clipped inputs.

    Args:
        inputs: Float tensor.
        min_vals: Scalar minimum, or per-channel minima.
        max_vals: Scalar maximum, or per-channel maxima.
        num_bits: Quantization bit width. Defaults to 8.
        narrow_range: Whether to leave out the lowest level. Defaults to
            `False`.
        axis: Channel axis of per-channel ranges; `None` for per-tensor.

    Returns:
        The fake-quantized tensor, of the inputs' dtype.

    Example:

    >>> out = fake_quant_with_min_max_vars(
    ...     np.array([-0.1, 0.26, 2.0], "float32"), -1.0, 1.0, num_bits=3)
    >>> [round(float(v), 4) for v in out.numpy()]
    [0.0, 0.2857, 1.1429]
    """
    x = ops.convert_to_tensor(inputs)
    low = ops.convert_to_tensor(min_vals)
    high = ops.convert_to_tensor(max_vals)
    if axis is not None:
        axis = axis % x.ndim
    return _fake_quant(x, low, high, num_bits=int(num_bits),
                       narrow_range=bool(narrow_range), axis=axis)

