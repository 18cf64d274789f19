"""Overlap measures between boxes: pairwise IoU and Complete IoU (CIoU)."""
import math

from kerasish import ops
from kerasish.backend import config
from kerasish.layers.preprocessing.image.bounding_boxes.converters import (
    convert_format)


def _image_size(bounding_box_format, image_shape, function):
    if "rel" in bounding_box_format.lower() and image_shape is None:
        raise ValueError(
            f"{function}() needs `image_shape` for relative bounding box "
            f"formats. Received: bounding_box_format="
            f"{bounding_box_format!r}, image_shape={image_shape}")
    if image_shape is None:
        return None, None
    return image_shape[0], image_shape[1]


def _convert(boxes, fmt, target, height, width):
    # In float32, as Keras's `convert_format` casts by default.
    return convert_format(boxes, fmt, target, height, width)


def _check_rank(boxes, name):
    if boxes.ndim not in (2, 3):
        raise ValueError(
            f"compute_iou() expects `{name}` shaped (N, 4) or (batch, N, 4)."
            f" Received: {name}.shape={tuple(boxes.shape)}")


def _pairwise_intersection(boxes1, boxes2):
    """`(..., N, M)` intersection areas of yxyx boxes."""
    top1, left1, bottom1, right1 = ops.split(boxes1, 4, axis=-1)
    top2, left2, bottom2, right2 = [ops.swapaxes(p, -1, -2) for p in
                                    ops.split(boxes2, 4, axis=-1)]
    height = ops.minimum(bottom1, bottom2) - ops.maximum(top1, top2)
    width = ops.minimum(right1, right2) - ops.maximum(left1, left2)
    return ops.maximum(height, 0.0) * ops.maximum(width, 0.0)


def _area(boxes):
    top, left, bottom, right = ops.split(boxes, 4, axis=-1)
    return ops.squeeze((bottom - top) * (right - left), axis=-1)


def compute_iou(boxes1, boxes2, bounding_box_format, use_masking=False,
                mask_val=-1, image_shape=None):
    """Pairwise intersection over union of two sets of boxes.

    Either set may be batched: `(M, 4)` with `(N, 4)` gives `(M, N)`; any
    batched input gives `(batch, M, N)`.

    Args:
        boxes1: Boxes `(M, 4)` or `(batch, M, 4)`.
        boxes2: Boxes `(N, 4)` or `(batch, N, 4)`.
        bounding_box_format: Format of both sets.
        use_masking: Replace the IoU of padding boxes (all coordinates
            negative) by `mask_val`. Defaults to `False`.
        mask_val: Value for masked pairs. Defaults to -1.
        image_shape: `(height, width, channels)`, needed for relative
            formats.

    Returns:
        The IoU table.

    Example:

    >>> a = np.array([[0.0, 0.0, 2.0, 2.0]])
    >>> b = np.array([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]])
    >>> compute_iou(a, b, "xyxy").numpy().round(4)
    array([[0.1429, 1.    ]], dtype=float32)
    """
    height, width = _image_size(bounding_box_format, image_shape,
                                "compute_iou")
    boxes1 = _convert(boxes1, bounding_box_format, "yxyx", height, width)
    boxes2 = _convert(boxes2, bounding_box_format, "yxyx", height, width)
    _check_rank(boxes1, "boxes1")
    _check_rank(boxes2, "boxes2")
    intersection = _pairwise_intersection(boxes1, boxes2)
    union = (ops.expand_dims(_area(boxes1), -1)
             + ops.expand_dims(_area(boxes2), -2) - intersection)
    iou = ops.divide(intersection, union + config.epsilon())
    if not use_masking:
        return iou
    pad1 = ops.less(ops.max(boxes1, axis=-1, keepdims=True), 0.0)
    pad2 = ops.swapaxes(ops.less(ops.max(boxes2, axis=-1, keepdims=True),
                                 0.0), -1, -2)
    return ops.where(ops.logical_or(pad1, pad2),
                     ops.cast(mask_val, iou.dtype), iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """Complete IoU of matching boxes (the CIoU loss's similarity).

    CIoU is the IoU minus the squared centre distance over the squared
    diagonal of the enclosing box, minus an aspect-ratio penalty.

    Args:
        boxes1: Boxes `(..., 4)`.
        boxes2: Boxes `(..., 4)` (broadcasting against `boxes1`).
        bounding_box_format: Format of both sets.
        image_shape: `(height, width, channels)`, needed for relative
            formats.

    Returns:
        CIoU per box pair, shaped like the boxes without the last axis.

    Example:

    >>> a = np.array([[0.0, 0.0, 2.0, 2.0]])
    >>> round(float(compute_ciou(a, a, "xyxy")[0]), 4)
    1.0
    """
    height, width = _image_size(bounding_box_format, image_shape,
                                "compute_ciou")
    boxes1 = _convert(boxes1, bounding_box_format, "xyxy", height, width)
    boxes2 = _convert(boxes2, bounding_box_format, "xyxy", height, width)
    eps = config.epsilon()
    x1a, y1a, x2a, y2a = ops.split(boxes1, 4, axis=-1)
    x1b, y1b, x2b, y2b = ops.split(boxes2, 4, axis=-1)
    width_a, height_a = x2a - x1a, y2a - y1a + eps
    width_b, height_b = x2b - x1b, y2b - y1b + eps
    overlap = (ops.maximum(ops.minimum(x2a, x2b) - ops.maximum(x1a, x1b), 0)
               * ops.maximum(ops.minimum(y2a, y2b) - ops.maximum(y1a, y1b),
                             0))
    union = width_a * height_a + width_b * height_b - overlap + eps
    iou = ops.squeeze(overlap / (union + eps), axis=-1)
    hull_w = ops.maximum(x2a, x2b) - ops.minimum(x1a, x1b)
    hull_h = ops.maximum(y2a, y2b) - ops.minimum(y1a, y1b)
    diagonal = ops.squeeze(hull_w ** 2 + hull_h ** 2 + eps, axis=-1)
    centres = ops.squeeze(((x1a + x2a) / 2 - (x1b + x2b) / 2) ** 2
                          + ((y1a + y2a) / 2 - (y1b + y2b) / 2) ** 2, axis=-1)
    v = ops.squeeze((4 / math.pi ** 2) * (
        ops.arctan(width_b / height_b) - ops.arctan(width_a / height_a)) ** 2,
        axis=-1)
    alpha = v / (v - iou + (1 + eps))
    return iou - (centres / diagonal + v * alpha)
