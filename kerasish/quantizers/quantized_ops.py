"""Differentiable primitives of the quantized layer call paths.

`quantized_contract` multiplies (quantized) inputs by an integer kernel
and rescales; its gradient w.r.t. the float inputs uses the dequantized
kernel, as Keras's custom gradients do (the integer weights get none).
`float8_qdq` / `float8_grad_qdq` are the float8 training round trips
whose "gradients" w.r.t. a scale and an amax history are their next
values (the variables are `overwrite_with_gradient`).
"""
import numpy as np

from kerasish.backend.primitive import primitive, unbroadcast
from kerasish import ops

# Exact int8 x int8 sums fit float32's 24-bit mantissa below this bound.
_FLOAT32_EXACT = 2 ** 24


def _contract(equation, a, b):
    if equation is None:
        return np.matmul(a, b)
    return np.einsum(equation, a, b, optimize=True)


def _exact_int_contract(equation, x_q, kernel):
    """`x_q . kernel` for integer operands, exactly (an int32 result)."""
    if equation is None:
        size = kernel.shape[0]
    else:
        spec, out_spec = equation.split(",")[1].split("->")
        size = int(np.prod([n for c, n in zip(spec, kernel.shape)
                            if c not in out_spec]))
    work = np.float32 if size * 128 * 128 < _FLOAT32_EXACT else np.float64
    out = _contract(equation, x_q.astype(work), kernel.astype(work))
    return out.astype(np.int32)


@primitive
def quantized_contract(x, x_q, out_scale, kernel, kernel_scale, *, dtype,
                       equation=None, grad_equation=None):
    """`contract(x_q, kernel) / out_scale` in `dtype` (x_q may be x)."""
    if x_q.dtype.kind in "iu" and kernel.dtype.kind in "iu":
        y = _exact_int_contract(equation, x_q, kernel)
    else:
        # An integer operand meets a float one in the float's dtype.
        work = kernel.dtype if x_q.dtype.kind in "iu" else x_q.dtype
        y = _contract(equation, x_q.astype(work, copy=False),
                      kernel.astype(work, copy=False))
    return np.divide(y.astype(dtype), out_scale.astype(dtype, copy=False))


@quantized_contract.defvjp
def _quantized_contract_vjp(g, out, x, x_q, out_scale, kernel, kernel_scale,
                            *, dtype, equation=None, grad_equation=None):
    float_kernel = np.divide(kernel.astype(dtype),
                             kernel_scale.astype(dtype, copy=False))
    if equation is None:
        grad = np.matmul(g, np.swapaxes(float_kernel, -1, -2))
    else:
        grad = np.einsum(grad_equation, g, float_kernel, optimize=True)
    return (unbroadcast(grad.astype(x.dtype, copy=False), x.shape), None,
            None, None, None)


def _float8_limit(name):
    import ml_dtypes  # lazy: optional dependency
    return np.float32(ml_dtypes.finfo(name).max)


def qdq_array(x, scale, name, compute_dtype):
    """numpy `quantize_and_dequantize`: round `x / scale` through `name`."""
    limit = _float8_limit(name).astype(compute_dtype)
    scale = np.asarray(scale).astype(compute_dtype)
    q = np.clip(np.divide(x, scale), -limit, limit)
    q = q.astype(name).astype(compute_dtype)
    return np.multiply(q, scale)


def next_scale(amax_history, scale, name):
    """numpy `compute_float8_scale(max(history), scale, max(name))`."""
    amax = np.max(amax_history, axis=0)
    previous = np.reciprocal(scale)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.divide(_float8_limit(name), amax)
    factor = np.where(amax > 0.0, factor, previous)
    factor = np.where(np.isfinite(amax), factor, previous)
    return np.reciprocal(factor).astype(scale.dtype)


def next_history(x, amax_history):
    """numpy `compute_float8_amax_history(x, history)`."""
    history = np.roll(amax_history, -1)
    history[0] = np.max(np.abs(x)).astype(amax_history.dtype)
    return history


@primitive
def float8_qdq(x, scale, amax_history, *, training, compute_dtype):
    """Round `x` through float8_e4m3fn with `scale` (forward of inputs
    and kernels in float8 training)."""
    return qdq_array(x, scale, "float8_e4m3fn", compute_dtype)


@float8_qdq.defvjp
def _float8_qdq_vjp(g, out, x, scale, amax_history, *, training,
                    compute_dtype):
    if not training:
        return g, None, None
    return (g, next_scale(amax_history, scale, "float8_e4m3fn"),
            next_history(x, amax_history))


@primitive
def float8_grad_qdq(y, scale, amax_history, *, compute_dtype):
    """Identity forward; the gradient is rounded through float8_e5m2."""
    return np.array(y, copy=True)


@float8_grad_qdq.defvjp
def _float8_grad_qdq_vjp(g, out, y, scale, amax_history, *, compute_dtype):
    return (qdq_array(g, scale, "float8_e5m2", compute_dtype).astype(
        g.dtype, copy=False), next_scale(amax_history, scale, "float8_e5m2"),
        next_history(g, amax_history))


def bfloat16_round(x):
    """`x` rounded to bfloat16 and back (Keras's float8 bias quirk)."""
    return ops.cast(ops.cast(x, "bfloat16"), x.dtype)
