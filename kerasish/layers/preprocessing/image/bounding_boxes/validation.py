"""Checking bounding box dicts and turning ragged (list) boxes into dense
tensors padded to a common count (padding boxes have label -1)."""
import numpy as np

from kerasish.backend.tensor import Tensor


def validate_bounding_boxes(bounding_boxes):
    """Raise a `ValueError` unless `bounding_boxes` is a dict of `"boxes"`
    and `"labels"` with consistent ranks."""
    if not isinstance(bounding_boxes, dict) or \
            "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError(
            "Expected `bounding_boxes` to be a dict with keys 'boxes' and "
            f"'labels'. Received: bounding_boxes={bounding_boxes}")
    boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
    if isinstance(boxes, list) and _is_ragged(boxes):
        if not isinstance(labels, list) or len(labels) != len(boxes):
            raise ValueError(
                "Ragged `bounding_boxes['boxes']` (a list) need a list of "
                "labels of the same length. Received: "
                f"bounding_boxes['labels']={labels}")
        return
    rank, label_rank = np.ndim(boxes), np.ndim(labels)
    if rank not in (2, 3):
        raise ValueError(
            "Expected `bounding_boxes['boxes']` to have rank 2 or 3, with "
            "shape (num_boxes, 4) or (batch_size, num_boxes, 4). Received: "
            f"bounding_boxes['boxes'].shape={np.shape(boxes)}")
    if label_rank not in (rank - 1, rank):
        raise ValueError(
            f"Found bounding_boxes['boxes'].shape={np.shape(boxes)} and "
            f"expected bounding_boxes['labels'] to have rank {rank - 1} or "
            f"{rank}, but received: bounding_boxes['labels'].shape="
            f"{np.shape(labels)}")


def _is_ragged(boxes):
    """Whether a nested list of boxes has rows of different lengths."""
    if not boxes or not isinstance(boxes[0], (list, tuple, np.ndarray)):
        return False
    if len(np.shape(boxes[0])) != 2:
        return False
    return len({len(b) for b in boxes}) > 1


def _pad_rows(rows, count, fill, width=None):
    out = []
    for row in rows:
        row = np.asarray(row, "float64").reshape((-1,) + (
            (width,) if width else ()))[:count]
        padding = np.full((count - len(row),) + row.shape[1:], fill)
        out.append(np.concatenate([row, padding]))
    return np.stack(out)


def densify_bounding_boxes(bounding_boxes, max_boxes=None,
                           boxes_default_value=0, labels_default_value=-1):
    """Dense tensors for `bounding_boxes`: `"boxes"` as float32, ragged
    lists padded (or cut) to `max_boxes` (default: the longest)."""
    validate_bounding_boxes(bounding_boxes)
    boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
    result = dict(bounding_boxes)
    if isinstance(boxes, list) and _is_ragged(boxes):
        count = max_boxes or max(len(b) for b in boxes)
        boxes = _pad_rows(boxes, count, boxes_default_value, 4)
        labels = _pad_rows(labels, count, labels_default_value).astype(
            "int32")
    result["boxes"] = Tensor(np.asarray(boxes, "float32"))
    labels = labels if isinstance(labels, Tensor) else Tensor(
        np.asarray(labels))
    result["labels"] = labels
    return result
