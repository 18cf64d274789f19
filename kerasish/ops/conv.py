"""Convolution and pooling ops (`keras.ops.conv`, `max_pool`, ...).

Same names, signatures and semantics as `keras.ops` on the JAX backend:
`"same"` padding is XLA's (extra padding goes after), the number of feature
groups of `conv` is `input_channels // kernel.shape[-2]`, and
`conv_transpose` is the input-gradient of `conv` cropped the way Keras's
`padding`/`output_padding` ask. Channels-first inputs are transposed to
channels-last around the channels-last primitives.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend import conv as C
from kerasish.backend import nn as N
from kerasish.backend import pooling as P
from kerasish.backend import shape as S
from kerasish.backend import windows as W
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops.symbolic import keras_op


# -- argument handling --------------------------------------------------------
def spatial_tuple(value, rank, name, allow_zero=False):
    """`value` (int or sequence) as a tuple of `rank` ints, validated."""
    message = (f"The `{name}` argument must be a tuple of {rank} integers. "
               f"Received {name}={value}")
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        values = (int(value),) * rank
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(message) from None
        if len(values) != rank or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                for v in values):
            raise ValueError(message)
        values = tuple(int(v) for v in values)
    low = 0 if allow_zero else 1
    bad = {v for v in values if v < low}
    if bad:
        rule = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{message}, including values {bad} that do not "
                         f"satisfy `value {rule}`")
    return values


def standardize_padding(padding, allow_causal=False):
    """Lower-case `padding`, checked against the allowed values."""
    allowed = ("valid", "same", "causal") if allow_causal else \
        ("valid", "same")
    value = padding.lower() if isinstance(padding, str) else padding
    if value not in allowed:
        raise ValueError(
            f"The `padding` argument must be one of {allowed}. "
            f"Received: padding={padding!r}")
    return value


def _spatial_rank(inputs, what):
    rank = len(inputs.shape) - 2
    if rank not in (1, 2, 3):
        raise ValueError(
            f"`{what}` expects inputs of rank 3, 4 or 5 (batch, 1 to 3 "
            "spatial axes and channels). Received inputs of shape "
            f"{tuple(inputs.shape)}")
    return rank


def _to_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = x.ndim
    return S.transpose(x, axes=(0,) + tuple(range(2, rank)) + (1,))


def _to_first(x, data_format):
    if data_format == "channels_last":
        return x
    rank = x.ndim
    return S.transpose(x, axes=(0, rank - 1) + tuple(range(1, rank - 1)))


def _float_pair(inputs, kernel):
    kernel = convert_to_tensor(kernel)
    if kernel.dtype.kind != "f":
        kernel = cast(kernel, config.floatx())
    inputs = convert_to_tensor(inputs)
    if inputs.dtype != kernel.dtype:
        inputs = cast(inputs, kernel.dtype)
    return inputs, kernel


def _check_output(sizes, pads, windows, strides, input_shape, detail):
    out = W.output_sizes(sizes, pads, windows, strides)
    if any(o <= 0 for o in out):
        raise ValueError(
            "Computed output size would be zero or negative. Received "
            f"inputs shape={tuple(input_shape)}, {detail}, "
            f"strides={strides}")
    return out


def conv_geometry(input_shape, kernel_shape, strides, padding,
                  dilation_rate, data_format):
    """Validated `(strides, pads, dilation, groups)` for channels-last."""
    rank = len(input_shape) - 2
    strides = spatial_tuple(strides, rank, "strides")
    dilation = spatial_tuple(dilation_rate, rank, "dilation_rate")
    padding = standardize_padding(padding)
    if len(kernel_shape) != rank + 2:
        raise ValueError(
            "Kernel shape must have the same length as input, but received "
            f"kernel of shape {tuple(kernel_shape)} and input of shape "
            f"{tuple(input_shape)}.")
    last = data_format == "channels_last"
    channels = input_shape[-1] if last else input_shape[1]
    sizes = tuple(input_shape[1:-1] if last else input_shape[2:])
    groups = _groups(channels, kernel_shape)
    windows = W.dilated(kernel_shape[:-2], dilation)
    pads = W.spatial_padding(sizes, windows, strides, padding)
    _check_output(sizes, pads, windows, strides, input_shape,
                  f"kernel shape={tuple(kernel_shape)}, "
                  f"dilation_rate={dilation}, padding={padding!r}")
    return strides, pads, dilation, groups


def _groups(channels, kernel_shape):
    in_k, filters = kernel_shape[-2], kernel_shape[-1]
    if in_k <= 0 or channels % in_k:
        raise ValueError(
            "The number of input channels must be evenly divisible by "
            f"kernel's in_channels. Received input channels {channels} and "
            f"kernel in_channels {in_k}.")
    groups = channels // in_k
    if filters % groups:
        raise ValueError(
            f"The kernel's output channels ({filters}) must be divisible by "
            f"the number of feature groups ({groups} = {channels} input "
            f"channels / {in_k} kernel in_channels). Received kernel of "
            f"shape {tuple(kernel_shape)}")
    return groups


# -- convolutions -------------------------------------------------------------
@keras_op
def conv(inputs, kernel, strides=1, padding="valid", data_format=None,
         dilation_rate=1):
    """General N-D convolution (1D, 2D and 3D), as `keras.ops.conv`.

    Args:
        inputs: Tensor of rank N+2, `(batch, *spatial, channels)` for
            `"channels_last"` or `(batch, channels, *spatial)`.
        kernel: Tensor `(*kernel_spatial, in_channels / groups, filters)`;
            `groups = input channels // kernel.shape[-2]`.
        strides: int or tuple of N ints. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        dilation_rate: int or tuple of N ints. Defaults to 1.

    Returns:
        The convolution, of rank N+2.

    Example:

    >>> x = np.ones((1, 5, 5, 1), "float32")
    >>> conv(x, np.ones((3, 3, 1, 2), "float32")).shape
    (1, 3, 3, 2)
    """
    data_format = config.standardize_data_format(data_format)
    inputs, kernel = _float_pair(inputs, kernel)
    _spatial_rank(inputs, "conv")
    strides, pads, dilation, groups = conv_geometry(
        inputs.shape, kernel.shape, strides, padding, dilation_rate,
        data_format)
    y = C.conv(_to_last(inputs, data_format), kernel, strides=strides,
               pads=pads, dilation=dilation, groups=groups)
    return _to_first(y, data_format)


def fused_conv(inputs, kernel, bias, relu, strides, pads, dilation, groups,
               data_format):
    """`conv (+ bias) (+ relu)` as one primitive, for layers.

    The geometry comes from `conv_geometry` (or a layer's own padding,
    such as Conv1D's causal one); `bias=None` means no bias.
    """
    x = _to_last(inputs, data_format)
    params = dict(strides=strides, pads=pads, dilation=dilation,
                  groups=groups)
    if bias is None:
        y = C.conv(x, kernel, **params)
        y = N.relu(y) if relu else y
    else:
        y = C.conv_bias(x, kernel, bias, relu=relu, **params)
    return _to_first(y, data_format)


@keras_op
def depthwise_conv(inputs, kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """Depthwise N-D convolution: each channel with its own filters.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        kernel: Tensor `(*kernel_spatial, in_channels, depth_multiplier)`.
        strides, padding, data_format, dilation_rate: As for `conv`.

    Returns:
        A tensor with `in_channels * depth_multiplier` channels, channel
        `c * depth_multiplier + m` coming from input channel `c`.

    Example:

    >>> x = np.ones((1, 4, 3), "float32")
    >>> depthwise_conv(x, np.ones((2, 3, 2), "float32")).shape
    (1, 3, 6)
    """
    data_format = config.standardize_data_format(data_format)
    inputs, kernel = _float_pair(inputs, kernel)
    _spatial_rank(inputs, "depthwise_conv")
    channels = inputs.shape[-1 if data_format == "channels_last" else 1]
    if len(kernel.shape) == len(inputs.shape) and \
            kernel.shape[-2] != channels:
        raise ValueError(
            "The number of input channels must match the kernel's "
            f"in_channels for a depthwise convolution. Received input "
            f"channels {channels} and kernel of shape {tuple(kernel.shape)}")
    flat = S.reshape(kernel, shape=tuple(kernel.shape[:-2]) +
                     (1, kernel.shape[-2] * kernel.shape[-1]))
    return conv(inputs, flat, strides, padding, data_format, dilation_rate)


@keras_op
def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1,
                   padding="valid", data_format=None, dilation_rate=1):
    """Depthwise convolution followed by a pointwise (1x1) convolution.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        depthwise_kernel: `(*kernel_spatial, in_channels, multiplier)`.
        pointwise_kernel: `(*ones, in_channels * multiplier, filters)`.
        strides, padding, data_format, dilation_rate: As for `conv`
            (applied to the depthwise step).

    Returns:
        A tensor with `filters` channels.

    Example:

    >>> x = np.ones((1, 5, 5, 2), "float32")
    >>> separable_conv(x, np.ones((3, 3, 2, 1), "float32"),
    ...                np.ones((1, 1, 2, 4), "float32")).shape
    (1, 3, 3, 4)
    """
    mid = depthwise_conv(inputs, depthwise_kernel, strides, padding,
                         data_format, dilation_rate)
    return conv(mid, pointwise_kernel, 1, "valid", data_format, 1)


def transpose_padding(kernel_size, stride, dilation, padding,
                      output_padding):
    """Keras's `(lo, hi)` padding of a dilated-input transposed conv."""
    k = (kernel_size - 1) * dilation + 1
    if padding == "valid":
        extra = max(k, stride) - k if output_padding is None else \
            output_padding
        return k - 1, k - 1 + extra
    if output_padding is None:
        total = stride + k - 2
    else:
        total = k + k % 2 - 2 + output_padding
    lo = min(total // 2 + total % 2, k - 1)
    return lo, total - lo


def conv_transpose_geometry(input_shape, kernel_shape, strides, padding,
                            output_padding, dilation_rate, data_format):
    """Validated `(strides, starts, sizes, dilation)` of `conv_transpose`."""
    rank = len(input_shape) - 2
    strides = spatial_tuple(strides, rank, "strides")
    dilation = spatial_tuple(dilation_rate, rank, "dilation_rate")
    padding = standardize_padding(padding)
    if output_padding is not None:
        output_padding = spatial_tuple(output_padding, rank,
                                       "output_padding", allow_zero=True)
    last = data_format == "channels_last"
    channels = input_shape[-1] if last else input_shape[1]
    if len(kernel_shape) != rank + 2 or kernel_shape[-1] != channels:
        raise ValueError(
            "The kernel of a transposed convolution must have shape "
            "(*kernel_spatial, filters, in_channels) with in_channels equal "
            f"to the input's channels. Received kernel of shape "
            f"{tuple(kernel_shape)} and input of shape {tuple(input_shape)}")
    sizes = tuple(input_shape[1:-1] if last else input_shape[2:])
    starts, outs = [], []
    for i in range(rank):
        op = None if output_padding is None else output_padding[i]
        lo, hi = transpose_padding(kernel_shape[i], strides[i], dilation[i],
                                   padding, op)
        k = (kernel_shape[i] - 1) * dilation[i] + 1
        starts.append(k - 1 - lo)
        outs.append((sizes[i] - 1) * strides[i] + lo + hi - k + 2)
    if any(o <= 0 for o in outs):
        raise ValueError(
            "Computed output size would be zero or negative. Received "
            f"inputs shape={tuple(input_shape)}, kernel shape="
            f"{tuple(kernel_shape)}, output_padding={output_padding}")
    return strides, tuple(starts), tuple(outs), dilation


@keras_op
def conv_transpose(inputs, kernel, strides=1, padding="valid",
                   output_padding=None, data_format=None, dilation_rate=1):
    """General N-D transposed convolution, as `keras.ops.conv_transpose`.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        kernel: Tensor `(*kernel_spatial, filters, in_channels)`.
        strides: int or tuple of N ints. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        output_padding: None, int or tuple of N ints: extra size added to
            one side of each output axis. None infers it.
        data_format: `"channels_last"` or `"channels_first"`.
        dilation_rate: int or tuple of N ints. Defaults to 1.

    Returns:
        A tensor with `filters` channels.

    Example:

    >>> x = np.ones((1, 3, 3, 1), "float32")
    >>> conv_transpose(x, np.ones((3, 3, 2, 1), "float32"), strides=2,
    ...                padding="same").shape
    (1, 6, 6, 2)
    """
    data_format = config.standardize_data_format(data_format)
    inputs, kernel = _float_pair(inputs, kernel)
    _spatial_rank(inputs, "conv_transpose")
    strides, starts, sizes, dilation = conv_transpose_geometry(
        inputs.shape, kernel.shape, strides, padding, output_padding,
        dilation_rate, data_format)
    y = C.conv_transpose(_to_last(inputs, data_format), kernel,
                         strides=strides, starts=starts, sizes=sizes,
                         dilation=dilation)
    return _to_first(y, data_format)


# -- pooling ------------------------------------------------------------------
def _pool(prim, what, inputs, pool_size, strides, padding, data_format):
    data_format = config.standardize_data_format(data_format)
    inputs = convert_to_tensor(inputs)
    rank = _spatial_rank(inputs, what)
    pool_size = spatial_tuple(pool_size, rank, "pool_size")
    strides = pool_size if strides is None else \
        spatial_tuple(strides, rank, "strides")
    padding = standardize_padding(padding)
    shape = tuple(inputs.shape)
    sizes = shape[1:-1] if data_format == "channels_last" else shape[2:]
    pads = W.spatial_padding(sizes, pool_size, strides, padding)
    _check_output(sizes, pads, pool_size, strides, shape,
                  f"pool_size={pool_size}, padding={padding!r}")
    y = prim(_to_last(inputs, data_format), pool_size=pool_size,
             strides=strides, pads=pads)
    return _to_first(y, data_format)


@keras_op
def max_pool(inputs, pool_size, strides=None, padding="valid",
             data_format=None):
    """Max pooling over 1 to 3 spatial axes, as `keras.ops.max_pool`.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        pool_size: int or tuple of N ints, the window size.
        strides: int or tuple of N ints; defaults to `pool_size`.
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` or `"channels_first"`.

    Returns:
        The pooled tensor. Its gradient goes to the first maximum of each
        window (row-major order), as on Keras's JAX backend.

    Example:

    >>> x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> max_pool(x, 2).numpy()[0, :, :, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """
    return _pool(P.max_pool, "max_pool", inputs, pool_size, strides,
                 padding, data_format)


@keras_op
def average_pool(inputs, pool_size, strides=None, padding="valid",
                 data_format=None):
    """Average pooling, as `keras.ops.average_pool`.

    With `padding="same"` each window averages only the input entries it
    covers (padding is not counted), as Keras does.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        pool_size: int or tuple of N ints, the window size.
        strides: int or tuple of N ints; defaults to `pool_size`.
        padding: `"valid"` (default) or `"same"`.
        data_format: `"channels_last"` or `"channels_first"`.

    Example:

    >>> x = np.arange(4, dtype="float32").reshape(1, 4, 1)
    >>> average_pool(x, 3, strides=1, padding="same").numpy().ravel()
    array([0.5, 1. , 2. , 2.5], dtype=float32)
    """
    return _pool(P.average_pool, "average_pool", inputs, pool_size, strides,
                 padding, data_format)
