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


swish = silu
hard_swish = hard_silu
