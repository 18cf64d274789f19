"""`kerasish.utils.bounding_boxes`: box formats, clipping, moves, IoU and
anchor deltas (`keras.utils.bounding_boxes`)."""
from kerasish.utils.bounding_boxes.converters import (  # noqa: F401
    affine_transform, clip_to_image_size, convert_format, crop, pad)
from kerasish.utils.bounding_boxes.deltas import (  # noqa: F401
    decode_deltas_to_boxes, encode_box_to_deltas)
from kerasish.utils.bounding_boxes.iou import (  # noqa: F401
    compute_ciou, compute_iou)
