"""What the geometric layers share: their argument checks, the affine
transform of images (`ops.image.affine_transform`) and the matching move
of bounding boxes.

A transform is Keras's 8-vector `[a0, a1, a2, b0, b1, b2, c0, c1]` per
image, mapping each *output* pixel `(x, y)` to the input location
`(a0 x + a1 y + a2, b0 x + b1 y + b2)` it is read from. Boxes move the
other way, so their corners go through the inverse map; a box becomes the
envelope of its four moved corners, clipped to the image.
"""
import math

import numpy as np

from kerasish import ops
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.bounding_boxes import converters

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


def check_fill_mode(fill_mode, choices=FILL_MODES):
    return factors.check_choice(fill_mode, choices, "fill_mode")


def check_interpolation(interpolation):
    return factors.check_choice(interpolation, INTERPOLATIONS,
                                "interpolation")


def rotation_transforms(angles, height, width):
    """`(batch, 8)` transforms rotating by `angles` (degrees) about the
    image centre (Keras's `_compute_affine_matrix` with no shear, scale or
    translation), computed in float32 as Keras does."""
    angles = np.asarray(angles, "float32") * np.float32(math.pi / 180.0)
    cos, sin = np.cos(angles), np.sin(angles)
    cx = np.float32(0.5) * np.float32(width - 1)
    cy = np.float32(0.5) * np.float32(height - 1)
    a0, a1, b0, b1 = cos, -sin, sin, cos
    a2 = cx - cx * a0 - cy * a1
    b2 = cy - cx * b0 - cy * b1
    zeros = np.zeros_like(angles)
    return np.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=-1)


def warp_images(layer, images, transforms, interpolation):
    """Apply `(batch, 8)` transforms with the layer's fill settings."""
    return ops.image.affine_transform(
        images, np.asarray(transforms, "float32"),
        interpolation=interpolation, fill_mode=layer.fill_mode,
        fill_value=layer.fill_value, data_format=layer.data_format)


def inverse_matrices(transforms):
    """`(batch, 2, 3)` input -> output maps inverting affine transforms."""
    t = np.asarray(transforms, "float64")
    linear = np.stack([t[:, 0:2], t[:, 3:5]], axis=1)
    inverse = np.linalg.inv(linear)
    offset = -np.einsum("bij,bj->bi", inverse, t[:, [2, 5]])
    return np.concatenate([inverse, offset[..., None]], axis=-1)


def warp_boxes(layer, bounding_boxes, transforms, image_size):
    """Move boxes with their images and clip them (empty boxes get label
    -1); returns the boxes in the layer's format."""
    height, width = image_size
    fmt = layer.bounding_box_format
    boxes = converters.convert_format(bounding_boxes["boxes"], fmt, "xyxy",
                                      height=height, width=width)
    matrix = inverse_matrices(transforms).astype("float32")
    moved = converters.transform_corners(boxes, matrix)
    result = converters.clip_to_image_size(
        {**bounding_boxes, "boxes": moved}, height, width)
    result["boxes"] = converters.convert_format(
        result["boxes"], "xyxy", fmt, height=height, width=width)
    return result
