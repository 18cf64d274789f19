"""`kerasish.utils.bounding_boxes` against real Keras 3.15 (values from
tests/layers/preprocessing/image/make_keras_reference.py), plus errors and
gradients."""
import numpy as np
import pytest

import kerasish
from kerasish.utils import bounding_boxes as bb
from kerasish.utils import check_grads
from tests.layers.preprocessing.image.reference import reference

REF = reference("bounding_boxes")
BOXES = REF["boxes"]
FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy",
           "rel_yxyx", "rel_xywh", "rel_center_xywh")


def close(actual, expected, atol=1e-5):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-5,
                               atol=atol)


@pytest.mark.parametrize("source", FORMATS)
@pytest.mark.parametrize("target", FORMATS)
def test_convert_format_matches_keras(source, target):
    out = bb.convert_format(BOXES, source, target, height=60, width=80)
    close(out, REF["convert"][f"{source}>{target}"])
    assert str(out.dtype) == "float32"


def test_convert_format_round_trips_and_keeps_dict_entries():
    data = {"boxes": BOXES, "labels": np.array([[1, 2, 3], [4, 5, 6]])}
    out = bb.convert_format(data, "xyxy", "center_yxhw")
    assert out["labels"] is data["labels"] and data["boxes"] is BOXES
    back = bb.convert_format(out, "CENTER_YXHW", "xyxy")
    close(back["boxes"], BOXES, atol=1e-4)


def test_convert_format_errors():
    with pytest.raises(ValueError, match="last dimension of 4"):
        bb.convert_format(np.zeros((2, 3)), "xyxy", "xywh")
    with pytest.raises(ValueError, match="Received: target='xyz'"):
        bb.convert_format(BOXES, "xyxy", "xyz")
    with pytest.raises(ValueError, match="height.*width"):
        bb.convert_format(BOXES, "xyxy", "rel_xyxy")
    # relative to relative needs no image size
    bb.convert_format(BOXES / 100, "rel_xyxy", "rel_xywh")


def test_clip_to_image_size_matches_keras():
    data = {"boxes": BOXES * 1.5 - 10, "labels": np.array([[0, 1, 2],
                                                           [1, 2, 3]])}
    out = bb.clip_to_image_size(data, height=60, width=80)
    close(out["boxes"], REF["clip"]["boxes"])
    np.testing.assert_array_equal(np.asarray(out["labels"]),
                                  REF["clip"]["labels"])


def test_clip_in_other_formats_and_errors():
    data = {"boxes": np.array([[-5.0, 10.0, 200.0, 20.0]])}
    out = bb.clip_to_image_size(data, 50, 100, bounding_box_format="xywh")
    close(out["boxes"], [[0.0, 10.0, 100.0, 20.0]])
    rel = bb.clip_to_image_size({"boxes": np.array([[-0.5, 0.2, 0.5, 1.5]])},
                                bounding_box_format="rel_yxyx")
    close(rel["boxes"], [[0.0, 0.2, 0.5, 1.0]])
    with pytest.raises(ValueError, match="`height` and `width`"):
        bb.clip_to_image_size(data)


def test_crop_pad_and_affine_match_keras():
    close(bb.crop(BOXES, 5, 7, 40, 30), REF["crop"])
    close(bb.pad(BOXES, 5, 7), REF["pad"])
    out = bb.affine_transform(
        BOXES, np.array([30.0, -45.0]), np.array([0.1, -0.2]),
        np.array([0.05, 0.0]), np.array([1.2, 0.8]), np.array([10.0, 0.0]),
        np.array([0.0, -5.0]), 60, 80)
    close(out, REF["affine"], atol=1e-4)
    with pytest.raises(ValueError, match="absolute format"):
        bb.crop(BOXES, 0, 0, 5, 5, bounding_box_format="rel_xyxy")


def test_affine_transform_unbatched_and_other_format():
    boxes = np.array([[0.0, 0.0, 2.0, 2.0]])
    out = bb.affine_transform(boxes, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 5, 5,
                              bounding_box_format="xywh")
    close(out, [[2.0, 0.0, 2.0, 2.0]])


def test_iou_and_ciou_match_keras():
    close(bb.compute_iou(BOXES[0], BOXES[1], "xyxy"), REF["iou"])
    close(bb.compute_iou(BOXES - 20, BOXES, "xywh", use_masking=True),
          REF["iou_batched_masked"])
    close(bb.compute_ciou(BOXES[0], BOXES[1], "xyxy"), REF["ciou"])


def test_iou_shapes_for_mixed_ranks():
    assert bb.compute_iou(BOXES, BOXES[0], "xyxy").shape == (2, 3, 3)
    assert bb.compute_iou(BOXES[0][:2], BOXES, "xyxy").shape == (2, 2, 3)
    with pytest.raises(ValueError, match="image_shape"):
        bb.compute_iou(BOXES, BOXES, "rel_xyxy")
    rel = bb.compute_iou(BOXES / 100, BOXES / 100, "rel_xyxy",
                         image_shape=(100, 100, 3))
    close(rel, np.asarray(bb.compute_iou(BOXES, BOXES, "xyxy")), atol=1e-4)


def test_deltas_match_keras_and_invert():
    variance = [0.1, 0.1, 0.2, 0.2]
    deltas = bb.encode_box_to_deltas(BOXES[0], BOXES, "xyxy", "xywh",
                                     variance=variance)
    close(deltas, REF["encode"], atol=1e-4)
    close(bb.decode_deltas_to_boxes(BOXES[0], BOXES / 50, "xyxy",
                                    "center_xywh", variance=variance),
          REF["decode"], atol=1e-3)
    back = bb.decode_deltas_to_boxes(BOXES[0], deltas, "xyxy", "xywh",
                                     variance=variance)
    close(back, BOXES, atol=1e-3)
    levels = bb.decode_deltas_to_boxes({"p3": BOXES[0]}, {"p3": deltas[0]},
                                       "xyxy", "xywh", variance=variance)
    assert set(levels) == {"p3"}
    with pytest.raises(ValueError, match="variance"):
        bb.encode_box_to_deltas(BOXES[0], BOXES, "xyxy", "xyxy",
                                variance=[1.0])
    with pytest.raises(ValueError, match="encoding_format"):
        bb.encode_box_to_deltas(BOXES[0], BOXES, "xyxy", "xyxy",
                                encoding_format="xyxy")


def test_ciou_is_differentiable():
    # CIoU computes in float32 (as Keras): a coarser step and tolerance.
    a = BOXES[0].astype("float64")
    b = BOXES[1].astype("float64")
    check_grads(lambda x, y: bb.compute_ciou(x, y, "xyxy"), [a, b],
                eps=1e-2, rtol=1e-3, atol=1e-5)
    check_grads(lambda x: bb.convert_format(x, "xyxy", "rel_center_xywh",
                                            60, 80, dtype="float64"), [a])


def test_namespace():
    names = {"affine_transform", "clip_to_image_size", "convert_format",
             "crop", "decode_deltas_to_boxes", "encode_box_to_deltas", "pad",
             "compute_ciou", "compute_iou"}
    assert names <= set(dir(kerasish.utils.bounding_boxes))
