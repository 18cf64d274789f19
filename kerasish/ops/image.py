"""Image ops (`keras.ops.image`): colour spaces, cropping and padding here;
resizing in `image_resize.py`, geometric warps in `image_geometry.py`,
filters and patches in `image_filters.py`.

Images are rank 3 (one image) or rank 4 (a batch), `channels_last` unless
`data_format` (or `keras.config.image_data_format()`) says otherwise. The
ops are composites of differentiable ops, so gradients flow to the images
(and to coordinates and transforms where Keras's JAX backend has them).
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend.dtypes import is_float  # bfloat16 too
from kerasish.ops import core, numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.symbolic import keras_op
from kerasish.backend.common.keras_tensor import KerasTensor

__all__ = ["affine_transform", "crop_images", "elastic_transform",
           "extract_patches", "extract_patches_3d", "gaussian_blur",
           "hsv_to_rgb", "map_coordinates", "pad_images",
           "perspective_transform", "resize", "rgb_to_grayscale",
           "rgb_to_hsv", "scale_and_translate", "sobel_edges", "ssim"]


def check_images(images, name="images", ranks=(3, 4)):
    """Raise Keras's error unless `images` has one of `ranks`."""
    if len(images.shape) not in ranks:
        raise ValueError(
            f"Invalid {name} rank: expected rank 3 (single image) or rank 4 "
            f"(batch of images). Received input with shape: "
            f"{name}.shape={tuple(images.shape)}")


def channel_axis(data_format):
    data_format = config.standardize_data_format(data_format)
    return -1 if data_format == "channels_last" else -3


def _eps(dtype):
    """Machine epsilon; numpy's finfo does not know bfloat16."""
    if str(dtype) == "bfloat16":
        import ml_dtypes  # lazy: optional dependency
        return float(ml_dtypes.finfo(dtype).eps)
    return float(np.finfo(dtype).eps)


def _float_images(images):
    if not is_float(images.dtype):
        raise ValueError("Invalid images dtype: expected float dtype. "
                         f"Received: images.dtype={images.dtype}")


@keras_op
def rgb_to_grayscale(images, data_format=None):
    """Convert RGB images to grayscale (ITU-R 601 luma weights).

    Args:
        images: Images with 3 channels (1-channel images are returned as
            they are).
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.

    Returns:
        Images with one channel, in the input dtype.

    Example:

    >>> rgb_to_grayscale(np.ones((2, 2, 3), "float32")).shape
    (2, 2, 1)
    """
    images = convert_to_tensor(images)
    axis = channel_axis(data_format)
    check_images(images)
    if images.shape[axis] not in (1, 3):
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 "
                         "(Grayscale). Received input with shape: "
                         f"images.shape={images.shape}")
    if images.shape[axis] == 1:
        return images
    dtype = images.dtype
    floats = images if is_float(dtype) else cast(images, config.floatx())
    weights = convert_to_tensor([0.2989, 0.5870, 0.1140], dtype=floats.dtype)
    gray = knp.tensordot(floats, weights, axes=([axis % images.ndim], [0]))
    return cast(knp.expand_dims(gray, axis), dtype)


def _split_channels(images, axis):
    return [knp.squeeze(p, axis) for p in knp.split(images, 3, axis=axis)]


@keras_op
def rgb_to_hsv(images, data_format=None):
    """Convert RGB images (values in `[0, 1]`) to HSV.

    Args:
        images: Float images with 3 channels.
        data_format: Image data format; defaults to the global setting.

    Returns:
        HSV images (hue, saturation and value in `[0, 1]`).

    Example:

    >>> rgb_to_hsv(np.array([[[1.0, 0.0, 0.0]]], "float32")).numpy()
    array([[[0., 1., 1.]]], dtype=float32)
    """
    images = convert_to_tensor(images)
    axis = channel_axis(data_format)
    check_images(images)
    _float_images(images)
    eps = _eps(images.dtype)
    images = knp.where(knp.less(knp.abs(images), eps), 0.0, images)
    r, g, b = _split_channels(images, axis)
    value = knp.maximum(knp.maximum(r, g), b)
    spread = knp.subtract(value, knp.minimum(knp.minimum(r, g), b))
    safe_value = knp.where(knp.greater(value, 0), value, 1.0)
    safe_spread = knp.where(knp.greater(spread, 0), spread, 1.0)
    saturation = knp.where(knp.greater(value, 0),
                           knp.divide(spread, safe_value), 0.0)
    norm = knp.divide(1.0, knp.multiply(safe_spread, 6.0))
    hue = knp.where(knp.equal(value, g),
                    knp.add(knp.multiply(norm, b - r), 2.0 / 6.0),
                    knp.add(knp.multiply(norm, r - g), 4.0 / 6.0))
    hue = knp.where(knp.equal(value, r), knp.multiply(norm, g - b), hue)
    hue = knp.add(knp.where(knp.greater(spread, 0), hue, 0.0),
                  cast(knp.less(hue, 0.0), hue.dtype))
    return knp.stack([hue, saturation, value], axis=axis)


@keras_op
def hsv_to_rgb(images, data_format=None):
    """Convert HSV images to RGB.

    Args:
        images: Float images with 3 channels (hue, saturation, value).
        data_format: Image data format; defaults to the global setting.

    Returns:
        RGB images.

    Example:

    >>> hsv_to_rgb(np.array([[[0.0, 1.0, 1.0]]], "float32")).numpy()
    array([[[1., 0., 0.]]], dtype=float32)
    """
    images = convert_to_tensor(images)
    axis = channel_axis(data_format)
    check_images(images)
    _float_images(images)
    hue, saturation, value = _split_channels(images, axis)
    dh = knp.multiply(knp.mod(hue, 1.0), 6.0)
    dr = knp.clip(knp.subtract(knp.abs(dh - 3.0), 1.0), 0.0, 1.0)
    dg = knp.clip(knp.subtract(2.0, knp.abs(dh - 2.0)), 0.0, 1.0)
    db = knp.clip(knp.subtract(2.0, knp.abs(dh - 4.0)), 0.0, 1.0)
    keep = knp.subtract(1.0, saturation)
    planes = [knp.multiply(value, knp.add(keep, knp.multiply(saturation, d)))
              for d in (dr, dg, db)]
    return knp.stack(planes, axis=axis)


def _resolve(first, second, target, names):
    """Fill in the one missing value of `first + second + target == size`
    (crop) and check non-negativity, with Keras's messages."""
    if [first, second, target].count(None) != 1:
        raise ValueError(
            f"Must specify exactly two of {names[0]}, {names[1]}, {names[2]}"
            f". Received: {names[0]}={first}, {names[1]}={second}, "
            f"{names[2]}={target}")
    for value, name in zip((first, second, target), names):
        if value is not None and value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    return first, second, target


def _spatial(images, data_format):
    data_format = config.standardize_data_format(data_format)
    h_axis = -3 if data_format == "channels_last" else -2
    return images.ndim + h_axis, images.ndim + h_axis + 1


def _pad_spec(images, top_padding=None, left_padding=None,
              bottom_padding=None, right_padding=None, target_height=None,
              target_width=None, data_format=None):
    """Symbolic shape when a padded axis is unknown: a target size is the
    output size (the zero placeholders would be larger than it); else the
    placeholder run (which also checks the arguments) answers."""
    if images.ndim not in (3, 4):
        return None
    shape = list(images.shape)
    axes = _spatial(images, data_format)
    groups = ((top_padding, bottom_padding, target_height,
               ("top_padding", "bottom_padding", "target_height")),
              (left_padding, right_padding, target_width,
               ("left_padding", "right_padding", "target_width")))
    if all(shape[axis] is not None for axis in axes):
        return None
    for axis, (first, second, target, names) in zip(axes, groups):
        _resolve(first, second, target, names)
        if target is not None:
            shape[axis] = target
        elif shape[axis] is not None:
            shape[axis] += first + second
    return KerasTensor(tuple(shape), dtype=images.dtype)


@keras_op(spec=_pad_spec)
def pad_images(images, top_padding=None, left_padding=None,
               bottom_padding=None, right_padding=None, target_height=None,
               target_width=None, data_format=None):
    """Zero-pad images to a target size (or by given amounts).

    Exactly two of `top_padding`, `bottom_padding`, `target_height` (and of
    the width counterparts) must be given.

    Args:
        images: Rank 3 or 4 images.
        top_padding: Rows added on top.
        left_padding: Columns added on the left.
        bottom_padding: Rows added at the bottom.
        right_padding: Columns added on the right.
        target_height: Output height.
        target_width: Output width.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The padded images.

    Example:

    >>> pad_images(np.ones((2, 2, 1)), 1, 0, target_height=4,
    ...            target_width=3).shape
    (4, 3, 1)
    """
    images = convert_to_tensor(images)
    check_images(images)
    top, bottom, target_h = _resolve(top_padding, bottom_padding,
                                     target_height, (
                                         "top_padding", "bottom_padding",
                                         "target_height"))
    left, right, target_w = _resolve(left_padding, right_padding,
                                     target_width, (
                                         "left_padding", "right_padding",
                                         "target_width"))
    h_axis, w_axis = _spatial(images, data_format)
    height, width = images.shape[h_axis], images.shape[w_axis]
    top = target_h - bottom - height if top is None else top
    bottom = target_h - top - height if bottom is None else bottom
    left = target_w - right - width if left is None else left
    right = target_w - left - width if right is None else right
    for value, name in ((top, "top_padding"), (left, "left_padding"),
                        (right, "right_padding"),
                        (bottom, "bottom_padding")):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    width_pad = [(0, 0)] * images.ndim
    width_pad[h_axis], width_pad[w_axis] = (top, bottom), (left, right)
    return knp.pad(images, width_pad)


@keras_op
def crop_images(images, top_cropping=None, left_cropping=None,
                bottom_cropping=None, right_cropping=None, target_height=None,
                target_width=None, data_format=None):
    """Crop images to a target size (or by given amounts).

    Exactly two of `top_cropping`, `bottom_cropping`, `target_height` (and
    of the width counterparts) must be given.

    Args:
        images: Rank 3 or 4 images.
        top_cropping: Rows removed at the top.
        left_cropping: Columns removed on the left.
        bottom_cropping: Rows removed at the bottom.
        right_cropping: Columns removed on the right.
        target_height: Output height.
        target_width: Output width.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The cropped images.

    Example:

    >>> crop_images(np.ones((4, 4, 1)), 1, 1, target_height=2,
    ...             target_width=2).shape
    (2, 2, 1)
    """
    images = convert_to_tensor(images)
    check_images(images)
    top, bottom, target_h = _resolve(top_cropping, bottom_cropping,
                                     target_height, (
                                         "top_cropping", "bottom_cropping",
                                         "target_height"))
    left, right, target_w = _resolve(left_cropping, right_cropping,
                                     target_width, (
                                         "left_cropping", "right_cropping",
                                         "target_width"))
    h_axis, w_axis = _spatial(images, data_format)
    height, width = images.shape[h_axis], images.shape[w_axis]
    top = height - target_h - bottom if top is None else top
    target_h = height - bottom - top if target_h is None else target_h
    left = width - target_w - right if left is None else left
    target_w = width - right - left if target_w is None else target_w
    for value, name in ((top, "top_cropping"), (target_h, "target_height"),
                        (left, "left_cropping"), (target_w, "target_width")):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    if target_h > height or target_w > width:
        raise ValueError("The cropped size must fit in the images. Received: "
                         f"target_height={target_h}, target_width={target_w}"
                         f" for images of height {height} and width {width}")
    start = [0] * images.ndim
    shape = list(images.shape)
    start[h_axis], start[w_axis] = top, left
    shape[h_axis], shape[w_axis] = target_h, target_w
    return core.slice(images, start, shape)


from kerasish.ops.image_filters import (extract_patches,  # noqa: E402,F401
                                        extract_patches_3d, gaussian_blur,
                                        sobel_edges, ssim)
from kerasish.ops.image_geometry import (affine_transform,  # noqa: E402,F401
                                         elastic_transform, map_coordinates,
                                         perspective_transform)
from kerasish.ops.image_resize import (resize,  # noqa: E402,F401
                                       scale_and_translate)
