"""`Quantizer`, `AbsMaxQuantizer` and the abs-max quantization functions.

The arithmetic runs in numpy on the input's dtype (a scale of float16
inputs is float16), in the order Keras's ops use, so quantized values and
scales equal Keras's bit for bit.
"""
import math

import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.ops.symbolic import keras_op
from kerasish.saving.object_registration import builtin

_EPSILON = 1e-7   # `keras.config.epsilon()` when Keras reads its defaults


def to_array(x):
    """A numpy view of a tensor, variable, array or array-like."""
    if isinstance(x, Tensor):
        return x._value
    return np.asarray(x)


@builtin("keras.quantizers")
class Quantizer:
    """Base class of quantizers: `quantizer(x)` returns quantized values.

    Subclasses implement `__call__` and `get_config`.

    Args:
        output_dtype: Dtype of the quantized values. Defaults to `"int8"`.

    Example:

    >>> Quantizer()(np.array([1.5])).tolist()   # the identity
    [1.5]
    """

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        """Compute a quantized output from an input tensor."""
        return x

    @classmethod
    def from_config(cls, config):
        """Create a quantizer from its `get_config()` dict."""
        return cls(**config)

    def get_config(self):
        """The quantizer's constructor arguments (subclasses define it)."""
        raise NotImplementedError(f"{self} does not implement get_config()")


@keras_op
def abs_max_quantize(inputs, axis, value_range=(-127, 127), dtype="int8",
                     epsilon=_EPSILON, to_numpy=False):
    """Symmetric quantization scaled by the absolute maximum along `axis`.

    `scale = value_range[1] / (max(|inputs|, axis) + epsilon)` and
    `quantized = clip(round(inputs * scale), *value_range)`; dividing the
    quantized values by `scale` approximates `inputs`.

    Args:
        inputs: Tensor to quantize.
        axis: Axis (int or tuple) reduced to compute the scale.
        value_range: `(min, max)` of the quantized values. Defaults to
            `(-127, 127)`.
        dtype: Dtype of the quantized values. Defaults to `"int8"`.
        epsilon: Added to the maximum to avoid dividing by zero.
        to_numpy: Accepted for Keras compatibility (kerasish always
            computes on the host).

    Returns:
        `(quantized, scale)`; `scale` keeps the reduced axes with size 1
        and has the input's dtype.

    Example:

    >>> q, scale = abs_max_quantize(np.array([[1.0, -2.0, 0.5]], "float32"),
    ...                             axis=-1)
    >>> q.numpy().tolist(), scale.numpy().tolist()
    ([[64, -127, 32]], [[63.5]])
    """
    del to_numpy
    x = to_array(inputs)
    if x.dtype.kind not in "fV":
        x = x.astype("float32")
    axis = tuple(axis) if isinstance(axis, (list, tuple)) else axis
    peak = np.max(np.abs(x), axis=axis, keepdims=True)
    # An all-zero float16 slice overflows the scale to inf and its values
    # to 0 * inf = nan, which casts to 0, as in JAX.
    with np.errstate(over="ignore", invalid="ignore"):
        scale = np.divide(value_range[1], np.add(peak, epsilon))
        scale = scale.astype(x.dtype)
        outputs = np.round(np.multiply(x, scale))
    outputs = np.clip(np.nan_to_num(outputs, nan=0.0), value_range[0],
                      value_range[1])
    return Tensor(outputs.astype(dtype)), Tensor(scale)


@keras_op
def abs_max_quantize_grouped_with_zero_point(
        inputs, block_size, value_range=(-8, 7), dtype="int8",
        epsilon=_EPSILON, to_numpy=False):
    """Asymmetric quantization of a 2-D tensor in groups of rows.

    Rows are grouped `block_size` at a time along axis 0 (the input axis of
    a kernel); each group and column gets a scale and a zero point so the
    group's `[min, max]` maps onto `value_range`.

    Args:
        inputs: Tensor of shape `(input_dim, output_dim)`.
        block_size: Rows per group.
        value_range: `(qmin, qmax)`. Defaults to `(-8, 7)` (int4).
        dtype: Dtype of the quantized values. Defaults to `"int8"`.
        epsilon: Added to each range before dividing.
        to_numpy: Keras's host path (what layers use): a group whose
            values are all equal keeps its zero range. The default path
            widens such a range by 1 on each side, as Keras's does.

    Returns:
        `(quantized, scale, zero_point)`; `scale` and the int8 `zero_point`
        have shape `(ceil(input_dim / block_size), output_dim)`.

    Example:

    >>> kernel = np.arange(8, dtype="float32").reshape(4, 2)
    >>> q, scale, zero = abs_max_quantize_grouped_with_zero_point(
    ...     kernel, block_size=2)
    >>> q.shape, scale.shape, zero.numpy().tolist()
    ((4, 2), (2, 2), [[-8, -8], [-8, -8]])
    """
    x = to_array(inputs)
    input_dim, output_dim = x.shape
    n_groups = math.ceil(input_dim / block_size)
    qmin, qmax = value_range
    padded = n_groups * block_size
    if padded > input_dim:
        x = np.concatenate(
            [x, np.zeros((padded - input_dim, output_dim), x.dtype)])
    groups = x.reshape(n_groups, block_size, output_dim)
    low = groups.min(axis=1, keepdims=True)
    high = groups.max(axis=1, keepdims=True)
    if not to_numpy:
        flat = low == high
        low, high = np.where(flat, low - 1, low), np.where(flat, high + 1,
                                                           high)
    scale = np.divide(np.subtract(high, low) + epsilon, qmax - qmin)
    zero = np.clip(np.round(np.divide(-low, scale)) + qmin, qmin, qmax)
    outputs = np.clip(np.round(np.divide(groups, scale)) + zero, qmin, qmax)
    outputs = outputs.astype(dtype).reshape(padded, output_dim)[:input_dim]
    return (Tensor(outputs), Tensor(scale[:, 0].astype(x.dtype)),
            Tensor(zero[:, 0].astype("int8")))


@builtin("keras.quantizers", "abs_max_quantizer")
class AbsMaxQuantizer(Quantizer):
    """Quantizer using `abs_max_quantize` (symmetric, per-axis scales).

    Args:
        axis: Deprecated default axis; pass `axis` when calling instead.
            Calls without any axis reduce the last one.
        value_range: `(min, max)` of the quantized values. Defaults to
            `(-127, 127)`.
        epsilon: Added to the maximum. Defaults to `1e-7`.
        output_dtype: Defaults to `"int8"`.

    Example:

    >>> quantizer = AbsMaxQuantizer()
    >>> q, scale = quantizer(np.array([[0.5, -2.0]], "float32"))
    >>> q.numpy().tolist(), scale.numpy().tolist()
    ([[32, -127]], [[63.5]])
    """

    def __init__(self, axis=None, value_range=(-127, 127), epsilon=_EPSILON,
                 output_dtype="int8"):
        Quantizer.__init__(self, output_dtype=output_dtype)
        if axis is not None:
            axis = (axis,) if isinstance(axis, int) else tuple(axis)
        self.axis = axis
        # A config read back from JSON gives a list; Keras compares tuples.
        self.value_range = tuple(value_range)
        self.epsilon = epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or
                                       value_range[1] > 127):
            raise ValueError(
                "Quantizer with output_dtype='int8' requires value_range to "
                "be within the interval [-128, 127]. Received: "
                f"value_range={value_range}")

    def __call__(self, x, axis=None, to_numpy=False):
        """Quantize `x`; returns `(quantized, scale)`.

        Args:
            x: Tensor to quantize.
            axis: Reduced axis; defaults to the constructor's, else -1.
            to_numpy: Accepted for Keras compatibility.
        """
        if axis is None:
            axis = self.axis if self.axis is not None else -1
        return abs_max_quantize(x, axis, self.value_range, self.output_dtype,
                                self.epsilon, to_numpy)

    def get_config(self):
        config = {"value_range": self.value_range, "epsilon": self.epsilon,
                  "output_dtype": self.output_dtype}
        if self.axis is not None:
            config["axis"] = self.axis
        return config
