"""Box regression targets: boxes encoded as offsets from anchors, and back.

A detector's regression head predicts, per anchor, the shift of the box
centre in units of the anchor size and the log of the size ratio; these
functions turn boxes into those deltas and deltas back into boxes.
"""
from kerasish import ops
from kerasish.backend import config
from kerasish.layers.preprocessing.image.bounding_boxes.converters import (
    convert_format)

_ENCODINGS = ("center_xywh", "center_yxhw")


def _variance(variance):
    if variance is None:
        return None
    variance = ops.convert_to_tensor(variance, "float32")
    if variance.ndim == 0 or variance.shape[-1] != 4:
        raise ValueError("`variance` must be a list of 4 numbers. "
                         f"Received: variance={variance.numpy().tolist()}")
    return variance


def _image_size(image_shape):
    if image_shape is None:
        return None, None
    height, width = image_shape[0], image_shape[1]
    return height, width


def encode_box_to_deltas(anchors, boxes, anchor_format, box_format,
                         encoding_format="center_yxhw", variance=None,
                         image_shape=None):
    """Encode boxes as deltas from anchors.

    Both are converted to `encoding_format`; the deltas are the centre
    offset divided by the anchor size, then the log of the size ratio
    (divided by `variance` if given).

    Args:
        anchors: Anchor boxes `(N, 4)`.
        boxes: Boxes `(N, 4)` or `(batch, N, 4)`, one per anchor.
        anchor_format: Format of `anchors`.
        box_format: Format of `boxes`.
        encoding_format: `"center_yxhw"` (default) or `"center_xywh"`.
        variance: Optional 4 scale factors the deltas are divided by.
        image_shape: `(height, width, channels)`, needed for relative
            formats.

    Returns:
        The deltas, shaped like `boxes`, in the order of `encoding_format`.

    Example:

    >>> anchors = np.array([[0.0, 0.0, 10.0, 10.0]])
    >>> boxes = np.array([[1.0, 2.0, 11.0, 12.0]])
    >>> encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy").numpy()
    array([[0.2, 0.1, 0. , 0. ]], dtype=float32)
    """
    variance = _variance(variance)
    if encoding_format not in _ENCODINGS:
        raise ValueError("`encoding_format` should be one of 'center_xywh' "
                         "or 'center_yxhw'. Received: "
                         f"encoding_format={encoding_format!r}")
    height, width = _image_size(image_shape)
    anchors = convert_format(anchors, anchor_format, encoding_format,
                             height, width)
    boxes = convert_format(boxes, box_format, encoding_format, height, width)
    anchor_size = ops.maximum(anchors[..., 2:], config.epsilon())
    box_size = ops.maximum(boxes[..., 2:], config.epsilon())
    deltas = ops.concatenate(
        [(boxes[..., :2] - anchors[..., :2]) / anchor_size,
         ops.log(box_size / anchor_size)], axis=-1)
    return deltas if variance is None else deltas / variance


def _decode_level(anchors, deltas, anchor_format, box_format,
                  encoded_format, variance, height, width):
    anchors = convert_format(anchors, anchor_format, encoded_format,
                             height, width)
    deltas = ops.convert_to_tensor(deltas)
    if variance is not None:
        deltas = deltas * variance
    boxes = ops.concatenate(
        [deltas[..., :2] * anchors[..., 2:] + anchors[..., :2],
         ops.exp(deltas[..., 2:]) * anchors[..., 2:]], axis=-1)
    return convert_format(boxes, encoded_format, box_format, height, width)


def decode_deltas_to_boxes(anchors, boxes_delta, anchor_format, box_format,
                           encoded_format="center_yxhw", variance=None,
                           image_shape=None):
    """Decode deltas from anchors back into boxes (`encode_box_to_deltas`
    inverted).

    Args:
        anchors: Anchor boxes `(N, 4)`, or a dict of them per feature level.
        boxes_delta: Deltas `(N, 4)` or `(batch, N, 4)`, or a dict with the
            same keys as `anchors`.
        anchor_format: Format of `anchors`.
        box_format: Format of the returned boxes.
        encoded_format: `"center_yxhw"` (default) or `"center_xywh"`.
        variance: Optional 4 scale factors the deltas are multiplied by.
        image_shape: `(height, width, channels)`, needed for relative
            formats.

    Returns:
        The boxes in `box_format` (a dict per level for dict inputs).

    Example:

    >>> anchors = np.array([[0.0, 0.0, 10.0, 10.0]])
    >>> deltas = np.array([[0.2, 0.1, 0.0, 0.0]])
    >>> decode_deltas_to_boxes(anchors, deltas, "xyxy", "xyxy").numpy()
    array([[ 1.,  2., 11., 12.]], dtype=float32)
    """
    variance = _variance(variance)
    if encoded_format not in _ENCODINGS:
        raise ValueError("`encoded_format` should be 'center_xywh' or "
                         "'center_yxhw'. Received: "
                         f"encoded_format={encoded_format!r}")
    height, width = _image_size(image_shape)
    args = (anchor_format, box_format, encoded_format, variance, height,
            width)
    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: _decode_level(anchor, boxes_delta[level], *args)
                for level, anchor in anchors.items()}
    return _decode_level(anchors, boxes_delta, *args)
