"""Resampling: `resize` and `scale_and_translate`, as `jax.image` does it.

Every spatial axis is resampled by a dense `(input, output)` weight matrix
(one contraction per axis): kernel weights at the distance between each
output sample, mapped back into the input, and each input pixel centre,
normalised per output pixel, and zero for samples outside the input.
Downscaling with `antialias` widens the kernel by the scale factor. The
weights are built with differentiable ops, so gradients reach the images
and, in `scale_and_translate`, the scale and translation.
"""
import math

import numpy as np

from kerasish.backend import config
from kerasish.backend.dtypes import is_float  # bfloat16 too
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor, saturate_cast
from kerasish.ops.image import check_images
from kerasish.ops.symbolic import keras_op

RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5",
                         "bicubic", "area")
SCALE_AND_TRANSLATE_METHODS = ("linear", "bilinear", "trilinear", "cubic",
                               "bicubic", "tricubic", "lanczos3", "lanczos5")
_EPS32 = float(np.finfo(np.float32).eps)


# -- kernels ------------------------------------------------------------------
def _triangle(x):
    return knp.maximum(0.0, knp.subtract(1.0, knp.abs(x)))


def _keys_cubic(x):
    # Keys' cubic convolution kernel with a = -0.5 (as JAX, Pillow, TF).
    near = knp.add(knp.multiply(knp.multiply(x * 1.5 - 2.5, x), x), 1.0)
    far = knp.add(knp.multiply(knp.subtract(knp.multiply(
        x * -0.5 + 2.5, x), 4.0), x), 2.0)
    out = knp.where(knp.greater_equal(x, 1.0), far, near)
    return knp.where(knp.greater_equal(x, 2.0), 0.0, out)


def _lanczos(radius):
    def kernel(x):
        y = knp.multiply(knp.multiply(knp.sin(x * math.pi), radius),
                         knp.sin(x * (math.pi / radius)))
        safe = knp.where(knp.not_equal(x, 0), knp.multiply(
            knp.square(x), math.pi ** 2), 1.0)
        out = knp.where(knp.greater(x, 1e-3), knp.divide(y, safe), 1.0)
        return knp.where(knp.greater(x, float(radius)), 0.0, out)
    return kernel


_KERNELS = {"linear": _triangle, "cubic": _keys_cubic,
            "lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "area": None}


def _method(name):
    if name in ("linear", "bilinear", "trilinear"):
        return "linear"
    if name in ("cubic", "bicubic", "tricubic"):
        return "cubic"
    return name


# -- weight matrices ----------------------------------------------------------
def _area_weights(in_size, out_size, inv_scale, shift, dtype):
    """Overlap of each output pixel's footprint with each input pixel."""
    left = knp.subtract(knp.multiply(np.arange(out_size, dtype=dtype),
                                     inv_scale), shift)
    right = knp.add(left, inv_scale)
    j = np.arange(in_size, dtype=dtype)[:, None]
    return knp.maximum(0.0, knp.subtract(knp.minimum(right, j + 1.0),
                                         knp.maximum(left, j)))


def weight_matrix(in_size, out_size, scale, translation, method, antialias,
                  dtype="float32"):
    """`(in_size, out_size)` resampling weights, differentiable in `scale`
    and `translation`. They are computed in `dtype` with JAX's order of
    operations, so float32 results round as Keras's do."""
    scale, translation = cast(scale, dtype), cast(translation, dtype)
    inv_scale = knp.divide(1.0, scale)
    shift = knp.multiply(translation, inv_scale)
    sample = knp.subtract(knp.subtract(knp.multiply(
        np.arange(out_size, dtype=dtype) + np.asarray(0.5, dtype),
        inv_scale), shift), 0.5)
    if method == "area":
        weights = _area_weights(in_size, out_size, inv_scale, shift, dtype)
    else:
        kernel_scale = knp.maximum(inv_scale, 1.0) if antialias else 1.0
        distance = knp.abs(knp.subtract(
            knp.expand_dims(sample, 0),
            np.arange(in_size, dtype=dtype)[:, None]))
        weights = _KERNELS[method](knp.divide(distance, kernel_scale))
    total = knp.sum(weights, axis=0, keepdims=True)
    safe = knp.where(knp.not_equal(total, 0), total, 1.0)
    weights = knp.where(knp.greater(knp.abs(total), 1000.0 * _EPS32),
                        knp.divide(weights, safe), 0.0)
    inside = knp.logical_and(knp.greater_equal(sample, -0.5),
                             knp.less_equal(sample, in_size - 0.5))
    return knp.where(knp.expand_dims(inside, 0), weights, 0.0)


def _weight_dtype(images):
    return "float64" if images.dtype == np.float64 else "float32"


def _contract(images, axis, weights):
    """Resample `images` along `axis` with a `(in, out)` weight matrix."""
    out = knp.tensordot(images, cast(weights, images.dtype),
                        axes=([axis], [0]))
    return knp.moveaxis(out, -1, axis)


def _nearest(images, axis, out_size):
    # JAX's rule, computed in float32: floor((i + 0.5) * in / out).
    in_size = images.shape[axis]
    positions = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) \
        * np.float32(in_size) / np.float32(out_size)
    return knp.take(images, np.floor(positions).astype(np.int64), axis=axis)


def _resample(images, sizes, method, antialias):
    """Resize the axes in `sizes` (`{axis: out_size}`)."""
    for axis, out_size in sizes.items():
        in_size = images.shape[axis]
        if in_size == out_size:
            continue
        if method == "nearest":
            images = _nearest(images, axis, out_size)
            continue
        scale = 1.0 if out_size == 0 else out_size / in_size
        weights = weight_matrix(in_size, out_size, scale, 0.0, method,
                                antialias, _weight_dtype(images))
        images = _contract(images, axis, weights)
    return images


# -- aspect ratio handling ----------------------------------------------------
def _crop_to_aspect(images, h_axis, size):
    height, width = images.shape[h_axis], images.shape[h_axis + 1]
    target_h, target_w = size
    crop_h = max(min(height, int(float(width * target_h) / target_w)), 1)
    crop_w = max(min(width, int(float(height * target_w) / target_h)), 1)
    top, left = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
    key = [slice(None)] * images.ndim
    key[h_axis] = slice(top, top + crop_h)
    key[h_axis + 1] = slice(left, left + crop_w)
    return images[tuple(key)]


def _pad_to_aspect(images, h_axis, size, fill_value):
    height, width = images.shape[h_axis], images.shape[h_axis + 1]
    target_h, target_w = size
    pad_h = max(height, int(float(width * target_h) / target_w))
    pad_w = max(width, int(float(height * target_w) / target_h))
    top, left = int(float(pad_h - height) / 2), int(float(pad_w - width) / 2)
    # As Keras: the same margin on both sides (an odd difference loses a
    # row or column), only along the axis that needs it.
    widths = [(0, 0)] * images.ndim
    if top > 0:
        widths[h_axis] = (top, top)
    elif left > 0:
        widths[h_axis + 1] = (left, left)
    else:
        return images
    return knp.pad(images, widths, constant_values=fill_value)


def _check_resize_args(images, size, interpolation, fill_mode,
                       crop_to_aspect_ratio, pad_to_aspect_ratio):
    if interpolation not in RESIZE_INTERPOLATIONS:
        raise ValueError(
            "Invalid value for argument `interpolation`. Expected of one "
            f"{RESIZE_INTERPOLATIONS}. Received: "
            f"interpolation={interpolation}")
    if fill_mode != "constant":
        raise ValueError("Invalid value for argument `fill_mode`. Only "
                         f"`'constant'` is supported. Received: "
                         f"fill_mode={fill_mode}")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio` & "
                         "`crop_to_aspect_ratio` can be `True`.")
    if len(size) != 2:
        raise ValueError("Argument `size` must be a tuple of two elements "
                         f"(height, width). Received: size={size}")
    if min(size) <= 0:
        raise ValueError("`size` must have positive height and width. "
                         f"Received: size={size}")
    check_images(images)


@keras_op
def resize(images, size, interpolation="bilinear", antialias=False,
           crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
           fill_mode="constant", fill_value=0.0, data_format=None):
    """Resize images to `size`, with Keras's (JAX's) resampling.

    Args:
        images: Rank 3 or 4 images.
        size: `(height, width)` of the output.
        interpolation: `"bilinear"` (default), `"nearest"`, `"bicubic"`
            (Keys, a = -0.5), `"lanczos3"`, `"lanczos5"` or `"area"`
            (average over each output pixel's footprint, as TensorFlow).
        antialias: Widen the kernel when downsampling (low-pass filter).
            Defaults to `False`.
        crop_to_aspect_ratio: Centre-crop to the target aspect ratio first.
        pad_to_aspect_ratio: Pad with `fill_value` to the target aspect
            ratio first.
        fill_mode: Only `"constant"`.
        fill_value: Padding value for `pad_to_aspect_ratio`. Defaults to 0.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The resized images, in the input dtype (integer results are rounded
        and saturated).

    Example:

    >>> resize(np.arange(4.0).reshape(2, 2, 1), (4, 4))[:, :, 0].numpy()
    array([[0.  , 0.25, 0.75, 1.  ],
           [0.5 , 0.75, 1.25, 1.5 ],
           [1.5 , 1.75, 2.25, 2.5 ],
           [2.  , 2.25, 2.75, 3.  ]])
    """
    images = convert_to_tensor(images)
    size = tuple(int(s) for s in size)
    _check_resize_args(images, size, interpolation, fill_mode,
                       crop_to_aspect_ratio, pad_to_aspect_ratio)
    data_format = config.standardize_data_format(data_format)
    h_axis = images.ndim - (3 if data_format == "channels_last" else 2)
    if crop_to_aspect_ratio:
        images = _crop_to_aspect(images, h_axis, size)
    elif pad_to_aspect_ratio:
        images = _pad_to_aspect(images, h_axis, size, fill_value)
    dtype = images.dtype
    work = images
    if interpolation != "nearest" and not is_float(dtype):
        work = cast(images, config.floatx())
    out = _resample(work, {h_axis: size[0], h_axis + 1: size[1]},
                    _method(interpolation), antialias)
    if out.dtype == dtype:
        return out
    return saturate_cast(knp.round(out), dtype)


@keras_op
def scale_and_translate(images, output_shape, scale, translation,
                        spatial_dims, method, antialias=True):
    """Resample with an explicit scale and translation per spatial axis.

    An input location `x` maps to `x * scale + translation` in the output
    (pixel centres at half-integers); output pixels whose sample falls
    outside the input are 0.

    Args:
        images: Input tensor.
        output_shape: Full output shape (same rank as `images`).
        scale: Scales, one per entry of `spatial_dims`.
        translation: Translations, one per entry of `spatial_dims`.
        spatial_dims: Axes to resample.
        method: `"linear"`/`"bilinear"`/`"trilinear"`, `"cubic"`/
            `"bicubic"`/`"tricubic"`, `"lanczos3"` or `"lanczos5"`.
        antialias: Widen the kernel when downsampling. Defaults to `True`.

    Returns:
        The resampled tensor (differentiable in `images`, `scale` and
        `translation`).

    Example:

    >>> out = scale_and_translate(np.ones((4,)), (8,), [2.0], [0.0], [0],
    ...                           "linear")
    >>> out.numpy()
    array([1., 1., 1., 1., 1., 1., 1., 1.])
    """
    if method not in SCALE_AND_TRANSLATE_METHODS:
        raise ValueError(
            "Invalid value for argument `method`. Expected of one "
            f"{set(SCALE_AND_TRANSLATE_METHODS)}. Received: method={method}")
    images = convert_to_tensor(images)
    if not is_float(images.dtype):
        images = cast(images, config.floatx())
    output_shape = tuple(int(d) for d in output_shape)
    if len(output_shape) != images.ndim:
        raise ValueError("`output_shape` must have one entry per axis of "
                         f"`images`. Received: output_shape={output_shape}, "
                         f"images.shape={images.shape}")
    scale, translation = convert_to_tensor(scale), convert_to_tensor(
        translation)
    for i, axis in enumerate(spatial_dims):
        axis = axis % images.ndim
        weights = weight_matrix(images.shape[axis], output_shape[axis],
                                scale[i], translation[i], _method(method),
                                antialias, _weight_dtype(images))
        images = _contract(images, axis, weights)
    return images
