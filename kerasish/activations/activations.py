"""Activation functions (`keras.activations`), same names and formulas."""
from kerasish import ops
from kerasish.saving.object_registration import builtin as _builtin

_MODULE = "keras.activations"


@_builtin(_MODULE)
def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit with Keras's optional slope, cap and threshold.

    `max(x, 0)` by default; values at or above `max_value` are capped, values
    below `threshold` are damped to `negative_slope * (x - threshold)`.

    Args:
        x: Input tensor.
        negative_slope: Slope below the threshold. Defaults to 0.
        max_value: Saturation value, or None for no cap.
        threshold: Where the unit turns on. Defaults to 0.

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


@_builtin(_MODULE)
def leaky_relu(x, negative_slope=0.2):
    """`x` if `x >= 0` else `negative_slope * x`.

    Args:
        x: Input tensor.
        negative_slope: Slope of the negative part. Defaults to 0.2.

    >>> leaky_relu([-1.0, 2.0]).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    return ops.leaky_relu(x, negative_slope=negative_slope)


@_builtin(_MODULE)
def relu6(x):
    """`min(max(x, 0), 6)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.relu6(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0. , 0. , 0. , 0.5, 2. ], dtype=float32)
    """
    return ops.relu6(x)


@_builtin(_MODULE)
def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if `x > 0` else `alpha * (exp(x) - 1)`.

    Args:
        x: Input tensor.
        alpha: Scale of the negative part. Defaults to 1.0.

    >>> elu([-1.0, 1.0]).numpy()
    array([-0.63212055,  1.        ], dtype=float32)
    """
    return ops.elu(x, alpha=alpha)


@_builtin(_MODULE)
def selu(x):
    """Scaled ELU: `scale * elu(x, alpha)` with `alpha ~ 1.6733` and
    `scale ~ 1.0507`, the self-normalising constants (use with
    `lecun_normal` initialization and `AlphaDropout`).

    >>> selu([0.0, 1.0]).numpy()
    array([0.      , 1.050701], dtype=float32)
    """
    return ops.selu(x)


@_builtin(_MODULE)
def softplus(x):
    """`log(exp(x) + 1)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.softplus(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1269, 0.4741, 0.6931, 0.9741, 2.1269], dtype=float32)
    """
    return ops.softplus(x)


@_builtin(_MODULE)
def softsign(x):
    """`x / (|x| + 1)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.softsign(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.6667, -0.3333,  0.    ,  0.3333,  0.6667], dtype=float32)
    """
    return ops.softsign(x)


@_builtin(_MODULE)
def silu(x):
    """Sigmoid linear unit `x * sigmoid(x)` (also called swish).

    >>> silu([0.0, 1.0]).numpy()
    array([0.       , 0.7310586], dtype=float32)
    """
    return ops.silu(x)


@_builtin(_MODULE)
def tanh(x):
    """Hyperbolic tangent.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.tanh(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-0.964 , -0.4621,  0.    ,  0.4621,  0.964 ], dtype=float32)
    """
    return ops.tanh(x)


@_builtin(_MODULE)
def sigmoid(x):
    """`1 / (1 + exp(-x))`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1192, 0.3775, 0.5   , 0.6225, 0.8808], dtype=float32)
    """
    return ops.sigmoid(x)


@_builtin(_MODULE)
def exponential(x):
    """`exp(x)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.exponential(x)
    >>> np.round(y.numpy(), 4)
    array([0.1353, 0.6065, 1.    , 1.6487, 7.3891], dtype=float32)
    """
    return ops.exp(x)


@_builtin(_MODULE)
def hard_sigmoid(x):
    """Piecewise-linear sigmoid: `relu6(x + 3) / 6`.

    >>> hard_sigmoid([-4.0, 0.0, 1.5]).numpy()
    array([0.  , 0.5 , 0.75], dtype=float32)
    """
    return ops.hard_sigmoid(x)


@_builtin(_MODULE)
def hard_silu(x):
    """`x * hard_sigmoid(x)` (also called hard swish).

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.hard_silu(x)
    >>> np.round(y.numpy(), 4)
    array([-0.3333, -0.2083,  0.    ,  0.2917,  1.6667], dtype=float32)
    """
    return ops.hard_silu(x)


@_builtin(_MODULE)
def linear(x):
    """Identity.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.linear(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-2. , -0.5,  0. ,  0.5,  2. ], dtype=float32)
    """
    return x


@_builtin(_MODULE)
def mish(x):
    """Mish: `x * tanh(softplus(x))`, a smooth non-monotonic activation.

    >>> mish([0.0]).numpy()
    array([0.], dtype=float32)
    """
    x = ops.convert_to_tensor(x)
    return x * ops.tanh(ops.softplus(x))


@_builtin(_MODULE)
def softmax(x, axis=-1):
    """Softmax: `exp(x) / sum(exp(x))` over `axis`, computed stably.

    Args:
        x: Input tensor.
        axis: Int or tuple of ints, the normalized axes. Defaults to -1.

    >>> softmax([[1.0, 1.0]]).numpy()
    array([[0.5, 0.5]], dtype=float32)
    """
    x = ops.convert_to_tensor(x)
    return ops.softmax(x, axis=axis)


@_builtin(_MODULE)
def log_softmax(x, axis=-1):
    """`log(softmax(x))` over `axis`, computed stably.

    Args:
        x: Input tensor.
        axis: Int or tuple of ints. Defaults to -1.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0]], "float32")
    >>> y = kerasish.activations.log_softmax(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([[-2.4076, -1.4076, -0.4076]], dtype=float32)
    """
    return ops.log_softmax(x, axis=axis)


@_builtin(_MODULE)
def log_sigmoid(x):
    """`log(sigmoid(x))`, computed stably.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.log_sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-2.1269, -0.9741, -0.6931, -0.4741, -0.1269], dtype=float32)
    """
    return ops.log_sigmoid(x)


@_builtin(_MODULE)
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


@_builtin(_MODULE)
def celu(x, alpha=1.0):
    """Continuously differentiable ELU:
    `max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1)`.

    Args:
        x: Input tensor.
        alpha: Scale of the negative part. Defaults to 1.0.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.celu(x)
    >>> np.round(y.numpy(), 4)
    array([-0.8647, -0.3935,  0.    ,  0.5   ,  2.    ], dtype=float32)
    """
    return ops.celu(x, alpha=alpha)


@_builtin(_MODULE)
def glu(x, axis=-1):
    """Gated linear unit: `a * sigmoid(b)`, `(a, b)` the halves of `axis`.

    Args:
        x: Input tensor; its size along `axis` must be even.
        axis: The split axis. Defaults to -1.

    >>> glu([[1.0, 0.0]]).numpy()
    array([[0.5]], dtype=float32)
    """
    return ops.glu(x, axis=axis)


@_builtin(_MODULE)
def tanh_shrink(x):
    """`x - tanh(x)`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.tanh_shrink(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([-1.036 , -0.0379,  0.    ,  0.0379,  1.036 ], dtype=float32)
    """
    return ops.tanh_shrink(x)


@_builtin(_MODULE)
def hard_tanh(x):
    """`x` clipped to `[-1, 1]`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.hard_tanh(x)
    >>> np.round(y.numpy(), 4)
    array([-1. , -0.5,  0. ,  0.5,  1. ], dtype=float32)
    """
    return ops.hard_tanh(x)


@_builtin(_MODULE)
def hard_shrink(x, threshold=0.5):
    """`x` where `|x| > threshold`, else 0.

    Args:
        x: Input tensor.
        threshold: Defaults to 0.5.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.hard_shrink(x)
    >>> np.round(y.numpy(), 4)
    array([-2.,  0.,  0.,  0.,  2.], dtype=float32)
    """
    return ops.hard_shrink(x, threshold=threshold)


@_builtin(_MODULE)
def soft_shrink(x, threshold=0.5):
    """Shrink toward 0 by `threshold`; 0 inside `[-threshold, threshold]`.

    Args:
        x: Input tensor.
        threshold: Defaults to 0.5.

    >>> soft_shrink([-2.0, 0.2, 1.0]).numpy()
    array([-1.5,  0. ,  0.5], dtype=float32)
    """
    return ops.soft_shrink(x, threshold=threshold)


@_builtin(_MODULE)
def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`.

    Args:
        x: Input tensor.
        threshold: The cut-off value.
        default_value: The value below the threshold.

    >>> threshold([0.5, 2.0], 1.0, -1.0).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return ops.threshold(x, threshold, default_value)


@_builtin(_MODULE)
def sparse_plus(x):
    """0 for `x <= -1`, `(x + 1)**2 / 4` for `-1 < x < 1`, `x` above.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.sparse_plus(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.    , 0.0625, 0.25  , 0.5625, 2.    ], dtype=float32)
    """
    return ops.sparse_plus(x)


@_builtin(_MODULE)
def sparse_sigmoid(x):
    """0 for `x <= -1`, `(x + 1) / 2` in between, 1 for `x >= 1`.

    Example:

    >>> x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], "float32")
    >>> y = kerasish.activations.sparse_sigmoid(x)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)
    """
    return ops.sparse_sigmoid(x)


@_builtin(_MODULE)
def squareplus(x, b=4):
    """Squareplus, a smooth relu: `(x + sqrt(x**2 + b)) / 2`.

    Args:
        x: Input tensor.
        b: Smoothness, >= 0. Defaults to 4.

    >>> squareplus([0.0]).numpy()
    array([1.], dtype=float32)
    """
    return ops.squareplus(x, b=b)


@_builtin(_MODULE)
def sparsemax(x, axis=-1):
    """Sparsemax: the Euclidean projection onto the probability simplex.

    Like softmax it gives non-negative values summing to 1 over `axis`, but
    small entries are exactly 0 (Martins & Astudillo, 2016). Keras 3.15's
    kernel miscomputes the threshold once two or more entries are kept;
    kerasish returns the true projection.

    Args:
        x: Input tensor.
        axis: Defaults to -1.

    >>> sparsemax([1.0, 1.5, 0.0]).numpy()
    array([0.25, 0.75, 0.  ], dtype=float32)
    """
    return ops.sparsemax(x, axis=axis)


swish = silu
hard_swish = hard_silu
