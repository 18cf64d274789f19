"""`draw_bounding_boxes`: draw boxes and their class names on images, with
numpy (rectangles and a built-in bitmap font; no OpenCV needed)."""
import numpy as np

from kerasish.backend import config
from kerasish.layers.preprocessing.image.bounding_boxes.converters import (
    convert_format)
from kerasish.visualization import font


def to_uint8_images(images):
    """Pixels as uint8 (floats in `[0, 1]` are taken as fractions)."""
    images = np.array(images)
    if images.dtype.kind == "f" and images.size:
        images = np.clip(images, 0, 1) * 255 if images.max() <= 1.0 else \
            np.clip(images, 0, 255)
    return images.astype("uint8")


def _paint(image, rows, cols, color):
    """Paint the pixels `image[rows, cols]` (slices clipped to the image)."""
    height, width = image.shape[:2]
    r0, r1 = max(rows[0], 0), min(rows[1], height)
    c0, c1 = max(cols[0], 0), min(cols[1], width)
    if r0 < r1 and c0 < c1:
        image[r0:r1, c0:c1] = color


def draw_rectangle(image, box, color, thickness):
    """Outline `box` (integer xyxy) on a channels-last uint8 image; lines
    are `thickness` pixels wide, centred on the box edges."""
    x1, y1, x2, y2 = box
    before, after = (thickness - 1) // 2, thickness // 2 + 1
    for y in (y1, y2):
        _paint(image, (y - before, y + after), (x1 - before, x2 + after),
               color)
    for x in (x1, x2):
        _paint(image, (y1 - before, y2 + after), (x - before, x + after),
               color)


def draw_text(image, text, origin, color, font_scale=1.0, thickness=1):
    """Write `text` with its bottom-left corner at `origin` `(x, y)`."""
    scale = max(1, int(round(2 * font_scale)))
    bitmap = font.render(text, scale, thickness)
    x, y = origin
    top = y - bitmap.shape[0]
    height, width = image.shape[:2]
    rows = slice(max(top, 0), min(y, height))
    cols = slice(max(x, 0), min(x + bitmap.shape[1], width))
    if rows.start >= rows.stop or cols.start >= cols.stop:
        return
    mask = bitmap[rows.start - top:rows.stop - top,
                  cols.start - x:cols.stop - x]
    region = image[rows, cols]
    region[mask] = color


def text_origin(x, y, font_scale, thickness):
    """Above the box when there is room, else just inside it (Keras's
    placement)."""
    font_height = int(font_scale * 12)
    if y - 8 - 2 * font_height > 0:
        return x, y - 8
    return x + 3, y + 2 * font_height + thickness + 3


def _check(images, bounding_boxes):
    if np.ndim(images) != 4:
        raise ValueError("`images` must be batched 4D tensor. "
                         f"Received: images.shape={np.shape(images)}")
    if not isinstance(bounding_boxes, dict):
        raise TypeError("`bounding_boxes` should be a dict. Received: "
                        f"bounding_boxes={bounding_boxes} of type "
                        f"{type(bounding_boxes)}")
    if "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError("`bounding_boxes` should be a dict containing "
                         "'boxes' and 'labels' keys. Received: "
                         f"bounding_boxes={bounding_boxes}")


def draw_bounding_boxes(images, bounding_boxes, bounding_box_format,
                        class_mapping=None, color=(128, 128, 128),
                        line_thickness=2, text_thickness=1, font_scale=1.0,
                        data_format=None):
    """Draw bounding boxes (and class names) on a batch of images.

    Boxes with label -1 are skipped. When `class_mapping` names a box's
    class, the name (and its confidence, if given) is written above the
    box, or inside it near the top of the image.

    Args:
        images: Images `(batch, height, width, channels)` (or channels
            first). Floats in `[0, 1]` are scaled to `[0, 255]`.
        bounding_boxes: Dict with `"boxes"` `(batch, num_boxes, 4)`,
            `"labels"` `(batch, num_boxes)` and optionally
            `"confidences"` `(batch, num_boxes)`.
        bounding_box_format: Format of the boxes (see
            `keras.utils.bounding_boxes.convert_format`).
        class_mapping: Optional dict of class id -> name.
        color: RGB colour of the boxes and text. Defaults to
            `(128, 128, 128)`.
        line_thickness: Box line width in pixels. Defaults to 2.
        text_thickness: Text stroke width. Defaults to 1 (`0` or `None`:
            `line_thickness`).
        font_scale: Text size factor. Defaults to 1.0.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.

    Returns:
        A uint8 numpy array of the annotated images, channels last.

    Example:

    >>> images = np.zeros((1, 8, 8, 3))
    >>> boxes = {"boxes": np.array([[[1, 1, 6, 6]]]),
    ...          "labels": np.array([[0]])}
    >>> out = draw_bounding_boxes(images, boxes, "xyxy", color=(255, 0, 0),
    ...                           line_thickness=1)
    >>> out[0, 1, :, 0].tolist()
    [0, 255, 255, 255, 255, 255, 255, 0]
    """
    _check(images, bounding_boxes)
    data_format = config.standardize_data_format(data_format)
    images = np.asarray(images)
    if data_format == "channels_first":
        images = np.moveaxis(images, 1, -1)
    height, width = images.shape[1:3]
    boxes = np.asarray(convert_format(bounding_boxes["boxes"],
                                      bounding_box_format, "xyxy",
                                      height=height, width=width))
    labels = np.asarray(bounding_boxes["labels"])
    confidences = bounding_boxes.get("confidences")
    if confidences is not None:
        confidences = np.asarray(confidences)
    images = to_uint8_images(images)
    class_mapping = class_mapping or {}
    text_thickness = text_thickness or line_thickness
    color = np.asarray(color, "uint8")[:images.shape[-1]]
    for i, image in enumerate(images):
        for j, box in enumerate(boxes[i].astype("int32")):
            label = int(labels[i][j])
            if label == -1:
                continue
            draw_rectangle(image, box, color, int(line_thickness))
            if label in class_mapping:
                text = str(class_mapping[label])
                if confidences is not None:
                    text = f"{text} | {float(confidences[i][j]):.2f}"
                origin = text_origin(box[0], box[1], font_scale,
                                     text_thickness)
                draw_text(image, text, origin, color, font_scale,
                          text_thickness)
    return images
