"""More `keras.ops.nn`: `polar`, `unfold`/`fold` (im2col/col2im),
`depth_to_space`/`space_to_depth`, and the CTC ops (`ctc_loss` from
`kerasish.losses.ctc`, `ctc_decode` in `nn_ctc.py`). All differentiable
except the decoder."""
import builtins

import numpy as np

from kerasish.backend import config
from kerasish.backend import elementwise as E
from kerasish.backend import scatter as SC
from kerasish.backend import shape as S
from kerasish.ops import numpy as knp
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.symbolic import keras_op
from kerasish.backend.dtypes import standardize_dtype
from kerasish.backend.common.keras_tensor import KerasTensor

__all__ = ["polar", "unfold", "fold", "depth_to_space", "space_to_depth",
           "ctc_loss", "ctc_decode"]


@keras_op
def polar(abs_, angle):
    """Complex numbers from magnitudes and angles: `abs_ * exp(1j * angle)`.

    Args:
        abs_: Magnitudes.
        angle: Angles in radians.

    Returns:
        complex64 tensor (complex128 for float64 inputs), differentiable.

    Example:

    >>> polar(np.float32(2.0), np.float32(0.0)).numpy()
    array(2.+0.j, dtype=complex64)
    """
    abs_, angle = knp._tensors(knp._float(abs_), knp._float(angle))
    return E.complex_from_parts(knp.multiply(abs_, knp.cos(angle)),
                                knp.multiply(abs_, knp.sin(angle)))


def _pair(value):
    return (int(value),) * 2 if np.ndim(value) == 0 else tuple(
        int(v) for v in value)


def _windows(size, kernel, dilation, stride):
    """`(out, kernel)` input positions of each window along one axis."""
    count = (size - dilation * (kernel - 1) - 1) // stride + 1
    if count <= 0:
        raise ValueError(f"The kernel ({kernel}, dilation {dilation}) does "
                         f"not fit in a padded size of {size}.")
    return np.arange(count)[:, None] * stride + np.arange(kernel) * dilation


@keras_op
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of NCHW images, as columns (`torch`'s unfold).

    Args:
        x: Tensor `(N, C, H, W)`.
        kernel_size: Int or `(kH, kW)`.
        dilation: Int or pair. Defaults to 1.
        padding: Zero padding on both sides, int or pair. Defaults to 0.
        stride: Int or pair. Defaults to 1.

    Returns:
        Tensor `(N, C * kH * kW, L)`, blocks ordered row-major.

    Example:

    >>> columns = unfold(np.arange(16.0).reshape(1, 1, 4, 4), 2, stride=2)
    >>> columns[0, :, 0].numpy()
    array([0., 1., 4., 5.])
    """
    x = convert_to_tensor(x)
    if x.ndim != 4:
        raise ValueError(
            f"Input must be a 4D tensor. Received: input.shape={x.shape}")
    (kh, kw), (dh, dw) = _pair(kernel_size), _pair(dilation)
    (ph, pw), (sh, sw) = _pair(padding), _pair(stride)
    x = knp.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    rows = _windows(x.shape[2], kh, dh, sh)
    cols = _windows(x.shape[3], kw, dw, sw)
    # (N, C, oH, kH, oW, kW) -> (N, C, kH, kW, oH, oW)
    blocks = x[:, :, rows[:, :, None, None], cols[None, None, :, :]]
    blocks = knp.transpose(blocks, (0, 1, 3, 5, 2, 4))
    n, c = x.shape[:2]
    return knp.reshape(blocks, (n, c * kh * kw, rows.shape[0] * cols.shape[0]))


@keras_op
def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding local blocks back into images (inverse of `unfold`).

    Args:
        x: Tensor `(N, C * kH * kW, L)`.
        output_size: Int or `(H, W)` of the output.
        kernel_size: Int or `(kH, kW)`.
        dilation: Int or pair. Defaults to 1.
        padding: Int or pair, removed from the result. Defaults to 0.
        stride: Int or pair. Defaults to 1.

    Returns:
        Tensor `(N, C, H, W)`; overlapping entries are summed.

    Example:

    >>> fold(np.ones((1, 4, 4)), 3, 2)[0, 0].numpy()
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]])
    """
    x = convert_to_tensor(x)
    if x.ndim != 3:
        raise ValueError(
            f"Input must be a 3D tensor. Received: input.shape={x.shape}")
    (oh, ow), (kh, kw) = _pair(output_size), _pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = (_pair(dilation), _pair(padding),
                                    _pair(stride))
    height, width = oh + 2 * ph, ow + 2 * pw
    rows, cols = (_windows(height, kh, dh, sh), _windows(width, kw, dw, sw))
    n, ckk, count = x.shape
    if ckk % (kh * kw) or count != rows.shape[0] * cols.shape[0]:
        raise ValueError(
            f"Expected `x` of shape (N, C * {kh * kw}, "
            f"{rows.shape[0] * cols.shape[0]}) for these arguments. "
            f"Received: x.shape={x.shape}")
    c = ckk // (kh * kw)
    blocks = knp.reshape(x, (n, c, kh, kw, rows.shape[0], cols.shape[0]))
    blocks = knp.transpose(blocks, (2, 3, 4, 5, 0, 1))
    positions = (rows.T[:, None, :, None] * width
                 + cols.T[None, :, None, :]).ravel()
    summed = SC.scatter_add(knp.reshape(blocks, (-1, n, c)),
                            positions=positions, size=height * width)
    out = knp.reshape(knp.transpose(summed, (1, 2, 0)), (n, c, height,
                                                         width))
    return S.getitem(out, key=(Ellipsis, builtins.slice(ph, ph + oh),
                               builtins.slice(pw, pw + ow)))


def _block_args(x, block_size, data_format):
    x = convert_to_tensor(x)
    if block_size < 2:
        raise ValueError("`block_size` must be at least 2. "
                         f"Received: block_size={block_size}")
    if x.ndim != 4:
        raise ValueError("Input must be a 4D tensor. Received: "
                         f"input.shape={x.shape}")
    return x, int(block_size), config.standardize_data_format(data_format)


@keras_op
def depth_to_space(x, block_size, data_format="channels_last"):
    """Move channel blocks into space (pixel shuffle).

    Args:
        x: Tensor `(N, H, W, C)` (or `(N, C, H, W)` channels-first), with
            `C` divisible by `block_size ** 2`.
        block_size: Int >= 2.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Returns:
        Tensor `(N, H * b, W * b, C / b**2)` (or channels-first).

    Example:

    >>> out = depth_to_space(np.arange(4.0).reshape(1, 1, 1, 4), 2)
    >>> out[0, :, :, 0].numpy()
    array([[0., 1.],
           [2., 3.]])
    """
    x, b, data_format = _block_args(x, block_size, data_format)
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = knp.reshape(x, (n, h, w, b, b, c // (b * b)))
        x = knp.transpose(x, (0, 1, 3, 2, 4, 5))
        return knp.reshape(x, (n, h * b, w * b, c // (b * b)))
    n, c, h, w = x.shape
    x = knp.reshape(x, (n, c // (b * b), b, b, h, w))
    x = knp.transpose(x, (0, 1, 4, 2, 5, 3))
    return knp.reshape(x, (n, c // (b * b), h * b, w * b))


@keras_op
def space_to_depth(x, block_size, data_format="channels_last"):
    """Move spatial blocks into channels (pixel unshuffle).

    Args:
        x: Tensor `(N, H, W, C)` (or `(N, C, H, W)`), `H` and `W` divisible
            by `block_size`.
        block_size: Int >= 2.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    Returns:
        Tensor `(N, H / b, W / b, C * b**2)` (or channels-first).

    Example:

    >>> space_to_depth(np.arange(4.0).reshape(1, 2, 2, 1), 2).numpy()
    array([[[[0., 1., 2., 3.]]]])
    """
    x, b, data_format = _block_args(x, block_size, data_format)
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = knp.reshape(x, (n, h // b, b, w // b, b, c))
        x = knp.transpose(x, (0, 1, 3, 2, 4, 5))
        return knp.reshape(x, (n, h // b, w // b, c * b * b))
    n, c, h, w = x.shape
    x = knp.reshape(x, (n, c, h // b, b, w // b, b))
    x = knp.transpose(x, (0, 1, 3, 5, 2, 4))
    return knp.reshape(x, (n, c * b * b, h // b, w // b))


def _ctc_loss_spec(target, output, target_length, output_length,
                   mask_index=0):
    """One loss per sample; the lengths' values are unknown symbolically
    (zero placeholders would fail the length checks)."""
    dtype = standardize_dtype(getattr(output, "dtype", None) or "float32")
    return KerasTensor((output.shape[0],),
                       dtype="float64" if dtype == "float64" else "float32")


@keras_op(spec=_ctc_loss_spec)
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """CTC loss per sample (fused forward-backward, see `kerasish.losses`).

    Args:
        target: Integer labels `(batch, max_label_length)`.
        output: Logits `(batch, max_time, num_classes)`.
        target_length: Label length of each sample, `(batch,)`.
        output_length: Valid frames of each sample, `(batch,)`.
        mask_index: The blank class. Defaults to 0.

    Returns:
        Negative log-likelihoods, shape `(batch,)`.

    Example:

    >>> loss = ctc_loss(np.array([[1]]), np.zeros((1, 2, 3), "float32"),
    ...                 np.array([1]), np.array([2]))
    >>> round(float(loss[0]), 4)
    1.0986
    """
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.losses.ctc import ctc_loss as fused
    return fused(target, output, target_length, output_length,
                 mask_index=mask_index)


from kerasish.ops.nn_ctc import ctc_decode  # noqa: E402,F401
