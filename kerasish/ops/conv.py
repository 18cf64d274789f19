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
from kerasish.ops.conv_geometry import (  # noqa: F401  (re-exported)
    check_output, conv_geometry, conv_transpose_geometry, spatial_tuple,
    standardize_padding, transpose_padding)
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops.numpy_base import _float, _kept_bfloat16
from kerasish.ops.symbolic import keras_op


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
    kernel = _float(kernel)
    inputs = convert_to_tensor(inputs)
    if inputs.dtype != kernel.dtype:
        inputs = cast(inputs, kernel.dtype)
    return inputs, kernel


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
    return _kept_bfloat16(_to_first(y, data_format), inputs)


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
    # The GEMM gives float32 for bfloat16 operands (as XLA accumulates).
    return _kept_bfloat16(_to_first(y, data_format), inputs)


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
    return _kept_bfloat16(_to_first(y, data_format), inputs)


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
    check_output(sizes, pads, pool_size, strides, shape,
                  f"pool_size={pool_size}, padding={padding!r}")
    y = prim(_to_last(inputs, data_format), pool_size=pool_size,
             strides=strides, pads=pads)
    return _kept_bfloat16(_to_first(y, data_format), inputs)


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
    return _pool(P.average_pool, "average_pool", _float(inputs), pool_size,
                 strides, padding, data_format)


def _adaptive(pool, what, inputs, output_size, data_format):
    """Adaptive pooling one spatial axis at a time, as Keras on JAX does.

    Output `i` of an axis of length `L` pools `[floor(i L / o), ceil((i+1)
    L / o))`. Those windows have two sizes, `ceil(L / o)` and one more, so
    the axis is pooled with both (stride 1) and each output gathers its
    window's entry from the right one.
    """
    data_format = config.standardize_data_format(data_format)
    x = _to_last(convert_to_tensor(inputs), data_format)
    rank = _spatial_rank(x, what)
    sizes = spatial_tuple(output_size, rank, "output_size")
    for axis, out in zip(range(1, rank + 1), sizes):
        x = _adaptive_axis(pool, x, axis, out)
    return _to_first(x, data_format)


def _adaptive_axis(pool, x, axis, out):
    length = x.shape[axis]
    if not length:
        raise ValueError("Adaptive pooling needs a non-empty input. "
                         f"Received inputs of shape {tuple(x.shape)}")
    starts = [i * length // out for i in range(out)]
    ends = [-(-(i + 1) * length // out) for i in range(out)]
    parts, offsets, total = [], {}, 0
    for size in sorted(set(e - s for s, e in zip(starts, ends))):
        window = tuple(size if a == axis else 1
                       for a in range(1, x.ndim - 1))
        parts.append(pool(x, pool_size=window, strides=1,
                          padding="valid", data_format="channels_last"))
        offsets[size] = total
        total += length - size + 1
    pooled = parts[0] if len(parts) == 1 else S.concatenate(*parts,
                                                            axis=axis)
    index = [s + offsets[e - s] for s, e in zip(starts, ends)]
    return S.take(pooled, np.asarray(index), axis=axis)


@keras_op
def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed output size, as
    `keras.ops.adaptive_average_pool`.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        output_size: int or tuple of N ints, the output's spatial size.
        data_format: `"channels_last"` or `"channels_first"`.

    Returns:
        The pooled tensor; output `i` of an axis of length `L` averages
        input entries `floor(i L / o)` to `ceil((i + 1) L / o) - 1`.

    Example:

    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> adaptive_average_pool(x, 2).numpy().ravel()
    array([1., 3.], dtype=float32)
    """
    inputs = convert_to_tensor(inputs)
    if inputs.dtype.kind != "f":
        inputs = cast(inputs, config.floatx())
    return _adaptive(average_pool, "adaptive_average_pool", inputs,
                     output_size, data_format)


@keras_op
def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed output size, as `keras.ops.adaptive_max_pool`.

    Args:
        inputs: Tensor of rank N+2 (see `conv`).
        output_size: int or tuple of N ints, the output's spatial size.
        data_format: `"channels_last"` or `"channels_first"`.

    Returns:
        The pooled tensor (windows as for `adaptive_average_pool`).

    Example:

    >>> x = np.array([3, 1, 4, 1, 5], "float32").reshape(1, 5, 1)
    >>> adaptive_max_pool(x, 2).numpy().ravel()
    array([4., 5.], dtype=float32)
    """
    return _adaptive(max_pool, "adaptive_max_pool", inputs, output_size,
                     data_format)
