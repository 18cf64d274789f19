"""`kerasish.utils.bounding_boxes`: box formats, clipping, moves, IoU and
anchor deltas (`keras.utils.bounding_boxes`)."""
from kerasish.layers.preprocessing.image.bounding_boxes.converters import (
    affine_transform, clip_to_image_size, convert_format, crop,  # noqa: F401
    pad)
from kerasish.layers.preprocessing.image.bounding_boxes.deltas import (
    decode_deltas_to_boxes, encode_box_to_deltas)  # noqa: F401
from kerasish.layers.preprocessing.image.bounding_boxes.iou import (
    compute_ciou, compute_iou)  # noqa: F401
