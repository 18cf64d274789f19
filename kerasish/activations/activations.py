"""Activation functions (`keras.activations`), same names and formulas."""
from kerasish import ops
from kerasish.saving.object_registration import builtin

_MODULE = "keras.activations"


@builtin(_MODULE)
def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit with Keras's optional slope, cap and threshold.

    >>> relu([-10.0, -5.0, 0.0, 5.0, 10.0], max_value=5.0).numpy()
    array([0., 0., 0., 5., 5.], dtype=float32)
    """
    x = ops.convert_to_tensor(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return ops.leaky_relu(x, negative_slope=negative_slope)
        negative_part = ops.relu(threshold - x if threshold else -x)
    clip_max = max_value is not None
    if threshold != 0:
        x = ops.where(ops.greater(x, threshold), x, 0.0)
    elif max_value == 6:
        x, clip_max = ops.relu6(x), False
    else:
        x = ops.relu(x)
    if clip_max:
        x = ops.clip(x, 0.0, max_value)
    if negative_slope != 0.0:
        x = x - negative_slope * negative_part
    return x


@builtin(_MODULE)
def leaky_relu(x, negative_slope=0.2):
    """`x` if `x >= 0` else `negative_slope * x`."""
    return ops.leaky_relu(x, negative_slope=negative_slope)


@builtin(_MODULE)
def relu6(x):
    """`min(max(x, 0), 6)`."""
    return ops.relu6(x)


@builtin(_MODULE)
def elu(x, alpha=1.0):
    """`x` if `x > 0` else `alpha * (exp(x) - 1)`."""
    return ops.elu(x, alpha=alpha)


@builtin(_MODULE)
def selu(x):
    """Scaled ELU with the self-normalising constants."""
    return ops.selu(x)


@builtin(_MODULE)
def softplus(x):
    """`log(exp(x) + 1)`."""
    return ops.softplus(x)


@builtin(_MODULE)
def softsign(x):
    """`x / (|x| + 1)`."""
    return ops.softsign(x)


@builtin(_MODULE)
def silu(x):
    """`x * sigmoid(x)` (also called swish)."""
    return ops.silu(x)


@builtin(_MODULE)
def tanh(x):
    """Hyperbolic tangent."""
    return ops.tanh(x)


@builtin(_MODULE)
def sigmoid(x):
    """`1 / (1 + exp(-x))`."""
    return ops.sigmoid(x)


@builtin(_MODULE)
def exponential(x):
    """`exp(x)`."""
    return ops.exp(x)


@builtin(_MODULE)
def hard_sigmoid(x):
    """Piecewise-linear sigmoid: `relu6(x + 3) / 6`."""
    return ops.hard_sigmoid(x)


@builtin(_MODULE)
def hard_silu(x):
    """`x * hard_sigmoid(x)` (also called hard swish)."""
    return ops.hard_silu(x)


@builtin(_MODULE)
def linear(x):
    """Identity."""
    return x


@builtin(_MODULE)
def mish(x):
    """`x * tanh(softplus(x))`."""
    x = ops.convert_to_tensor(x)
    return x * ops.tanh(ops.softplus(x))


@builtin(_MODULE)
def softmax(x, axis=-1):
    """Softmax over `axis` (an int or a tuple of ints)."""
    x = ops.convert_to_tensor(x)
    return ops.softmax(x, axis=axis)


@builtin(_MODULE)
def log_softmax(x, axis=-1):
    """Log of softmax over `axis`."""
    return ops.log_softmax(x, axis=axis)


@builtin(_MODULE)
def log_sigmoid(x):
    """`log(sigmoid(x))`, computed stably."""
    return ops.log_sigmoid(x)


@builtin(_MODULE)
def gelu(x, approximate=False):
    """Gaussian error linear unit, `x * P(X <= x)` for `X ~ N(0, 1)`.

    Args:
        x: Input tensor.
        approximate: Use the tanh approximation instead of the exact erf
            form. Defaults to `False`.

    >>> gelu([-1.0, 0.0, 1.0]).numpy()
    array([-0.15865529,  0.        ,  0.8413447 ], dtype=float32)
    """
    return ops.gelu(x, approximate=approximate)


@builtin(_MODULE)
def celu(x, alpha=1.0):
    """Continuously differentiable ELU:
    `max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1)`."""
    return ops.celu(x, alpha=alpha)


@builtin(_MODULE)
def glu(x, axis=-1):
    """Gated linear unit: `a * sigmoid(b)`, `(a, b)` the halves of `axis`."""
    return ops.glu(x, axis=axis)


@builtin(_MODULE)
def tanh_shrink(x):
    """`x - tanh(x)`."""
    return ops.tanh_shrink(x)


@builtin(_MODULE)
def hard_tanh(x):
    """`x` clipped to `[-1, 1]`."""
    return ops.hard_tanh(x)


@builtin(_MODULE)
def hard_shrink(x, threshold=0.5):
    """`x` where `|x| > threshold`, else 0."""
    return ops.hard_shrink(x, threshold=threshold)


@builtin(_MODULE)
def soft_shrink(x, threshold=0.5):
    """Shrink toward 0 by `threshold`; 0 inside `[-threshold, threshold]`."""
    return ops.soft_shrink(x, threshold=threshold)


@builtin(_MODULE)
def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`.

    >>> threshold([0.5, 2.0], 1.0, -1.0).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return ops.threshold(x, threshold, default_value)


@builtin(_MODULE)
def sparse_plus(x):
    """0 for `x <= -1`, `(x + 1)**2 / 4` for `-1 < x < 1`, `x` above."""
    return ops.sparse_plus(x)


@builtin(_MODULE)
def sparse_sigmoid(x):
    """0 for `x <= -1`, `(x + 1) / 2` in between, 1 for `x >= 1`."""
    return ops.sparse_sigmoid(x)


@builtin(_MODULE)
def squareplus(x, b=4):
    """`(x + sqrt(x**2 + b)) / 2`."""
    return ops.squareplus(x, b=b)


@builtin(_MODULE)
def sparsemax(x, axis=-1):
    """Projection onto the probability simplex (a sparse softmax)."""
    return ops.sparsemax(x, axis=axis)


swish = silu
hard_swish = hard_silu
