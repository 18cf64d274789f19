"""Argument checks and output geometry of the convolution/pooling ops.

Shared by `kerasish.ops.conv` and the convolution/pooling layers: tuples of
per-axis ints, padding names, XLA's `"same"` padding, the feature-group
count, and Keras's padding of a transposed convolution. Errors name the
argument and the shapes received.
"""
import numpy as np

from kerasish.backend import windows as W


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


def check_output(sizes, pads, windows, strides, input_shape, detail):
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
    groups = feature_groups(channels, kernel_shape)
    windows = W.dilated(kernel_shape[:-2], dilation)
    pads = W.spatial_padding(sizes, windows, strides, padding)
    check_output(sizes, pads, windows, strides, input_shape,
                  f"kernel shape={tuple(kernel_shape)}, "
                  f"dilation_rate={dilation}, padding={padding!r}")
    return strides, pads, dilation, groups


def feature_groups(channels, kernel_shape):
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
