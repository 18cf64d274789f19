"""Bounding box formats and the corner split every converter starts from.

A box is four numbers along the last axis; the format names what they are:

- `"xyxy"`: `[left, top, right, bottom]`
- `"yxyx"`: `[top, left, bottom, right]`
- `"xywh"`: `[left, top, width, height]`
- `"center_xywh"`: `[center_x, center_y, width, height]`
- `"center_yxhw"`: `[center_y, center_x, height, width]`
- `"rel_xyxy"`, `"rel_yxyx"`, `"rel_xywh"`, `"rel_center_xywh"`: the same,
  as fractions of the image width (x values) and height (y values).
"""
from kerasish import ops

SUPPORTED_FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw",
                     "rel_xyxy", "rel_yxyx", "rel_xywh", "rel_center_xywh")


def standardize_format(name, argument="bounding_box_format"):
    """The lower-case format name, or a `ValueError` naming the options."""
    if not isinstance(name, str) or name.lower() not in SUPPORTED_FORMATS:
        raise ValueError(
            f"Invalid bounding box format: expected one of "
            f"{SUPPORTED_FORMATS}. Received: {argument}={name!r}")
    return name.lower()


def is_relative(name):
    return name.startswith("rel_")


def split(boxes):
    """The four coordinates of `boxes`, each keeping a size-1 last axis."""
    return ops.split(boxes, 4, axis=-1)


def join(parts):
    return ops.concatenate(parts, axis=-1)


def to_corners(boxes, fmt):
    """`(x1, y1, x2, y2)` of boxes in format `fmt` (relative formats stay
    relative: the caller scales)."""
    a, b, c, d = split(boxes)
    base = fmt[4:] if is_relative(fmt) else fmt
    if base == "xyxy":
        return a, b, c, d
    if base == "yxyx":
        return b, a, d, c
    if base == "xywh":
        return a, b, a + c, b + d
    if base == "center_xywh":
        return a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0
    # center_yxhw
    return b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0


def from_corners(x1, y1, x2, y2, fmt):
    """Boxes in format `fmt` (the absolute version of a relative one) from
    corners."""
    base = fmt[4:] if is_relative(fmt) else fmt
    if base == "xyxy":
        return join([x1, y1, x2, y2])
    if base == "yxyx":
        return join([y1, x1, y2, x2])
    width, height = x2 - x1, y2 - y1
    if base == "xywh":
        return join([x1, y1, width, height])
    cx, cy = x1 + width / 2.0, y1 + height / 2.0
    if base == "center_xywh":
        return join([cx, cy, width, height])
    return join([cy, cx, height, width])


def scale_columns(boxes, fmt, height, width, inverse=False):
    """Multiply (or, with `inverse`, divide) each coordinate of relative
    format `fmt` by the image size along its axis."""
    sizes = (height, width) if fmt in ("rel_yxyx",) else (width, height)
    parts = split(boxes)
    if inverse:
        scaled = [p / sizes[i % 2] for i, p in enumerate(parts)]
    else:
        scaled = [p * sizes[i % 2] for i, p in enumerate(parts)]
    return join(scaled)
