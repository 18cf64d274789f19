"""Bounding box conversions: between formats, clipping to the image, and
the crop, pad and affine moves the image layers apply to their boxes.

Boxes are tensors shaped `(..., 4)` (usually `(num_boxes, 4)` or
`(batch, num_boxes, 4)`); the functions take numpy arrays, lists or
tensors and return tensors, computed with differentiable ops.
"""
import math

from kerasish import ops
from kerasish.layers.preprocessing.image.bounding_boxes import formats
from kerasish.layers.preprocessing.image.bounding_boxes.formats import (
    SUPPORTED_FORMATS)  # noqa


def _check_boxes(boxes):
    boxes = ops.convert_to_tensor(boxes)
    if boxes.ndim == 0 or boxes.shape[-1] != 4:
        raise ValueError("`boxes` must be a tensor with the last dimension "
                         f"of 4. Received: boxes.shape={tuple(boxes.shape)}")
    return boxes


def _size(value, dtype):
    return None if value is None else ops.cast(value, dtype)


def convert_format(boxes, source, target, height=None, width=None,
                   dtype="float32"):
    """Convert bounding boxes from one format to another.

    Formats (case-insensitive): `"xyxy"`, `"yxyx"`, `"xywh"`,
    `"center_xywh"`, `"center_yxhw"`, and the relative `"rel_xyxy"`,
    `"rel_yxyx"`, `"rel_xywh"`, `"rel_center_xywh"` (coordinates as
    fractions of the image width and height).

    Args:
        boxes: Boxes shaped `(..., 4)`, or a dict whose `"boxes"` entry is
            converted (other entries are kept).
        source: Format of `boxes`.
        target: Format to convert to.
        height: Image height; required when exactly one of the formats is
            relative. May be an array broadcasting against the boxes.
        width: Image width (same rules).
        dtype: Dtype of the result. Defaults to `"float32"`.

    Returns:
        The converted boxes (or a new dict holding them).

    Example:

    >>> boxes = np.array([[10, 20, 30, 40]])
    >>> convert_format(boxes, "xyxy", "xywh").numpy()
    array([[10., 20., 20., 20.]], dtype=float32)
    >>> convert_format(boxes, "xyxy", "rel_xyxy", height=200,
    ...                width=100).numpy()
    array([[0.1, 0.1, 0.3, 0.2]], dtype=float32)
    """
    if isinstance(boxes, dict):
        result = dict(boxes)
        result["boxes"] = convert_format(boxes["boxes"], source, target,
                                         height, width, dtype)
        return result
    boxes = _check_boxes(boxes)
    source = formats.standardize_format(source, "source")
    target = formats.standardize_format(target, "target")
    relative = (formats.is_relative(source), formats.is_relative(target))
    if relative[0] != relative[1] and (height is None or width is None):
        raise ValueError(
            "convert_format() needs `height` and `width` to convert between "
            f"relative and absolute formats. Received: source={source!r}, "
            f"target={target!r}, height={height}, width={width}")
    boxes = ops.cast(boxes, dtype)
    if source == target:
        return boxes
    if all(relative):
        # Both relative: the image size cancels out.
        source, target = source[4:], target[4:]
        relative = (False, False)
    height, width = _size(height, dtype), _size(width, dtype)
    x1, y1, x2, y2 = formats.to_corners(boxes, source)
    if relative[0]:
        x1, y1, x2, y2 = x1 * width, y1 * height, x2 * width, y2 * height
    out = formats.from_corners(x1, y1, x2, y2, target)
    if relative[1]:
        out = formats.scale_columns(out, target, height, width, inverse=True)
    return out


def _area(boxes):
    x1, y1, x2, y2 = formats.split(boxes)
    return (x2 - x1) * (y2 - y1)


def _invalidate_labels(labels, boxes):
    """Label -1 for the boxes left with no area."""
    labels = ops.convert_to_tensor(labels)
    keep = ops.squeeze(ops.greater(_area(boxes), 0), axis=-1)
    while keep.ndim < labels.ndim:
        keep = ops.expand_dims(keep, -1)
    return ops.where(keep, labels, ops.cast(-1, labels.dtype))


def clip_to_image_size(bounding_boxes, height=None, width=None,
                       bounding_box_format="xyxy"):
    """Clip boxes to the image; boxes left with no area get label -1.

    Args:
        bounding_boxes: Dict with `"boxes"` shaped `(N, 4)` or
            `(batch, N, 4)` and optionally `"labels"` shaped `(N,)` or
            `(batch, N)`.
        height: Image height (needed for absolute formats).
        width: Image width (needed for absolute formats).
        bounding_box_format: Format of the boxes. Defaults to `"xyxy"`.

    Returns:
        A new dict with the clipped boxes (same format) and labels.

    Example:

    >>> boxes = {"boxes": np.array([[-10, -20, 150, 160], [130, 40, 140, 80]]),
    ...          "labels": np.array([0, 1])}
    >>> out = clip_to_image_size(boxes, height=100, width=120)
    >>> out["boxes"].numpy()
    array([[  0.,   0., 120., 100.],
           [120.,  40., 120.,  80.]], dtype=float32)
    >>> out["labels"].numpy()
    array([ 0, -1])
    """
    fmt = formats.standardize_format(bounding_box_format)
    relative = formats.is_relative(fmt)
    if not relative and (height is None or width is None):
        raise ValueError(
            "`height` and `width` must be set to clip boxes in an absolute "
            f"format. Received: bounding_box_format={fmt!r}, "
            f"height={height}, width={width}")
    boxes = ops.convert_to_tensor(bounding_boxes["boxes"])
    dtype = boxes.dtype if boxes.dtype.kind == "f" else "float32"
    corners = "rel_xyxy" if relative else "xyxy"
    boxes = convert_format(boxes, fmt, corners, dtype=dtype)
    limit_x, limit_y = (1.0, 1.0) if relative else (
        _size(width, dtype), _size(height, dtype))
    x1, y1, x2, y2 = formats.split(boxes)
    boxes = formats.join([ops.clip(x1, 0, limit_x), ops.clip(y1, 0, limit_y),
                          ops.clip(x2, 0, limit_x), ops.clip(y2, 0, limit_y)])
    result = dict(bounding_boxes)
    if bounding_boxes.get("labels") is not None:
        result["labels"] = _invalidate_labels(bounding_boxes["labels"], boxes)
    result["boxes"] = convert_format(boxes, corners, fmt, dtype=dtype)
    return result


def _require_absolute(fmt, function):
    fmt = formats.standardize_format(fmt)
    if formats.is_relative(fmt):
        raise ValueError(
            f"{function}() works in pixels: pass boxes in an absolute format "
            f"(e.g. 'xyxy'). Received: bounding_box_format={fmt!r}")
    return fmt


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """Move boxes into the frame of a crop of the image, clipped to it.

    Args:
        boxes: Boxes shaped `(N, 4)` or `(batch, N, 4)`.
        top: First row of the crop.
        left: First column of the crop.
        height: Height of the crop.
        width: Width of the crop.
        bounding_box_format: An absolute format. Defaults to `"xyxy"`.

    Returns:
        The boxes in the crop's coordinates, in the same format.

    Example:

    >>> boxes = np.array([[10, 20, 50, 60], [70, 80, 100, 120]])
    >>> crop(boxes, top=10, left=20, height=40, width=30).numpy()
    array([[ 0., 10., 30., 40.],
           [30., 40., 30., 40.]], dtype=float32)
    """
    fmt = _require_absolute(bounding_box_format, "crop")
    x1, y1, x2, y2 = formats.split(convert_format(boxes, fmt, "xyxy"))
    shifted = [ops.clip(x1 - left, 0, width), ops.clip(y1 - top, 0, height),
               ops.clip(x2 - left, 0, width), ops.clip(y2 - top, 0, height)]
    return convert_format(formats.join(shifted), "xyxy", fmt)


def pad(boxes, top, left, height=None, width=None,
        bounding_box_format="xyxy"):
    """Move boxes into the frame of a padded image (shift by the padding).

    Args:
        boxes: Boxes shaped `(N, 4)` or `(batch, N, 4)`.
        top: Rows added above the image.
        left: Columns added to the left of the image.
        height: Height of the padded image (unused by absolute formats;
            kept for Keras's signature).
        width: Width of the padded image (same).
        bounding_box_format: An absolute format. Defaults to `"xyxy"`.

    Returns:
        The shifted boxes, in the same format.

    Example:

    >>> pad(np.array([[10, 20, 50, 60]]), top=5, left=3).numpy()
    array([[13., 25., 53., 65.]], dtype=float32)
    """
    fmt = _require_absolute(bounding_box_format, "pad")
    x1, y1, x2, y2 = formats.split(convert_format(boxes, fmt, "xyxy"))
    shifted = formats.join([x1 + left, y1 + top, x2 + left, y2 + top])
    return convert_format(shifted, "xyxy", fmt)


def _per_box(value, batch, dtype):
    value = ops.cast(ops.convert_to_tensor(value), dtype)
    return ops.broadcast_to(ops.reshape(value, (-1,)), (batch,)) \
        if value.ndim == 0 else ops.reshape(value, (batch,))


def inverse_affine_matrix(angle, translate_x, translate_y, scale, shear_x,
                          shear_y, height, width, center_x, center_y):
    """`(batch, 2, 3)` matrices mapping input pixels to transformed ones
    (torchvision's inverse-affine parametrisation, which Keras uses)."""
    degrees = math.pi / 180.0
    rot, sx, sy = -angle * degrees, -shear_x * degrees, -shear_y * degrees
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    tx, ty = -translate_x * (width - 1), -translate_y * (height - 1)
    a = ops.cos(rot - sy) / ops.cos(sy)
    b = a * ops.tan(sx) + ops.sin(rot)
    c = -ops.sin(rot - sy) / ops.cos(sy)
    d = ops.cos(rot) - c * ops.tan(sx)
    a0, a1, b0, b1 = d * scale, -b * scale, -c * scale, a * scale
    a2 = cx - a0 * (cx + tx) - a1 * (cy + ty)
    b2 = cy - b0 * (cx + tx) - b1 * (cy + ty)
    rows = [ops.stack([a0, a1, a2], axis=-1), ops.stack([b0, b1, b2], -1)]
    return ops.stack(rows, axis=1)


def transform_corners(boxes, matrix):
    """Envelopes of xyxy `boxes` `(batch, N, 4)` after mapping their four
    corners with `(batch, 2, 3)` affine matrices."""
    x1, y1, x2, y2 = [ops.squeeze(p, -1) for p in formats.split(boxes)]
    xs = ops.stack([x1, x2, x2, x1], axis=-1)
    ys = ops.stack([y1, y1, y2, y2], axis=-1)
    m = [matrix[:, i // 3, i % 3][:, None, None] for i in range(6)]
    new_x = m[0] * xs + m[1] * ys + m[2]
    new_y = m[3] * xs + m[4] * ys + m[5]
    return ops.stack([ops.min(new_x, axis=-1), ops.min(new_y, axis=-1),
                      ops.max(new_x, axis=-1), ops.max(new_y, axis=-1)],
                     axis=-1)


def affine_transform(boxes, angle, translate_x, translate_y, scale, shear_x,
                     shear_y, height, width, center_x=None, center_y=None,
                     bounding_box_format="xyxy"):
    """Apply a rotation, translation, scale and shear to boxes.

    Each box's four corners are moved and the box becomes their envelope.
    Angles are in degrees; translations are fractions of `width - 1` and
    `height - 1`; the centre is a fraction of the image size (default the
    middle).

    Args:
        boxes: Boxes shaped `(batch, N, 4)` (or `(N, 4)` with scalar
            parameters).
        angle: Rotation per image, degrees.
        translate_x: Horizontal translation per image (fraction).
        translate_y: Vertical translation per image (fraction).
        scale: Scale per image.
        shear_x: Shear angle along x per image, degrees.
        shear_y: Shear angle along y per image, degrees.
        height: Image height.
        width: Image width.
        center_x: Centre of the transformation (fraction); defaults to 0.5.
        center_y: Centre of the transformation (fraction); defaults to 0.5.
        bounding_box_format: An absolute format. Defaults to `"xyxy"`.

    Returns:
        The transformed boxes, shaped and formatted as `boxes`.

    Example:

    >>> boxes = np.array([[[0.0, 0.0, 2.0, 2.0]]])
    >>> out = affine_transform(boxes, [0.0], [0.5], [0.0], [1.0], [0.0],
    ...                        [0.0], height=5, width=5)
    >>> out.numpy()
    array([[[2., 0., 4., 2.]]], dtype=float32)
    """
    fmt = _require_absolute(bounding_box_format, "affine_transform")
    boxes = convert_format(boxes, fmt, "xyxy")
    unbatched = boxes.ndim == 2
    if unbatched:
        boxes = ops.expand_dims(boxes, 0)
    batch, dtype = boxes.shape[0], boxes.dtype
    params = [_per_box(p, batch, dtype) for p in (
        angle, translate_x, translate_y, scale, shear_x, shear_y,
        0.5 if center_x is None else center_x,
        0.5 if center_y is None else center_y)]
    matrix = inverse_affine_matrix(*params[:6], float(height), float(width),
                                   params[6], params[7])
    out = transform_corners(boxes, matrix)
    out = ops.squeeze(out, 0) if unbatched else out
    return convert_format(out, "xyxy", fmt)
